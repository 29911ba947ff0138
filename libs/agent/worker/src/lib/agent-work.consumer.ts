import { type BeforeApplicationShutdown, Inject, type OnApplicationBootstrap } from '@nestjs/common';

import { CONSUMER_GROUPS } from '@quarry/contracts';
import type { JobWaiter } from '@quarry/jobs';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { HealthRegistry, PlatformMetrics } from '@quarry/platform/observability';

import { AgentRunner } from './agent-runner';
import { AgentSweeper } from './agent-sweeper';
import { TaskRunner } from './task-runner';

/** The orchestrator's own JobWaiter (scrape completions of sub-agent tasks). */
export const AGENT_JOB_WAITER = Symbol('AGENT_JOB_WAITER');

/** Consumes `agent.work` (advance runs, run sub-agent tasks) and runs the sweeper. */
export class AgentWorkConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  /** Messages in progress per run (see working()). */
  private readonly active = new Map<string, number>();

  constructor(
    @Inject(AgentRunner) private readonly runner: AgentRunner,
    @Inject(TaskRunner) private readonly tasks: TaskRunner,
    @Inject(AgentSweeper) private readonly sweeper: AgentSweeper,
    @Inject(AGENT_JOB_WAITER) private readonly waiter: JobWaiter,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
    @Inject(HealthRegistry) private readonly health: HealthRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.waiter.start();
    await this.bus.subscribe(
      'agentWork',
      {
        group: CONSUMER_GROUPS.agentOrchestrators,
        concurrency: this.config.agent.concurrency,
      },
      async (message) => {
        const work = message.value;
        await this.working(work.runId, () =>
          work.type === 'advance'
            ? this.runner.advance(work.runId)
            : this.tasks.run(work.runId, work.teamId, work.taskId),
        );
        // `ok`/`error` attempts are counted by the bus itself.
      },
    );
    let assigned = false;
    void this.bus.subscriptionsReady().then(() => (assigned = true));
    this.health.register('agent-work', async () => {
      if (!assigned) throw new Error('agent work subscription not assigned yet');
    });
    this.sweeper.start();
    // Runs interrupted while no orchestrator was up are picked up at once.
    void this.sweeper.sweep();
  }

  /**
   * `quarry_jobs_running{kind="agent"}`: runs this process works on right now (a step of the run or
   * one of its sub-agent tasks; several tasks of one run count once).
   */
  private async working(runId: string, work: () => Promise<void>): Promise<void> {
    const count = this.active.get(runId) ?? 0;
    this.active.set(runId, count + 1);
    if (count === 0) this.metrics.jobsRunning.inc({ kind: 'agent' });
    try {
      await work();
    } finally {
      const left = (this.active.get(runId) ?? 1) - 1;
      if (left > 0) this.active.set(runId, left);
      else {
        this.active.delete(runId);
        this.metrics.jobsRunning.dec({ kind: 'agent' });
      }
    }
  }

  beforeApplicationShutdown(): void {
    this.sweeper.stop();
  }
}
