-- CreateTable
CREATE TABLE "teams" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "credits" INTEGER NOT NULL DEFAULT 0,
    "rate_limit_per_minute" INTEGER,
    "concurrency_limit" INTEGER,
    "zero_data_retention" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "teams_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "name" TEXT,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "scopes" TEXT[] DEFAULT ARRAY['*']::TEXT[],
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credit_ledger" (
    "id" BIGSERIAL NOT NULL,
    "team_id" UUID NOT NULL,
    "amount" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "idempotency_key" TEXT,
    "job_id" UUID,
    "api_key_id" UUID,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credit_ledger_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_limit_windows" (
    "team_id" UUID NOT NULL,
    "bucket" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(0) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("team_id","bucket","window_start")
);

-- CreateTable
CREATE TABLE "jobs" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "api_key_id" UUID,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "input" JSONB,
    "result" JSONB,
    "error_code" TEXT,
    "error" TEXT,
    "credits_used" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "zero_data_retention" BOOLEAN NOT NULL DEFAULT false,
    "idempotency_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "documents" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "job_id" UUID,
    "source_url" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "url_key" TEXT NOT NULL,
    "cache_key" TEXT,
    "status_code" INTEGER NOT NULL,
    "title" TEXT,
    "description" TEXT,
    "content" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "documents_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "teams_name_key" ON "teams"("name");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_team_id_idx" ON "api_keys"("team_id");

-- CreateIndex
CREATE UNIQUE INDEX "credit_ledger_idempotency_key_key" ON "credit_ledger"("idempotency_key");

-- CreateIndex
CREATE INDEX "credit_ledger_team_id_created_at_idx" ON "credit_ledger"("team_id", "created_at");

-- CreateIndex
CREATE INDEX "credit_ledger_job_id_idx" ON "credit_ledger"("job_id");

-- CreateIndex
CREATE INDEX "rate_limit_windows_window_start_idx" ON "rate_limit_windows"("window_start");

-- CreateIndex
CREATE INDEX "jobs_team_id_kind_created_at_idx" ON "jobs"("team_id", "kind", "created_at");

-- CreateIndex
CREATE INDEX "jobs_status_kind_idx" ON "jobs"("status", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "jobs_team_id_idempotency_key_key" ON "jobs"("team_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "documents_job_id_idx" ON "documents"("job_id");

-- CreateIndex
CREATE INDEX "documents_team_id_cache_key_created_at_idx" ON "documents"("team_id", "cache_key", "created_at" DESC);

-- CreateIndex
CREATE INDEX "documents_team_id_url_key_created_at_idx" ON "documents"("team_id", "url_key", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "documents" ADD CONSTRAINT "documents_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
