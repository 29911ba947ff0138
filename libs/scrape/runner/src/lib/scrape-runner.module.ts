import { Module, type OnApplicationBootstrap } from '@nestjs/common';
import { CONSUMER_GROUPS, scrapeJobMessageSchema } from '@quarry/contracts';
import { JobOutcomeStore, JobRepository } from '@quarry/jobs';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { LOGGER, PlatformMetrics, type Logger } from '@quarry/platform/observability';
import { GuardedHttpClient } from '@quarry/platform/net';
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

@Module({
  providers: [
    {
      provide: GuardedHttpClient,
      useFactory: (config: AppConfig) => createGuardedHttpClient(config),
      inject: [APP_CONFIG],
    },
    { provide: PipelineExtensions, useValue: new PipelineExtensions() },
    {
      provide: ScrapePipeline,
      useFactory: (client: GuardedHttpClient, extensions: PipelineExtensions) =>
        new ScrapePipeline(new HttpEngine(client), extensions),
      inject: [GuardedHttpClient, PipelineExtensions],
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
      useFactory: (
        handler: ScrapeJobHandler,
        bus: MessageBus,
        config: AppConfig,
        logger: Logger,
      ) => new ScrapeJobConsumer(handler, bus, config, logger),
      inject: [ScrapeJobHandler, MESSAGE_BUS, APP_CONFIG, LOGGER],
    },
  ],
  exports: [ScrapePipeline, PipelineExtensions, GuardedHttpClient],
})
export class ScrapeRunnerModule {}
