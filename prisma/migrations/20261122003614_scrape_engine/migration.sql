-- CreateTable
CREATE TABLE "browser_profiles" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "state" JSONB NOT NULL,
    "locked_by" UUID,
    "lock_expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "browser_profiles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "change_tracking_snapshots" (
    "team_id" UUID NOT NULL,
    "url_key" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "markdown" TEXT NOT NULL,
    "values" JSONB,
    "removed" BOOLEAN NOT NULL DEFAULT false,
    "scraped_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "change_tracking_snapshots_pkey" PRIMARY KEY ("team_id","url_key","tag")
);

-- CreateTable
CREATE TABLE "browser_leases" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "job_id" UUID,
    "acquired_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "browser_leases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "browser_profiles_team_id_name_key" ON "browser_profiles"("team_id", "name");

-- CreateIndex
CREATE INDEX "browser_leases_team_id_expires_at_idx" ON "browser_leases"("team_id", "expires_at");

-- AddForeignKey
ALTER TABLE "browser_profiles" ADD CONSTRAINT "browser_profiles_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "change_tracking_snapshots" ADD CONSTRAINT "change_tracking_snapshots_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
