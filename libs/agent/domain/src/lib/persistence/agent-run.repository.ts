import type { CreditsService } from '@quarry/billing';
import type { AgentTraceEvent } from '@quarry/contracts';
import { Database, Prisma } from '@quarry/platform/database';
import type { WebhookOutboxRepository } from '@quarry/webhooks';

import type { RunKind, WebhookEventRow } from '../extract-job';
import type { RunState } from '../run-state';
import type { PendingEvent } from '../trace';
import {
  type AgentRunRecord,
  type AgentTaskRecord,
  type NewRun,
  type RunEnding,
  type RunUpdate,
  type TaskInput,
  type TaskResult,
  toRun,
  toTask,
} from './agent-run.types';
import { appendEvents, json, lockRun, TX } from './run-transaction.util';

export * from './agent-run.types';

/**
 * Agent runs, their trace, snapshots and sub-agent tasks. Every write locks the run row first, so
 * trace sequence numbers are gap-free and ordered, and an event key already recorded is skipped:
 * re-executing a step after a crash records nothing twice.
 */
export class AgentRunRepository {
  constructor(
    private readonly db: Database,
    private readonly credits: CreditsService,
    private readonly webhooks: WebhookOutboxRepository,
  ) {}

  async create(input: NewRun): Promise<void> {
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
      await appendEvents(tx, input.id, input.events);
      if (input.webhook) {
        await this.webhooks.openStreamInPrisma(tx, input.id, input.webhook);
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

  /**
   * Takes the run for this process for `leaseMs` unless another live process holds it or it is
   * finished, and counts the attempt at its current step (`stepAttempts`): an attempt that ends
   * cleanly gives it back in `releaseLease`, one whose process died leaves it counted.
   */
  async acquireLease(runId: string, owner: string, leaseMs: number): Promise<AgentRunRecord | undefined> {
    const until = new Date(Date.now() + leaseMs);
    const result = await this.db.prisma.agentRun.updateMany({
      where: {
        id: runId,
        state: { in: ['queued', 'running', 'cancelling'] },
        OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date() } }, { leaseOwner: owner }],
      },
      data: { leaseOwner: owner, leaseUntil: until, stepAttempts: { increment: 1 } },
    });
    return result.count > 0 ? this.find(runId) : undefined;
  }

  async renewLease(runId: string, owner: string, leaseMs: number): Promise<void> {
    await this.db.prisma.agentRun.updateMany({
      where: { id: runId, leaseOwner: owner },
      data: { leaseUntil: new Date(Date.now() + leaseMs) },
    });
  }

  /** Gives the run back; `clean`: the attempt ended as planned, so it does not count against the step. */
  async releaseLease(runId: string, owner: string, clean = true): Promise<void> {
    await this.db.prisma.agentRun.updateMany({
      where: { id: runId, leaseOwner: owner },
      data: { leaseUntil: null, leaseOwner: null, ...(clean ? { stepAttempts: 0 } : {}) },
    });
  }

  /**
   * Applies a step: state/memory changes, events, snapshots and new tasks, all or nothing. Returns
   * false (and changes nothing) when the run is no longer in an expected state or step.
   */
  async update(runId: string, change: RunUpdate): Promise<boolean> {
    return this.db.prisma.$transaction(async (tx) => {
      const current = await lockRun(tx, runId);
      if (!current) return false;
      if (change.whenState && !change.whenState.includes(current.state)) return false;
      if (change.whenStep !== undefined && current.step !== change.whenStep) return false;
      const data: Prisma.AgentRunUpdateInput = { updatedAt: new Date() };
      if (change.state) data.state = change.state;
      if (change.step !== undefined) data.step = change.step;
      // A new step: the attempt recording it is the first attempt at it.
      if (change.step !== undefined && change.step !== current.step) data.stepAttempts = 1;
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
      await appendEvents(tx, runId, change.events ?? []);
      await this.webhooks.enqueueInPrisma(tx, runId, current.teamId, change.webhooks ?? []);
      return true;
    }, TX);
  }

  /** Records trace events of a run (idempotent by key), whatever its state. */
  async record(runId: string, events: PendingEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.prisma.$transaction(async (tx) => {
      if (await lockRun(tx, runId)) await appendEvents(tx, runId, events);
    }, TX);
  }

  /**
   * Ends the run: terminal state, outcome, data, the job row and — for a succeeded run only — the
   * charge, in one transaction. Unfinished sub-agent tasks stop (`parent_finished`). A run that is
   * already finished is left alone; a run being cancelled can only end cancelled (checked by the caller
   * through `whenState`).
   */
  async finish(runId: string, ending: RunEnding): Promise<boolean> {
    return this.db.prisma.$transaction(async (tx) => {
      const current = await lockRun(tx, runId);
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
      await appendEvents(tx, runId, [...taskEvents, ...ending.events]);
      await this.webhooks.enqueueInPrisma(tx, runId, current.teamId, ending.webhooks ?? []);
      return true;
    }, TX);
  }

  /** Cancel request (docs/agent.md#lifecycle): atomically moves queued/running to cancelling; reports the state it found. */
  async requestCancel(
    runId: string,
    teamId: string,
    decide: (state: RunState) => boolean,
    events: PendingEvent[],
  ): Promise<RunState | undefined> {
    return this.db.prisma.$transaction(async (tx) => {
      const current = await lockRun(tx, runId);
      if (!current || current.teamId !== teamId || current.kind !== 'agent') return undefined;
      if (!decide(current.state)) return current.state;
      const now = new Date();
      await tx.agentRun.update({
        where: { id: runId },
        data: { state: 'cancelling', cancelRequestedAt: now, updatedAt: now },
      });
      await appendEvents(tx, runId, events);
      return current.state;
    }, TX);
  }

  /**
   * Claims a task for execution unless it is finished, held by a live process, or has had
   * `maxAttempts` executors already (then it is quarantined instead, see `quarantineTask`).
   */
  async claimTask(id: string, leaseMs: number, maxAttempts: number): Promise<AgentTaskRecord | undefined> {
    const now = new Date();
    const result = await this.db.prisma.agentTask.updateMany({
      where: {
        id,
        attempts: { lt: maxAttempts },
        OR: [{ state: 'pending' }, { state: 'running', leaseUntil: { lt: now } }],
      },
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
      const run = await lockRun(tx, task.runId);
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
      await appendEvents(tx, task.runId, outcome.events);
      await this.webhooks.enqueueInPrisma(tx, task.runId, run.teamId, outcome.webhooks ?? []);
      return true;
    }, TX);
  }

  /**
   * Ends a task that had `maxAttempts` executors without a result (each died or failed with it) as
   * failed, with `result.error` saying so and its events, so it is never handed out again. Only a
   * task nobody holds (no live lease) is quarantined; false when there was nothing to do.
   */
  async quarantineTask(
    task: AgentTaskRecord,
    maxAttempts: number,
    outcome: { result: TaskResult; events: PendingEvent[]; webhooks?: WebhookEventRow[] },
  ): Promise<boolean> {
    return this.db.prisma.$transaction(async (tx) => {
      const run = await lockRun(tx, task.runId);
      if (!run) return false;
      const now = new Date();
      const updated = await tx.agentTask.updateMany({
        where: {
          id: task.id,
          attempts: { gte: maxAttempts },
          OR: [
            { state: 'pending' },
            { state: 'running', OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
          ],
        },
        data: {
          state: 'failed',
          result: json(outcome.result),
          finishedAt: now,
          updatedAt: now,
          leaseUntil: null,
        },
      });
      if (updated.count === 0) return false;
      await appendEvents(tx, task.runId, outcome.events);
      await this.webhooks.enqueueInPrisma(tx, task.runId, run.teamId, outcome.webhooks ?? []);
      return true;
    }, TX);
  }

  /** Unfinished runs accepted before `createdBefore` (past their time budget), oldest first. */
  async overdueRuns(createdBefore: Date, limit = 100): Promise<{ id: string; teamId: string }[]> {
    return this.db.prisma.agentRun.findMany({
      where: { state: { in: ['queued', 'running', 'cancelling'] }, createdAt: { lt: createdBefore } },
      select: { id: true, teamId: true },
      orderBy: { createdAt: 'asc' },
      take: limit,
    });
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

  /** Language-model tokens spent for the run (its extraction and planning calls). */
  async tokensUsed(runId: string): Promise<number> {
    const result = await this.db.prisma.llmTokenUsage.aggregate({
      where: { jobId: runId },
      _sum: { totalTokens: true },
    });
    return result._sum.totalTokens ?? 0;
  }
}
