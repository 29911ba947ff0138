import { randomUUID } from 'node:crypto';
import type {
  AgentRequest,
  AgentRunOutcome,
  AgentTraceError,
  AgentTraceEvent,
  ExtractRequest,
  WebhookSettings,
} from '@quarry/contracts';
import {
  materialize,
  type PendingEvent,
  type PlannerMemory,
  type RunKind,
  type RunState,
  type WebhookEventRow,
} from '@quarry/agent/domain';
import type { CreditsService } from '@quarry/billing';
import { Database, Prisma } from '@quarry/platform/database';

type Tx = Prisma.TransactionClient;

export interface AgentRunRecord {
  id: string;
  teamId: string;
  kind: RunKind;
  model: string;
  state: RunState;
  outcome: AgentRunOutcome | null;
  errorCode: string | null;
  errorMessage: string | null;
  prompt: string;
  /** The agent request (for an extract job: the fields both share; the whole request is in `extract`). */
  request: AgentRequest;
  /** The extract request of an extract job. */
  extract?: ExtractRequest;
  maxCredits: number | null;
  creditsSpent: number;
  step: number;
  memory: PlannerMemory;
  data: unknown;
  warning: string | null;
  sources: unknown;
  origin: string;
  integration: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  expiresAt: Date;
  leaseOwner: string | null;
  leaseUntil: Date | null;
  threadId: string | null;
  threadTurn: number | null;
  mode: 'extract' | 'chat';
}

export type TaskState = 'pending' | 'running' | 'succeeded' | 'failed' | 'stopped';

export interface TaskInput {
  url: string;
  name: string;
  scrapeJobId: string;
  /** Extract jobs: the caller's scrape options and page timeout (agents use the defaults). */
  scrapeOptions?: Record<string, unknown>;
  timeoutMs?: number;
  origin?: string;
}

export interface TaskResult {
  url: string;
  finalUrl?: string;
  title?: string;
  statusCode?: number;
  ok: boolean;
  error?: string;
  links: string[];
}

export interface AgentTaskRecord {
  id: string;
  runId: string;
  round: number;
  state: TaskState;
  input: TaskInput;
  result: TaskResult | null;
  credits: number;
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
  leaseUntil: Date | null;
}

export interface NewSnapshot {
  id: string;
  artifactId: string;
  kind: string;
  content: string;
}

type RunRow = NonNullable<Awaited<ReturnType<Database['prisma']['agentRun']['findUnique']>>>;
type TaskRow = NonNullable<Awaited<ReturnType<Database['prisma']['agentTask']['findUnique']>>>;

function toRun(row: RunRow): AgentRunRecord {
  return {
    id: row.id,
    teamId: row.teamId,
    kind: row.kind as RunKind,
    model: row.model,
    state: row.state as RunState,
    outcome: row.outcome as AgentRunOutcome | null,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    prompt: row.prompt,
    request: row.request as unknown as AgentRequest,
    extract: row.kind === 'extract' ? (row.request as unknown as ExtractRequest) : undefined,
    maxCredits: row.maxCredits,
    creditsSpent: row.creditsSpent,
    step: row.step,
    memory: row.memory as unknown as PlannerMemory,
    data: row.data,
    warning: row.warning,
    sources: row.sources,
    origin: row.origin,
    integration: row.integration,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    finishedAt: row.finishedAt,
    expiresAt: row.expiresAt,
    leaseOwner: row.leaseOwner,
    leaseUntil: row.leaseUntil,
    threadId: row.threadId,
    threadTurn: row.threadTurn,
    mode: row.mode === 'chat' ? 'chat' : 'extract',
  };
}

function toTask(row: TaskRow): AgentTaskRecord {
  return {
    id: row.id,
    runId: row.runId,
    round: row.round,
    state: row.state as TaskState,
    input: row.input as unknown as TaskInput,
    result: row.result as unknown as TaskResult | null,
    credits: row.credits,
    attempts: row.attempts,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    leaseUntil: row.leaseUntil,
  };
}

const json = (value: unknown) => value as Prisma.InputJsonValue;

/** Writes of one run queue on its row lock: wait for a connection and the lock rather than fail under a burst of sub-agents. */
const TX = { maxWait: 15_000, timeout: 20_000 } as const;

/** A change to a run made together with its trace events, in one transaction. */
export interface RunUpdate {
  /** Apply only while the run is in one of these states (a racing cancel or finish wins otherwise). */
  whenState?: readonly RunState[];
  /** Apply only while the run is at this step (a step recorded by someone else is not recorded twice). */
  whenStep?: number;
  state?: RunState;
  step?: number;
  memory?: PlannerMemory;
  creditsSpent?: number;
  events?: PendingEvent[];
  snapshots?: NewSnapshot[];
  tasks?: { id: string; round: number; input: TaskInput }[];
  warning?: string;
  /** Webhook outbox rows written with the change (the job's stream was opened at creation). */
  webhooks?: WebhookEventRow[];
}

/**
 * Agent runs, their trace, snapshots and sub-agent tasks. Every write locks the run row first, so
 * trace sequence numbers are gap-free and ordered, and an event key already recorded is skipped:
 * re-executing a step after a crash records nothing twice.
 */
export class AgentRunRepository {
  constructor(
    private readonly db: Database,
    private readonly credits: CreditsService,
  ) {}

  async create(
    input: {
      id: string;
      teamId: string;
      apiKeyId?: string;
      memory: PlannerMemory;
      expiresAt: Date;
      events: PendingEvent[];
      /** Agent runs: the thread and turn the run is (unique per thread and turn). */
      thread?: { id: string; turn: number };
    } & (
      | { kind?: 'agent'; request: AgentRequest; webhook?: WebhookSettings<string> }
      | { kind: 'extract'; request: ExtractRequest; webhook?: WebhookSettings }
    ),
  ): Promise<void> {
    const kind: RunKind = input.kind ?? 'agent';
    const agentRequest = input.kind === 'extract' ? undefined : input.request;
    await this.db.prisma.$transaction(async (tx) => {
      await tx.job.create({
        data: {
          id: input.id,
          teamId: input.teamId,
          apiKeyId: input.apiKeyId,
          kind,
          status: 'queued',
          input: json(input.request),
          expiresAt: input.expiresAt,
        },
      });
      await tx.agentRun.create({
        data: {
          id: input.id,
          teamId: input.teamId,
          kind,
          model: agentRequest?.model ?? kind,
          state: 'queued',
          prompt: input.request.prompt ?? '',
          request: json(input.request),
          maxCredits: agentRequest?.maxCredits ?? null,
          memory: json(input.memory),
          origin: input.request.origin,
          integration: input.request.integration,
          expiresAt: input.expiresAt,
          threadId: input.thread?.id ?? null,
          threadTurn: input.thread?.turn ?? null,
          mode: agentRequest?.mode ?? 'extract',
        },
      });
      await this.appendEvents(tx, input.id, input.events);
      if (input.webhook) {
        await tx.webhookStream.create({ data: { jobId: input.id, target: json(input.webhook) } });
      }
    }, TX);
  }

  async find(id: string): Promise<AgentRunRecord | undefined> {
    const row = await this.db.prisma.agentRun.findUnique({ where: { id } });
    return row ? toRun(row) : undefined;
  }

  /** A run of the team (of that kind); another team's run is reported exactly like an unknown one. */
  async findForTeam(
    id: string,
    teamId: string,
    kind: RunKind = 'agent',
  ): Promise<AgentRunRecord | undefined> {
    const row = await this.db.prisma.agentRun.findFirst({ where: { id, teamId, kind } });
    return row ? toRun(row) : undefined;
  }

  /** The team's runs of one thread, oldest turn first (none: no such thread for this team). */
  async threadRuns(teamId: string, threadId: string): Promise<AgentRunRecord[]> {
    const rows = await this.db.prisma.agentRun.findMany({
      where: { teamId, threadId, kind: 'agent' },
      orderBy: { threadTurn: 'asc' },
    });
    return rows.map(toRun);
  }

  async listForTeam(teamId: string, before: Date | undefined, limit: number): Promise<AgentRunRecord[]> {
    const rows = await this.db.prisma.agentRun.findMany({
      where: { teamId, kind: 'agent', ...(before ? { createdAt: { lt: before } } : {}) },
      orderBy: { createdAt: 'desc' },
      take: limit,
    });
    return rows.map(toRun);
  }

  async events(runId: string): Promise<AgentTraceEvent[]> {
    const rows = await this.db.prisma.agentTraceEvent.findMany({
      where: { runId },
      orderBy: { sequence: 'asc' },
      select: { event: true },
    });
    return rows.map((row) => row.event as unknown as AgentTraceEvent);
  }

  async snapshot(runId: string, snapshotId: string): Promise<{ id: string; content: string } | undefined> {
    const row = await this.db.prisma.agentSnapshot.findFirst({
      where: { id: snapshotId, runId },
      select: { id: true, content: true },
    });
    return row ?? undefined;
  }

  async tasksOfRound(runId: string, round: number): Promise<AgentTaskRecord[]> {
    const rows = await this.db.prisma.agentTask.findMany({
      where: { runId, round },
      orderBy: { createdAt: 'asc' },
    });
    return rows.map(toTask);
  }

  async findTask(id: string): Promise<AgentTaskRecord | undefined> {
    const row = await this.db.prisma.agentTask.findUnique({ where: { id } });
    return row ? toTask(row) : undefined;
  }

  /** Takes the run for this process for `leaseMs` unless another live process holds it or it is finished. */
  async acquireLease(runId: string, owner: string, leaseMs: number): Promise<AgentRunRecord | undefined> {
    const until = new Date(Date.now() + leaseMs);
    const result = await this.db.prisma.agentRun.updateMany({
      where: {
        id: runId,
        state: { in: ['queued', 'running', 'cancelling'] },
        OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date() } }, { leaseOwner: owner }],
      },
      data: { leaseOwner: owner, leaseUntil: until },
    });
    return result.count > 0 ? this.find(runId) : undefined;
  }

  async renewLease(runId: string, owner: string, leaseMs: number): Promise<void> {
    await this.db.prisma.agentRun.updateMany({
      where: { id: runId, leaseOwner: owner },
      data: { leaseUntil: new Date(Date.now() + leaseMs) },
    });
  }

  async releaseLease(runId: string, owner: string): Promise<void> {
    await this.db.prisma.agentRun.updateMany({
      where: { id: runId, leaseOwner: owner },
      data: { leaseUntil: null, leaseOwner: null },
    });
  }

  /**
   * Applies a step: state/memory changes, events, snapshots and new tasks, all or nothing. Returns
   * false (and changes nothing) when the run is no longer in an expected state or step.
   */
  async update(runId: string, change: RunUpdate): Promise<boolean> {
    return this.db.prisma.$transaction(async (tx) => {
      const current = await this.lock(tx, runId);
      if (!current) return false;
      if (change.whenState && !change.whenState.includes(current.state)) return false;
      if (change.whenStep !== undefined && current.step !== change.whenStep) return false;
      const data: Prisma.AgentRunUpdateInput = { updatedAt: new Date() };
      if (change.state) data.state = change.state;
      if (change.step !== undefined) data.step = change.step;
      if (change.memory) data.memory = json(change.memory);
      if (change.creditsSpent !== undefined) data.creditsSpent = change.creditsSpent;
      if (change.warning !== undefined) data.warning = change.warning;
      await tx.agentRun.update({ where: { id: runId }, data });
      if (change.state === 'running')
        await tx.job.updateMany({
          where: { id: runId, status: 'queued' },
          data: { status: 'active', startedAt: new Date(), attempts: { increment: 1 } },
        });
      for (const snapshot of change.snapshots ?? []) {
        await tx.agentSnapshot.createMany({ data: [{ ...snapshot, runId }], skipDuplicates: true });
      }
      if (change.tasks?.length) {
        await tx.agentTask.createMany({
          data: change.tasks.map((task) => ({
            id: task.id,
            runId,
            round: task.round,
            state: 'pending',
            input: json(task.input),
          })),
          skipDuplicates: true,
        });
      }
      await this.appendEvents(tx, runId, change.events ?? []);
      await this.enqueueWebhooks(tx, runId, current.teamId, change.webhooks);
      return true;
    }, TX);
  }

  /** Records trace events of a run (idempotent by key), whatever its state. */
  async record(runId: string, events: PendingEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.prisma.$transaction(async (tx) => {
      if (await this.lock(tx, runId)) await this.appendEvents(tx, runId, events);
    }, TX);
  }

  /**
   * Ends the run: terminal state, outcome, data, the job row and — for a succeeded run only — the
   * charge, in one transaction. Unfinished sub-agent tasks stop (`parent_finished`). A run that is
   * already finished is left alone; a run being cancelled can only end cancelled (checked by the caller
   * through `whenState`).
   */
  async finish(
    runId: string,
    ending: {
      whenState: readonly RunState[];
      state: 'completed' | 'failed';
      outcome: AgentRunOutcome;
      error: AgentTraceError | null;
      data?: unknown;
      credits: number;
      apiKeyId?: string;
      events: PendingEvent[];
      snapshots?: NewSnapshot[];
      stoppedTaskEvents: (taskIdValue: string, name: string) => PendingEvent[];
      /** Replaces the run's warning (extract jobs). */
      warning?: string;
      /** Extract jobs with showSources. */
      sources?: unknown;
      webhooks?: WebhookEventRow[];
    },
  ): Promise<boolean> {
    return this.db.prisma.$transaction(async (tx) => {
      const current = await this.lock(tx, runId);
      if (!current || !ending.whenState.includes(current.state)) return false;
      const now = new Date();
      const succeeded = ending.state === 'completed';
      await tx.agentRun.update({
        where: { id: runId },
        data: {
          state: ending.state,
          outcome: ending.outcome,
          errorCode: ending.error?.code ?? null,
          errorMessage: ending.error?.message ?? null,
          data: succeeded && ending.data !== undefined ? json(ending.data) : Prisma.DbNull,
          ...(ending.warning !== undefined ? { warning: ending.warning } : {}),
          ...(ending.sources !== undefined ? { sources: json(ending.sources) } : {}),
          creditsSpent: succeeded ? ending.credits : current.creditsSpent,
          finishedAt: now,
          updatedAt: now,
          leaseOwner: null,
          leaseUntil: null,
        },
      });
      await tx.job.updateMany({
        where: { id: runId, status: { in: ['queued', 'active'] } },
        data: succeeded
          ? { status: 'completed', finishedAt: now, creditsUsed: ending.credits }
          : {
              status: 'failed',
              finishedAt: now,
              creditsUsed: 0,
              errorCode: 'UNKNOWN_ERROR',
              error: (ending.error?.message ?? ending.outcome).slice(0, 4_000),
            },
      });
      if (succeeded && ending.credits > 0) {
        await this.credits.chargeIn(tx, {
          teamId: current.teamId,
          amount: ending.credits,
          idempotencyKey: `job:${runId}`,
          jobId: runId,
          apiKeyId: ending.apiKeyId,
          description: current.kind,
        });
      }
      const unfinished = await tx.agentTask.findMany({
        where: { runId, state: { in: ['pending', 'running'] } },
        select: { id: true, input: true },
      });
      if (unfinished.length) {
        await tx.agentTask.updateMany({
          where: { runId, state: { in: ['pending', 'running'] } },
          data: { state: 'stopped', finishedAt: now, updatedAt: now },
        });
      }
      for (const snapshot of ending.snapshots ?? [])
        await tx.agentSnapshot.createMany({ data: [{ ...snapshot, runId }], skipDuplicates: true });
      const taskEvents = unfinished.flatMap((task) =>
        ending.stoppedTaskEvents(task.id, (task.input as unknown as TaskInput).name),
      );
      await this.appendEvents(tx, runId, [...taskEvents, ...ending.events]);
      await this.enqueueWebhooks(tx, runId, current.teamId, ending.webhooks);
      return true;
    }, TX);
  }

  /** Cancel request (spec §3): atomically moves queued/running to cancelling; reports the state it found. */
  async requestCancel(
    runId: string,
    teamId: string,
    decide: (state: RunState) => boolean,
    events: PendingEvent[],
  ): Promise<RunState | undefined> {
    return this.db.prisma.$transaction(async (tx) => {
      const current = await this.lock(tx, runId);
      if (!current || current.teamId !== teamId || current.kind !== 'agent') return undefined;
      if (!decide(current.state)) return current.state;
      const now = new Date();
      await tx.agentRun.update({
        where: { id: runId },
        data: { state: 'cancelling', cancelRequestedAt: now, updatedAt: now },
      });
      await this.appendEvents(tx, runId, events);
      return current.state;
    }, TX);
  }

  /** Claims a task for execution unless it is finished or held by a live process. */
  async claimTask(id: string, leaseMs: number): Promise<AgentTaskRecord | undefined> {
    const now = new Date();
    const result = await this.db.prisma.agentTask.updateMany({
      where: { id, OR: [{ state: 'pending' }, { state: 'running', leaseUntil: { lt: now } }] },
      data: {
        state: 'running',
        attempts: { increment: 1 },
        leaseUntil: new Date(now.getTime() + leaseMs),
        updatedAt: now,
      },
    });
    return result.count > 0 ? this.findTask(id) : undefined;
  }

  async renewTask(id: string, leaseMs: number): Promise<void> {
    await this.db.prisma.agentTask.updateMany({
      where: { id, state: 'running' },
      data: { leaseUntil: new Date(Date.now() + leaseMs) },
    });
  }

  /** Stores a task's result with its events, unless the task was stopped meanwhile. */
  async finishTask(
    task: AgentTaskRecord,
    outcome: {
      state: 'succeeded' | 'failed';
      result: TaskResult;
      credits: number;
      events: PendingEvent[];
      /** The run's webhook events of this page (written only if the task was still running). */
      webhooks?: WebhookEventRow[];
    },
  ): Promise<boolean> {
    return this.db.prisma.$transaction(async (tx) => {
      const run = await this.lock(tx, task.runId);
      if (!run) return false;
      const now = new Date();
      const updated = await tx.agentTask.updateMany({
        where: { id: task.id, state: 'running' },
        data: {
          state: outcome.state,
          result: json(outcome.result),
          credits: outcome.credits,
          finishedAt: now,
          updatedAt: now,
          leaseUntil: null,
        },
      });
      if (updated.count === 0) return false;
      await this.appendEvents(tx, task.runId, outcome.events);
      await this.enqueueWebhooks(tx, task.runId, run.teamId, outcome.webhooks);
      return true;
    }, TX);
  }

  /** Runs that are not finished and nobody has touched for `staleMs` (their orchestrator may have died). */
  async staleRuns(staleMs: number, limit = 100): Promise<{ id: string; teamId: string }[]> {
    const cutoff = new Date(Date.now() - staleMs);
    return this.db.prisma.agentRun.findMany({
      where: {
        state: { in: ['queued', 'running', 'cancelling'] },
        updatedAt: { lt: cutoff },
        OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date() } }],
      },
      select: { id: true, teamId: true },
      orderBy: { updatedAt: 'asc' },
      take: limit,
    });
  }

  /** Tasks waiting too long to start, or whose executor's lease expired. */
  async staleTasks(staleMs: number, limit = 200): Promise<{ id: string; runId: string; teamId: string }[]> {
    const now = new Date();
    const rows = await this.db.prisma.agentTask.findMany({
      where: {
        OR: [
          { state: 'pending', updatedAt: { lt: new Date(now.getTime() - staleMs) } },
          { state: 'running', leaseUntil: { lt: now } },
        ],
      },
      select: { id: true, runId: true, run: { select: { teamId: true } } },
      take: limit,
    });
    await this.db.prisma.agentTask.updateMany({
      where: { id: { in: rows.map((row) => row.id) }, state: 'pending' },
      data: { updatedAt: now },
    });
    return rows.map((row) => ({ id: row.id, runId: row.runId, teamId: row.run.teamId }));
  }

  async touch(runId: string): Promise<void> {
    await this.db.prisma.agentRun.updateMany({ where: { id: runId }, data: { updatedAt: new Date() } });
  }

  /** Deletes runs past their retention (events, snapshots and tasks go with them). */
  async deleteExpired(now = new Date()): Promise<number> {
    const result = await this.db.prisma.agentRun.deleteMany({ where: { expiresAt: { lt: now } } });
    return result.count;
  }

  private async lock(
    tx: Tx,
    runId: string,
  ): Promise<
    { state: RunState; step: number; teamId: string; creditsSpent: number; kind: RunKind } | undefined
  > {
    const rows = await tx.$queryRawUnsafe<
      { state: string; step: number; team_id: string; credits_spent: number; kind: string }[]
    >(
      'SELECT state, step, team_id, credits_spent, kind FROM agent_runs WHERE id = $1::uuid FOR UPDATE',
      runId,
    );
    const row = rows[0];
    return row
      ? {
          state: row.state as RunState,
          step: Number(row.step),
          teamId: row.team_id,
          creditsSpent: Number(row.credits_spent),
          kind: row.kind as RunKind,
        }
      : undefined;
  }

  /** Language-model tokens spent for the run (its extraction and planning calls). */
  async tokensUsed(runId: string): Promise<number> {
    const result = await this.db.prisma.llmTokenUsage.aggregate({
      where: { jobId: runId },
      _sum: { totalTokens: true },
    });
    return result._sum.totalTokens ?? 0;
  }

  /** Webhook outbox rows, in order, in the caller's transaction (delivered by the webhook senders). */
  private async enqueueWebhooks(
    tx: Tx,
    runId: string,
    teamId: string,
    events: readonly WebhookEventRow[] | undefined,
  ): Promise<void> {
    for (const event of events ?? []) {
      await tx.webhookDelivery.create({
        data: { id: randomUUID(), jobId: runId, teamId, type: event.type, payload: json(event.payload) },
      });
    }
  }

  /** Inserts events whose key the run has not recorded yet, numbered after the last one. Caller holds the run lock. */
  private async appendEvents(tx: Tx, runId: string, events: readonly PendingEvent[]): Promise<void> {
    if (events.length === 0) return;
    const keys = [...new Set(events.map((event) => event.key))];
    const existing = await tx.agentTraceEvent.findMany({
      where: { runId, eventKey: { in: keys } },
      select: { eventKey: true },
    });
    const seen = new Set(existing.map((row) => row.eventKey));
    const fresh = events.filter((event) => {
      if (seen.has(event.key)) return false;
      seen.add(event.key);
      return true;
    });
    if (fresh.length === 0) return;
    const run = await tx.agentRun.update({
      where: { id: runId },
      data: { nextSequence: { increment: fresh.length } },
      select: { nextSequence: true },
    });
    let sequence = run.nextSequence - fresh.length;
    const rows = fresh.map((event) => {
      const occurredAt = event.occurredAt ?? new Date();
      const materialized = materialize(runId, event, sequence, occurredAt);
      return {
        runId,
        sequence: sequence++,
        eventKey: event.key,
        eventId: materialized.eventId,
        type: event.body.type,
        event: json(materialized),
        occurredAt,
      };
    });
    await tx.agentTraceEvent.createMany({ data: rows });
  }
}
