-- AlterTable
ALTER TABLE "agent_runs" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'agent',
ADD COLUMN     "sources" JSONB,
ADD COLUMN     "warning" TEXT;

-- CreateIndex
CREATE INDEX "llm_token_usage_job_id_idx" ON "llm_token_usage"("job_id");
