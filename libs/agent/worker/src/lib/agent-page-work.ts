import type { OnApplicationShutdown } from '@nestjs/common';

import type { AppConfig } from '@quarry/platform/config';
import type { ContentTransformer } from '@quarry/scrape/content';
import { pageWorkTransformer } from '@quarry/scrape/formats';

/**
 * Where the orchestrator reads the pages a run collected offline (structured data, best passage,
 * offline answer): one content worker process, started on first use and stopped at shutdown (none
 * when `CONTENT_WORKERS=0`), so a hostile page costs that process, never this event loop.
 */
export class AgentPageWork implements OnApplicationShutdown {
  readonly transformer: ContentTransformer;

  constructor(config: AppConfig) {
    const { contentWorkers, contentWorkerMemoryMb, pageLimits } = config.worker;
    this.transformer = pageWorkTransformer({
      workers: Math.min(1, contentWorkers),
      memoryMb: contentWorkerMemoryMb,
      limits: pageLimits,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.transformer.close();
  }
}
