-- CreateTable
CREATE TABLE "crawls" (
    "job_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "url" TEXT,
    "options" JSONB NOT NULL,
    "page_limit" INTEGER NOT NULL,
    "max_concurrency" INTEGER NOT NULL,
    "delay_ms" INTEGER NOT NULL DEFAULT 0,
    "frontier_size" INTEGER NOT NULL DEFAULT 0,
    "completed_count" INTEGER NOT NULL DEFAULT 0,
    "webhook" JSONB,
    "kicked_off_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "crawls_pkey" PRIMARY KEY ("job_id")
);

-- CreateTable
CREATE TABLE "crawl_pages" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "seq" BIGSERIAL NOT NULL,
    "rank" BIGINT NOT NULL DEFAULT 0,
    "crawl_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "url_key" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "depth" INTEGER NOT NULL,
    "trap_run" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "document_id" UUID,
    "credits" INTEGER NOT NULL DEFAULT 0,
    "error_code" TEXT,
    "error" TEXT,
    "completed_seq" INTEGER,
    "dispatched_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "crawl_pages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "crawl_hosts" (
    "crawl_id" UUID NOT NULL,
    "host" TEXT NOT NULL,
    "robots_state" TEXT NOT NULL DEFAULT 'pending',
    "robots_txt" TEXT,
    "robots_status" INTEGER,
    "fetched_at" TIMESTAMPTZ(3),
    "next_dispatch_at" TIMESTAMPTZ(3),

    CONSTRAINT "crawl_hosts_pkey" PRIMARY KEY ("crawl_id","host")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_status" INTEGER,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_streams" (
    "job_id" UUID NOT NULL,
    "target" JSONB NOT NULL,
    "lease_owner" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_streams_pkey" PRIMARY KEY ("job_id")
);

-- CreateIndex
CREATE INDEX "crawls_team_id_kind_created_at_idx" ON "crawls"("team_id", "kind", "created_at");

-- CreateIndex
CREATE INDEX "crawl_pages_crawl_id_status_depth_rank_idx" ON "crawl_pages"("crawl_id", "status", "depth", "rank");

-- CreateIndex
CREATE INDEX "crawl_pages_crawl_id_completed_seq_idx" ON "crawl_pages"("crawl_id", "completed_seq");

-- CreateIndex
CREATE INDEX "crawl_pages_team_id_status_idx" ON "crawl_pages"("team_id", "status");

-- CreateIndex
CREATE INDEX "crawl_pages_status_dispatched_at_idx" ON "crawl_pages"("status", "dispatched_at");

-- CreateIndex
CREATE UNIQUE INDEX "crawl_pages_crawl_id_url_key_key" ON "crawl_pages"("crawl_id", "url_key");

-- CreateIndex
CREATE INDEX "webhook_deliveries_job_id_status_seq_idx" ON "webhook_deliveries"("job_id", "status", "seq");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_streams_lease_until_idx" ON "webhook_streams"("lease_until");


-- AddForeignKey
ALTER TABLE "crawls" ADD CONSTRAINT "crawls_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crawl_pages" ADD CONSTRAINT "crawl_pages_crawl_id_fkey" FOREIGN KEY ("crawl_id") REFERENCES "crawls"("job_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crawl_hosts" ADD CONSTRAINT "crawl_hosts_crawl_id_fkey" FOREIGN KEY ("crawl_id") REFERENCES "crawls"("job_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: full-text search over stored documents (POST /v2/search, docs/crawl.md "Search").
-- A generated column keeps the vector in step with every insert; the markdown part is capped so a huge
-- page cannot make an insert slow. (Prisma renders the schema's dbgenerated() as a DEFAULT, which
-- PostgreSQL refuses for column references: the column is written by hand.)
ALTER TABLE "documents" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english'::regconfig, coalesce("title", '')), 'A') ||
  setweight(to_tsvector('english'::regconfig, coalesce("description", '')), 'B') ||
  setweight(to_tsvector('english'::regconfig, left(coalesce("content" ->> 'markdown', ''), 32768)), 'C')
) STORED;

CREATE INDEX "documents_search_idx" ON "documents" USING GIN ("search");
