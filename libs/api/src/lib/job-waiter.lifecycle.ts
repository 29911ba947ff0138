import { Inject, type OnApplicationBootstrap } from '@nestjs/common';

import { JobWaiter } from '@quarry/jobs';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { HealthRegistry } from '@quarry/platform/observability';

/** Starts following job events and makes readiness wait for the subscription. */
export class JobWaiterLifecycle implements OnApplicationBootstrap {
  constructor(
    @Inject(JobWaiter) private readonly waiter: JobWaiter,
    @Inject(HealthRegistry) private readonly health: HealthRegistry,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.waiter.start();
    let assigned = false;
    void this.bus.subscriptionsReady().then(() => (assigned = true));
    this.health.register('job-events', async () => {
      if (!assigned) throw new Error('job events subscription not assigned yet');
    });
  }
}
