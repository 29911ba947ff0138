/*
  Warnings:

  - You are about to drop the column `message` on the `agent_runs` table. All the data in the column will be lost.

*/
-- AlterTable
ALTER TABLE "agent_runs" DROP COLUMN "message";
-- The chat reply is derived from `data` when a run is read (agentStatusBody), so nothing is lost.
