-- CreateTable
CREATE TABLE "monitors" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "api_key_id" UUID,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "cron" TEXT NOT NULL,
    "timezone" TEXT NOT NULL,
    "schedule_text" TEXT,
    "targets" JSONB NOT NULL,
    "webhook" JSONB,
    "notification" JSONB,
    "retention_days" INTEGER NOT NULL,
    "goal" TEXT,
    "judge_enabled" BOOLEAN NOT NULL,
    "robots_override" BOOLEAN NOT NULL DEFAULT false,
    "origin" TEXT NOT NULL DEFAULT 'api',
    "next_run_at" TIMESTAMPTZ(3),
    "last_run_at" TIMESTAMPTZ(3),
    "current_check_id" UUID,
    "last_check_summary" JSONB,
    "estimated_credits_per_check" INTEGER NOT NULL DEFAULT 0,
    "estimated_credits_per_month" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "monitors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_checks" (
    "id" UUID NOT NULL,
    "monitor_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "scheduled_for" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "estimated_credits" INTEGER,
    "reserved_credits" INTEGER,
    "actual_credits" INTEGER,
    "billing_status" TEXT NOT NULL,
    "summary" JSONB NOT NULL,
    "target_results" JSONB NOT NULL,
    "notification_status" JSONB,
    "error" TEXT,
    "lease_owner" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "monitor_checks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_check_pages" (
    "id" UUID NOT NULL,
    "check_id" UUID NOT NULL,
    "monitor_id" UUID NOT NULL,
    "target_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "url_key" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "previous_scrape_id" TEXT,
    "current_scrape_id" TEXT,
    "status_code" INTEGER,
    "error" TEXT,
    "metadata" JSONB,
    "judgment" JSONB,
    "diff" JSONB,
    "snapshot" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "monitor_check_pages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_email_subscriptions" (
    "id" UUID NOT NULL,
    "monitor_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'opt_in',
    "confirmation_email_sent" BOOLEAN NOT NULL DEFAULT false,
    "confirmed_at" TIMESTAMPTZ(3),
    "unsubscribed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "monitor_email_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_email_tokens" (
    "token_hash" TEXT NOT NULL,
    "subscription_id" UUID NOT NULL,
    "purpose" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "monitor_email_tokens_pkey" PRIMARY KEY ("token_hash")
);

-- CreateIndex
CREATE INDEX "monitors_team_id_created_at_idx" ON "monitors"("team_id", "created_at");

-- CreateIndex
CREATE INDEX "monitors_status_next_run_at_idx" ON "monitors"("status", "next_run_at");

-- CreateIndex
CREATE INDEX "monitor_checks_monitor_id_created_at_idx" ON "monitor_checks"("monitor_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "monitor_checks_status_lease_until_idx" ON "monitor_checks"("status", "lease_until");

-- CreateIndex
CREATE UNIQUE INDEX "monitor_checks_monitor_id_scheduled_for_key" ON "monitor_checks"("monitor_id", "scheduled_for");

-- CreateIndex
CREATE INDEX "monitor_check_pages_monitor_id_target_id_url_key_created_at_idx" ON "monitor_check_pages"("monitor_id", "target_id", "url_key", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "monitor_check_pages_check_id_seq_key" ON "monitor_check_pages"("check_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "monitor_email_subscriptions_monitor_id_email_key" ON "monitor_email_subscriptions"("monitor_id", "email");

-- CreateIndex
CREATE INDEX "monitor_email_tokens_subscription_id_idx" ON "monitor_email_tokens"("subscription_id");

-- AddForeignKey
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitor_checks" ADD CONSTRAINT "monitor_checks_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitor_check_pages" ADD CONSTRAINT "monitor_check_pages_check_id_fkey" FOREIGN KEY ("check_id") REFERENCES "monitor_checks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitor_email_subscriptions" ADD CONSTRAINT "monitor_email_subscriptions_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitor_email_tokens" ADD CONSTRAINT "monitor_email_tokens_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "monitor_email_subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
