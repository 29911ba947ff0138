import { Inject, type OnApplicationBootstrap } from '@nestjs/common';

import { CONSUMER_GROUPS } from '@quarry/contracts';
import { CrawlTaskHandler } from '@quarry/crawl';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';

/**
 * Consumes `crawl.tasks` (group `crawl-workers`): frontier pages of crawls and batches, each handled
 * by the CrawlTaskHandler. Any worker continues any crawl.
 */
export class CrawlTasksConsumer implements OnApplicationBootstrap {
  constructor(
    @Inject(CrawlTaskHandler) private readonly handler: CrawlTaskHandler,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribe(
      'crawlTasks',
      {
        group: CONSUMER_GROUPS.crawlWorkers,
        concurrency: this.config.crawl.workerConcurrency,
      },
      (message) => this.handler.handle(message.value),
    );
  }
}
