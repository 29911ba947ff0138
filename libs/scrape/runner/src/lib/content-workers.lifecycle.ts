import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';

import type { AppConfig } from '@quarry/platform/config';
import type { Logger, PlatformMetrics } from '@quarry/platform/observability';
import { type ContentTransformer, WorkerContentTransformer } from '@quarry/scrape/content';
import { pageWorkTransformer } from '@quarry/scrape/formats';

/**
 * The pipeline's content transformer: `CONTENT_WORKERS` supervised worker processes (warmed at
 * start, stopped at shutdown) that also run the formats' page tasks (PAGE_TASKS), or the event loop
 * itself when that is 0.
 */
export class ContentWorkers implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly transformer: ContentTransformer;

  constructor(
    config: AppConfig,
    metrics: PlatformMetrics,
    private readonly logger: Logger,
  ) {
    const { contentWorkers, contentWorkerMemoryMb, pageLimits } = config.worker;
    this.transformer = pageWorkTransformer({
      workers: contentWorkers,
      memoryMb: contentWorkerMemoryMb,
      limits: pageLimits,
      onEvent: (event, detail) => {
        metrics.contentWorkerEvents.inc({ event });
        if (event !== 'spawned') logger.warn({ event, detail }, 'content worker process stopped');
      },
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.transformer instanceof WorkerContentTransformer)
      await this.transformer
        .warm()
        .catch((error: unknown) => this.logger.warn({ err: error }, 'content worker warm-up failed'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.transformer.close();
  }
}
