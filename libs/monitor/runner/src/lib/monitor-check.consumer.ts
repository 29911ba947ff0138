import { type BeforeApplicationShutdown, Inject, type OnApplicationBootstrap } from '@nestjs/common';

import { CONSUMER_GROUPS } from '@quarry/contracts';
import { CheckRunner, MonitorScheduler } from '@quarry/monitor';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { HealthRegistry } from '@quarry/platform/observability';

/** Consumes `monitor.checks` (runs checks) and runs the monitor scheduler in this process. */
export class MonitorCheckConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(CheckRunner) private readonly runner: CheckRunner,
    @Inject(MonitorScheduler) private readonly scheduler: MonitorScheduler,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(HealthRegistry) private readonly health: HealthRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribe(
      'monitorChecks',
      {
        group: CONSUMER_GROUPS.monitorRunners,
        concurrency: this.config.monitor.checkConcurrency,
      },
      (message) => this.runner.run(message.value.checkId),
    );
    let assigned = false;
    void this.bus.subscriptionsReady().then(() => (assigned = true));
    this.health.register('monitor-checks', async () => {
      if (!assigned) throw new Error('monitor check subscription not assigned yet');
    });
    this.scheduler.start();
    // Due monitors and checks interrupted while no orchestrator ran are picked up at once.
    void this.scheduler.tick();
  }

  beforeApplicationShutdown(): void {
    this.scheduler.stop();
  }
}
