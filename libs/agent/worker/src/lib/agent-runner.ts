import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

import { type AgentRunRecord, isTerminalState } from '@quarry/agent/domain';
import type { AgentWorkMessage } from '@quarry/contracts';
import { isDatabaseUnavailable } from '@quarry/platform/database';

import { AbsorbRoundUseCase } from './run/absorb-round.usecase';
import type { AgentRunnerDeps } from './run/agent-runner.deps';
import { EndRunUseCase } from './run/end-run.usecase';
import { ExtractResultUseCase } from './run/extract-result.usecase';
import { PlanStepUseCase } from './run/plan-step.usecase';
import { ReadRoundUseCase } from './run/read-round.usecase';
import { RunPolicy } from './run/run-policy.util';
import { SearchStepUseCase } from './run/search-step.usecase';
import { StartRunUseCase } from './run/start-run.usecase';

export type { AgentRunnerDeps } from './run/agent-runner.deps';
export { toPageInput } from './run/run-pages.util';

/** Steps one message may take before it yields (a run never monopolises a consumer). */
const MAX_STEPS_PER_MESSAGE = 40;

/**
 * Takes runs forward one recorded step at a time. Each step is decided from the run's recorded
 * state and written (state, planner memory, trace events, snapshots, new sub-agent tasks) in one
 * transaction guarded by the step number, so a process killed at any point leaves the run at its
 * last recorded step and any orchestrator continues it from there.
 */
export class AgentRunner {
  readonly owner = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;

  /** Runs this process is advancing, and whether another message for one arrived meanwhile. */
  private readonly advancing = new Map<string, { again: boolean }>();
  private readonly policy: RunPolicy;
  private readonly ending: EndRunUseCase;
  private readonly starting: StartRunUseCase;
  private readonly planning: PlanStepUseCase;
  private readonly searching: SearchStepUseCase;
  private readonly reading: ReadRoundUseCase;
  private readonly absorbing: AbsorbRoundUseCase;
  private readonly extracting: ExtractResultUseCase;

  constructor(private readonly deps: AgentRunnerDeps) {
    this.policy = new RunPolicy(deps);
    this.ending = new EndRunUseCase(deps, this.policy);
    this.starting = new StartRunUseCase(deps);
    this.planning = new PlanStepUseCase(deps, this.policy);
    this.searching = new SearchStepUseCase(deps);
    this.reading = new ReadRoundUseCase(deps, this.policy);
    this.absorbing = new AbsorbRoundUseCase(deps, this.policy, this.ending);
    this.extracting = new ExtractResultUseCase(deps, this.policy, this.ending);
  }

  /**
   * Takes the run forward. Messages for a run this process is already advancing (redeliveries,
   * sub-agents waking it) do not start a second, concurrent advance of the same step — which would
   * repeat its model call and count as another attempt — but one more pass after the current one.
   */
  async advance(runId: string): Promise<void> {
    const current = this.advancing.get(runId);
    if (current) {
      current.again = true;
      return;
    }
    const entry = { again: false };
    this.advancing.set(runId, entry);
    try {
      do {
        entry.again = false;
        await this.advanceOnce(runId);
      } while (entry.again);
    } finally {
      this.advancing.delete(runId);
    }
  }

  private async advanceOnce(runId: string): Promise<void> {
    const { runs, config } = this.deps;
    const leased = await runs.acquireLease(runId, this.owner, config.agent.leaseMs);
    if (!leased) return;
    const heartbeat = setInterval(
      () => void runs.renewLease(runId, this.owner, config.agent.leaseMs).catch(() => undefined),
      Math.max(500, config.agent.leaseMs / 3),
    );
    // An attempt that does not end here (its process died, or the database failed under it) stays
    // counted against the step; WORK_MAX_ATTEMPTS such attempts quarantine the run.
    let clean = false;
    try {
      if (await this.stopIfStuck(leased)) {
        clean = true;
        return;
      }
      for (let index = 0; index < MAX_STEPS_PER_MESSAGE; index += 1) {
        if (!(await this.step(runId))) {
          clean = true;
          return;
        }
      }
      clean = true;
      await this.publishAdvance(leased.id, leased.teamId);
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error; // infrastructure: the bus redelivers
      this.deps.logger.error({ err: error, runId }, 'agent run step failed');
      const run = await runs.find(runId);
      if (run && !isTerminalState(run.state)) {
        await this.ending.execute(
          run,
          'failed',
          `The agent run failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      clean = true;
    } finally {
      clearInterval(heartbeat);
      await runs.releaseLease(runId, this.owner, clean).catch(() => undefined);
    }
  }

  /**
   * Ends a run that cannot progress, before working on it: one past its time budget
   * (AGENT_RUN_TIMEOUT_MS), or one whose current step was attempted WORK_MAX_ATTEMPTS times
   * without any attempt ending (quarantined: never delivered again). Failed runs are not billed.
   */
  private async stopIfStuck(run: AgentRunRecord): Promise<boolean> {
    const { maxAttempts, runTimeoutMs } = this.deps.config.agent;
    if (Date.now() - run.createdAt.getTime() > runTimeoutMs) {
      await this.ending.execute(run, 'failed', overdueMessage(run, runTimeoutMs));
      return true;
    }
    if (run.stepAttempts <= maxAttempts) return false;
    const attempts = run.stepAttempts - 1;
    this.deps.logger.warn({ runId: run.id, step: run.step, attempts }, 'agent run quarantined');
    this.deps.metrics.workQuarantined.inc({ kind: run.kind });
    await this.ending.execute(
      run,
      'failed',
      `The ${run.kind === 'extract' ? 'extract job' : 'agent run'} was quarantined: its step ${run.step} was attempted ${attempts} times and no attempt finished (each failed or ended its orchestrator process), so it is not retried. Nothing was billed.`,
    );
    return true;
  }

  /** The sweeper's deadline: ends the run when it is past AGENT_RUN_TIMEOUT_MS, whoever holds it. */
  async expire(runId: string): Promise<void> {
    const run = await this.deps.runs.find(runId);
    const timeoutMs = this.deps.config.agent.runTimeoutMs;
    if (!run || isTerminalState(run.state) || Date.now() - run.createdAt.getTime() <= timeoutMs) return;
    this.deps.logger.warn({ runId }, 'agent run past its time budget');
    await this.ending.execute(run, 'failed', overdueMessage(run, timeoutMs));
  }

  /** Takes one step; false when the run waits (sub-agents working) or has finished. */
  private async step(runId: string): Promise<boolean> {
    const run = await this.deps.runs.find(runId);
    if (!run || isTerminalState(run.state)) return false;
    if (run.state === 'cancelling') {
      await this.ending.execute(run, 'cancelled');
      return false;
    }
    if (run.state === 'queued')
      return run.kind === 'extract' ? this.policy.extractJobs.start(run) : this.starting.execute(run);
    const memory = run.memory;
    if (memory.round > memory.absorbedRound) {
      const tasks = await this.deps.runs.tasksOfRound(run.id, memory.round);
      if (tasks.some((task) => task.state === 'pending' || task.state === 'running')) return false;
      return this.absorbing.execute(run, tasks);
    }
    const decision = await this.planning.execute(run);
    switch (decision.kind) {
      case 'search_index':
        return this.searching.execute(run, decision.query);
      case 'read':
        await this.reading.execute(run, decision);
        return false;
      case 'extract':
        await this.extracting.execute(run, decision.reasoning);
        return false;
      case 'finish':
        await this.ending.execute(
          run,
          decision.outcome,
          run.kind === 'extract' ? this.policy.extractJobs.finishMessage(run, decision) : decision.message,
        );
        return false;
    }
  }

  private async publishAdvance(runId: string, teamId: string): Promise<void> {
    await this.deps.bus.publish('agentWork', { type: 'advance', runId, teamId } satisfies AgentWorkMessage, {
      key: runId,
    });
  }
}

function overdueMessage(run: AgentRunRecord, timeoutMs: number): string {
  return `The ${run.kind === 'extract' ? 'extract job' : 'agent run'} did not finish within its time budget (${Math.round(timeoutMs / 1000)} s, AGENT_RUN_TIMEOUT_MS) and was stopped. Nothing was billed.`;
}
