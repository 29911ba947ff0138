/*
  Warnings:

  - A unique constraint covering the columns `[thread_id,thread_turn]` on the table `agent_runs` will be added. If there are existing duplicate values, this will fail.

*/
-- AlterTable
ALTER TABLE "agent_runs" ADD COLUMN     "message" TEXT,
ADD COLUMN     "mode" TEXT NOT NULL DEFAULT 'extract',
ADD COLUMN     "thread_id" UUID,
ADD COLUMN     "thread_turn" INTEGER;

-- CreateIndex
CREATE INDEX "agent_runs_team_id_thread_id_idx" ON "agent_runs"("team_id", "thread_id");

-- CreateIndex
CREATE UNIQUE INDEX "agent_runs_thread_id_thread_turn_key" ON "agent_runs"("thread_id", "thread_turn");
