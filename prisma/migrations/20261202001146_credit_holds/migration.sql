-- AlterTable
ALTER TABLE "teams" ADD COLUMN     "reserved_credits" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "credit_holds" (
    "job_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "amount" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credit_holds_pkey" PRIMARY KEY ("job_id")
);

-- CreateIndex
CREATE INDEX "credit_holds_team_id_idx" ON "credit_holds"("team_id");

-- AddForeignKey
ALTER TABLE "credit_holds" ADD CONSTRAINT "credit_holds_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
