import { Inject, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { agentWorkMessageSchema, CONSUMER_GROUPS } from '@quarry/contracts';
import type { JobWaiter } from '@quarry/jobs';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { HealthRegistry, LOGGER, PlatformMetrics, type Logger } from '@quarry/platform/observability';
import { AgentRunner } from './agent-runner';
import { AgentSweeper } from './agent-sweeper';
import { TaskRunner } from './task-runner';

/** The orchestrator's own JobWaiter (scrape completions of sub-agent tasks). */
export const AGENT_JOB_WAITER = Symbol('AGENT_JOB_WAITER');

/** Consumes `agent.work` (advance runs, run sub-agent tasks) and runs the sweeper. */
export class AgentWorkConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(AgentRunner) private readonly runner: AgentRunner,
    @Inject(TaskRunner) private readonly tasks: TaskRunner,
    @Inject(AgentSweeper) private readonly sweeper: AgentSweeper,
    @Inject(AGENT_JOB_WAITER) private readonly waiter: JobWaiter,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
    @Inject(HealthRegistry) private readonly health: HealthRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.waiter.start();
    await this.bus.subscribe<unknown>(
      'agentWork',
      {
        group: CONSUMER_GROUPS.agentOrchestrators,
        concurrency: this.config.agent.concurrency,
        onInvalid: (error) => this.logger.error({ err: error }, 'undecodable agent message'),
      },
      async (message) => {
        const parsed = agentWorkMessageSchema.safeParse(message.value);
        if (!parsed.success) {
          this.metrics.busConsumed.inc({ topic: 'agentWork', outcome: 'invalid' });
          this.logger.error({ issues: parsed.error.issues.slice(0, 5) }, 'invalid agent message skipped');
          return;
        }
        const work = parsed.data;
        if (work.type === 'advance') await this.runner.advance(work.runId);
        else await this.tasks.run(work.runId, work.teamId, work.taskId);
        this.metrics.busConsumed.inc({ topic: 'agentWork', outcome: 'ok' });
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

  beforeApplicationShutdown(): void {
    this.sweeper.stop();
  }
}
