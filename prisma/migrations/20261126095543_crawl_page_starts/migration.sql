-- AlterTable
ALTER TABLE "crawl_pages" ADD COLUMN     "starts" INTEGER NOT NULL DEFAULT 0;
