import { Module } from '@nestjs/common';

import { JobClaims, JobOutcomeStore, JobRepository } from '@quarry/jobs';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { GuardedHttpClient } from '@quarry/platform/net';
import { LOGGER, type Logger, PlatformMetrics } from '@quarry/platform/observability';
import { HttpEngine, PipelineExtensions, ScrapePipeline } from '@quarry/scrape/engine';

import { ContentWorkers } from './content-workers.lifecycle';
import { createGuardedHttpClient } from './outbound';
import { ScrapeJobHandler } from './scrape-job.handler';
import { ScrapeJobConsumer } from './scrape-jobs.consumer';

@Module({
  providers: [
    {
      provide: ContentWorkers,
      useFactory: (config: AppConfig, metrics: PlatformMetrics, logger: Logger) =>
        new ContentWorkers(config, metrics, logger.child({ component: 'content-workers' })),
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
      useFactory: (
        client: GuardedHttpClient,
        extensions: PipelineExtensions,
        workers: ContentWorkers,
        config: AppConfig,
      ) =>
        new ScrapePipeline(new HttpEngine(client), extensions, workers.transformer, config.worker.pageLimits),
      inject: [GuardedHttpClient, PipelineExtensions, ContentWorkers, APP_CONFIG],
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
        claims: JobClaims,
      ) =>
        new ScrapeJobHandler({
          pipeline,
          jobs,
          outcomes,
          bus,
          metrics,
          logger: logger.child({ component: 'scrape-worker' }),
          claims,
        }),
      inject: [
        ScrapePipeline,
        JobRepository,
        JobOutcomeStore,
        MESSAGE_BUS,
        PlatformMetrics,
        LOGGER,
        JobClaims,
      ],
    },
    {
      provide: ScrapeJobConsumer,
      useFactory: (handler: ScrapeJobHandler, bus: MessageBus, config: AppConfig) =>
        new ScrapeJobConsumer(handler, bus, config),
      inject: [ScrapeJobHandler, MESSAGE_BUS, APP_CONFIG],
    },
  ],
  exports: [ScrapePipeline, PipelineExtensions, GuardedHttpClient],
})
export class ScrapeRunnerModule {}
