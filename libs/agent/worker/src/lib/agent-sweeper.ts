import type { AgentRunRepository } from '@quarry/agent/domain';
import type { AgentWorkMessage } from '@quarry/contracts';
import type { MessageBus } from '@quarry/platform/bus';
import type { AppConfig } from '@quarry/platform/config';
import type { Logger } from '@quarry/platform/observability';

const CLEANUP_EVERY_MS = 10 * 60_000;

/**
 * The orchestrators' scheduler: re-publishes work nobody is doing (a run or task whose process
 * died after its message was committed, a lost message), ends runs past their time budget, and
 * deletes runs past their retention. Re-published work is bounded: a step or task attempted
 * WORK_MAX_ATTEMPTS times is quarantined by the runner that receives it (see AgentRunner,
 * TaskRunner). Safe to run in every orchestrator: re-published work is idempotent.
 */
export class AgentSweeper {
  private timer?: NodeJS.Timeout;
  private running = false;
  private lastCleanup = 0;

  constructor(
    private readonly deps: {
      runs: AgentRunRepository;
      bus: MessageBus;
      config: AppConfig;
      logger: Logger;
      /** Ends runs past their time budget (AGENT_RUN_TIMEOUT_MS), also ones a stuck process holds. */
      runner?: { expire(runId: string): Promise<void> };
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.sweep(), this.deps.config.agent.sweepIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async sweep(): Promise<{ runs: number; tasks: number }> {
    if (this.running) return { runs: 0, tasks: 0 };
    this.running = true;
    try {
      const { runs, bus, config } = this.deps;
      if (this.deps.runner) {
        const overdue = await runs.overdueRuns(new Date(Date.now() - config.agent.runTimeoutMs));
        for (const run of overdue) await this.deps.runner.expire(run.id);
      }
      const staleMs = Math.max(config.agent.sweepIntervalMs * 2, 2_000);
      const stale = await runs.staleRuns(staleMs);
      for (const run of stale) {
        await runs.touch(run.id);
        await bus.publish(
          'agentWork',
          { type: 'advance', runId: run.id, teamId: run.teamId } satisfies AgentWorkMessage,
          { key: run.id },
        );
      }
      const tasks = await runs.staleTasks(Math.max(config.agent.leaseMs, staleMs));
      for (const task of tasks) {
        await bus.publish(
          'agentWork',
          {
            type: 'task',
            runId: task.runId,
            teamId: task.teamId,
            taskId: task.id,
          } satisfies AgentWorkMessage,
          { key: task.id },
        );
      }
      if (Date.now() - this.lastCleanup > CLEANUP_EVERY_MS) {
        this.lastCleanup = Date.now();
        const deleted = await runs.deleteExpired();
        if (deleted) this.deps.logger.info({ deleted }, 'expired agent runs deleted');
      }
      if (stale.length || tasks.length)
        this.deps.logger.info({ runs: stale.length, tasks: tasks.length }, 'agent work re-published');
      return { runs: stale.length, tasks: tasks.length };
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'agent sweep failed');
      return { runs: 0, tasks: 0 };
    } finally {
      this.running = false;
    }
  }
}
