import { type BeforeApplicationShutdown, Inject, type OnApplicationBootstrap } from '@nestjs/common';

import { CrawlSweeper, Dispatcher } from '@quarry/crawl';
import { WebhookSender } from '@quarry/webhooks';

/**
 * What a worker process runs beside the `crawl.tasks` consumer: the recovery sweep of crawls and
 * batches and the webhook sender; both stop (with the dispatcher) before the bus goes away.
 */
export class CrawlWorkerLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(CrawlSweeper) private readonly sweeper: CrawlSweeper,
    @Inject(WebhookSender) private readonly webhooks: WebhookSender,
    @Inject(Dispatcher) private readonly dispatcher: Dispatcher,
  ) {}

  onApplicationBootstrap(): void {
    this.sweeper.start();
    this.webhooks.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.dispatcher.stop();
    await Promise.allSettled([this.sweeper.stop(), this.webhooks.stop()]);
  }
}
