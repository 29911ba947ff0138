import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';

import type { AppConfig } from '@quarry/platform/config';
import type { Logger, PlatformMetrics } from '@quarry/platform/observability';
import {
  type ContentTransformer,
  InlineContentTransformer,
  WorkerContentTransformer,
} from '@quarry/scrape/content';
import { PAGE_TASKS, PAGE_WORKER_ENTRY } from '@quarry/scrape/formats';

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
    /**
     * `workers`: at most this many processes instead of `CONTENT_WORKERS` (still none when that is 0);
     * `warm: false`: started on first use instead of at application start.
     */
    private readonly options: { workers?: number; warm?: boolean } = {},
  ) {
    const { contentWorkers, contentWorkerMemoryMb, pageLimits } = config.worker;
    this.transformer =
      contentWorkers > 0
        ? new WorkerContentTransformer({
            workers: Math.min(contentWorkers, options.workers ?? contentWorkers),
            memoryMb: contentWorkerMemoryMb,
            limits: pageLimits,
            entry: PAGE_WORKER_ENTRY,
            onEvent: (event, detail) => {
              metrics.contentWorkerEvents.inc({ event });
              if (event !== 'spawned') logger.warn({ event, detail }, 'content worker process stopped');
            },
          })
        : new InlineContentTransformer(pageLimits, PAGE_TASKS);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.transformer instanceof WorkerContentTransformer && this.options.warm !== false)
      await this.transformer
        .warm()
        .catch((error: unknown) => this.logger.warn({ err: error }, 'content worker warm-up failed'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.transformer.close();
  }
}
