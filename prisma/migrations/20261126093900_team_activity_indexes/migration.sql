-- CreateIndex
CREATE INDEX "jobs_team_id_created_at_idx" ON "jobs"("team_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "monitor_checks_team_id_created_at_idx" ON "monitor_checks"("team_id", "created_at" DESC);
