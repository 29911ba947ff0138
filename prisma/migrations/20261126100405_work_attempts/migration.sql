-- AlterTable
ALTER TABLE "agent_runs" ADD COLUMN     "step_attempts" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "monitor_checks" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0;

-- Browser error pages stored as scrape results before they were refused (issue 12): out of the
-- cache and the search index (both only use status codes below 400). Uploads keep their file names.
UPDATE "documents" SET "cache_key" = NULL, "status_code" = 502 WHERE "url" ~* '^(chrome-error|chrome|about):';
