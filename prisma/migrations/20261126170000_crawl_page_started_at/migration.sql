-- AlterTable
ALTER TABLE "crawl_pages" ADD COLUMN     "started_at" TIMESTAMPTZ(3);
