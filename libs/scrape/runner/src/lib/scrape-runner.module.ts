import { Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CONSUMER_GROUPS, scrapeJobMessageSchema } from '@quarry/contracts';
import { JobOutcomeStore, JobRepository } from '@quarry/jobs';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { LOGGER, PlatformMetrics, type Logger } from '@quarry/platform/observability';
import { GuardedHttpClient } from '@quarry/platform/net';
import {
  InlineContentTransformer,
  ThreadedContentTransformer,
  type ContentTransformer,
} from '@quarry/scrape/content';
import { HttpEngine, PipelineExtensions, ScrapePipeline } from '@quarry/scrape/engine';
import { ScrapeJobHandler } from './scrape-job.handler';
import { createGuardedHttpClient } from './outbound';

/** Consumes scrape jobs from the bus. */
class ScrapeJobConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly handler: ScrapeJobHandler,
    private readonly bus: MessageBus,
    private readonly config: AppConfig,
    private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribe(
      'scrapeJobs',
      {
        group: CONSUMER_GROUPS.scrapeWorkers,
        concurrency: this.config.worker.concurrency,
        schema: scrapeJobMessageSchema,
        onInvalid: (error) => this.logger.error({ err: error }, 'invalid scrape job message skipped'),
      },
      (message) => this.handler.handle(message.value),
    );
  }
}

/**
 * The pipeline's content transformer: `CONTENT_WORKER_THREADS` worker threads (warmed at start,
 * closed at shutdown), or the event loop itself when that is 0.
 */
class ContentThreads implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly transformer: ContentTransformer;

  constructor(
    config: AppConfig,
    metrics: PlatformMetrics,
    private readonly logger: Logger,
  ) {
    const { contentThreads, contentThreadMemoryMb } = config.worker;
    this.transformer =
      contentThreads > 0
        ? new ThreadedContentTransformer({
            threads: contentThreads,
            memoryMb: contentThreadMemoryMb,
            onEvent: (event, detail) => {
              metrics.contentWorkerEvents.inc({ event });
              if (event !== 'spawned') logger.warn({ event, detail }, 'content worker thread stopped');
            },
          })
        : new InlineContentTransformer();
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.transformer instanceof ThreadedContentTransformer)
      await this.transformer
        .warm()
        .catch((error: unknown) => this.logger.warn({ err: error }, 'content worker warm-up failed'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.transformer.close();
  }
}

@Module({
  providers: [
    {
      provide: ContentThreads,
      useFactory: (config: AppConfig, metrics: PlatformMetrics, logger: Logger) =>
        new ContentThreads(config, metrics, logger.child({ component: 'content-threads' })),
      inject: [APP_CONFIG, PlatformMetrics, LOGGER],
    },
    {
      provide: GuardedHttpClient,
      useFactory: (config: AppConfig) => createGuardedHttpClient(config),
      inject: [APP_CONFIG],
    },
    { provide: PipelineExtensions, useValue: new PipelineExtensions() },
    {
      provide: ScrapePipeline,
      useFactory: (client: GuardedHttpClient, extensions: PipelineExtensions, threads: ContentThreads) =>
        new ScrapePipeline(new HttpEngine(client), extensions, threads.transformer),
      inject: [GuardedHttpClient, PipelineExtensions, ContentThreads],
    },
    {
      provide: ScrapeJobHandler,
      useFactory: (
        pipeline: ScrapePipeline,
        jobs: JobRepository,
        outcomes: JobOutcomeStore,
        bus: MessageBus,
        metrics: PlatformMetrics,
        logger: Logger,
      ) =>
        new ScrapeJobHandler({
          pipeline,
          jobs,
          outcomes,
          bus,
          metrics,
          logger: logger.child({ component: 'scrape-worker' }),
        }),
      inject: [ScrapePipeline, JobRepository, JobOutcomeStore, MESSAGE_BUS, PlatformMetrics, LOGGER],
    },
    {
      provide: ScrapeJobConsumer,
      useFactory: (handler: ScrapeJobHandler, bus: MessageBus, config: AppConfig, logger: Logger) =>
        new ScrapeJobConsumer(handler, bus, config, logger),
      inject: [ScrapeJobHandler, MESSAGE_BUS, APP_CONFIG, LOGGER],
    },
  ],
  exports: [ScrapePipeline, PipelineExtensions, GuardedHttpClient],
})
export class ScrapeRunnerModule {}
