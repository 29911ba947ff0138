import type { OnApplicationBootstrap } from '@nestjs/common';

import { CONSUMER_GROUPS } from '@quarry/contracts';
import type { MessageBus } from '@quarry/platform/bus';
import type { AppConfig } from '@quarry/platform/config';

import type { ScrapeJobHandler } from './scrape-job.handler';

/**
 * Consumes `scrape.jobs` (group `scrape-workers`): each message goes to the ScrapeJobHandler, whose
 * promise settles only once the outcome is stored — only then does its offset become committable.
 */
export class ScrapeJobConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly handler: ScrapeJobHandler,
    private readonly bus: MessageBus,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribe(
      'scrapeJobs',
      {
        group: CONSUMER_GROUPS.scrapeWorkers,
        concurrency: this.config.worker.concurrency,
      },
      (message) => this.handler.handle(message.value),
    );
  }
}
