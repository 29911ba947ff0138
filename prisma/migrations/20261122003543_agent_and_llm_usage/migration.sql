-- CreateTable
CREATE TABLE "llm_token_usage" (
    "id" BIGSERIAL NOT NULL,
    "team_id" UUID,
    "job_id" UUID,
    "model" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "prompt_tokens" INTEGER NOT NULL,
    "completion_tokens" INTEGER NOT NULL,
    "total_tokens" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "llm_token_usage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_runs" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "model" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "outcome" TEXT,
    "error_code" TEXT,
    "error_message" TEXT,
    "prompt" TEXT NOT NULL,
    "request" JSONB NOT NULL,
    "max_credits" INTEGER,
    "credits_spent" INTEGER NOT NULL DEFAULT 0,
    "step" INTEGER NOT NULL DEFAULT 0,
    "memory" JSONB NOT NULL,
    "data" JSONB,
    "next_sequence" INTEGER NOT NULL DEFAULT 1,
    "lease_owner" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "cancel_requested_at" TIMESTAMPTZ(3),
    "origin" TEXT NOT NULL DEFAULT 'api',
    "integration" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "agent_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_trace_events" (
    "run_id" UUID NOT NULL,
    "sequence" INTEGER NOT NULL,
    "event_key" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "event" JSONB NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "agent_trace_events_pkey" PRIMARY KEY ("run_id","sequence")
);

-- CreateTable
CREATE TABLE "agent_snapshots" (
    "id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "artifact_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_tasks" (
    "id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "round" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "input" JSONB NOT NULL,
    "result" JSONB,
    "credits" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lease_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "agent_tasks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "llm_token_usage_team_id_created_at_idx" ON "llm_token_usage"("team_id", "created_at");

-- CreateIndex
CREATE INDEX "agent_runs_team_id_created_at_idx" ON "agent_runs"("team_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "agent_runs_state_updated_at_idx" ON "agent_runs"("state", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "agent_trace_events_event_id_key" ON "agent_trace_events"("event_id");

-- CreateIndex
CREATE UNIQUE INDEX "agent_trace_events_run_id_event_key_key" ON "agent_trace_events"("run_id", "event_key");

-- CreateIndex
CREATE INDEX "agent_snapshots_run_id_created_at_idx" ON "agent_snapshots"("run_id", "created_at");

-- CreateIndex
CREATE INDEX "agent_tasks_run_id_round_idx" ON "agent_tasks"("run_id", "round");

-- CreateIndex
CREATE INDEX "agent_tasks_state_updated_at_idx" ON "agent_tasks"("state", "updated_at");

-- AddForeignKey
ALTER TABLE "agent_trace_events" ADD CONSTRAINT "agent_trace_events_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "agent_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_snapshots" ADD CONSTRAINT "agent_snapshots_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "agent_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_tasks" ADD CONSTRAINT "agent_tasks_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "agent_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
