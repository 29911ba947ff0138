-- CreateTable
CREATE TABLE "interact_sessions" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "scrape_job_id" UUID NOT NULL,
    "api_key_id" UUID,
    "status" TEXT NOT NULL,
    "options" JSONB NOT NULL,
    "current_url" TEXT NOT NULL,
    "state" JSONB NOT NULL,
    "stop_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_active_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stopped_at" TIMESTAMPTZ(3),

    CONSTRAINT "interact_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "interact_sessions_scrape_job_id_created_at_idx" ON "interact_sessions"("scrape_job_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "interact_sessions_status_last_active_at_idx" ON "interact_sessions"("status", "last_active_at");

-- AddForeignKey
ALTER TABLE "interact_sessions" ADD CONSTRAINT "interact_sessions_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
