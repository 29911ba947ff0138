import { Module } from '@nestjs/common';

import {
  CollectionEvents,
  CollectionPlans,
  CrawlSweeper,
  CrawlTaskHandler,
  Dispatcher,
  DispatchQueueRepository,
  FrontierRepository,
  PageOutcomeWriter,
  RobotsFetcher,
  RobotsService,
  SitemapFetcher,
} from '@quarry/crawl';
import { SuspectGate } from '@quarry/jobs';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import { LOGGER, type Logger, PlatformMetrics } from '@quarry/platform/observability';
import { ScrapePipeline } from '@quarry/scrape/engine';
import { ScrapeRunnerModule } from '@quarry/scrape/runner';
import { WebhooksModule } from '@quarry/wiring/core';
import { CrawlModule } from '@quarry/wiring/crawl';

import { CrawlTasksConsumer } from './crawl-tasks.consumer';
import { CrawlWorkerLifecycle } from './crawl-worker.lifecycle';

/**
 * What a worker process contributes to crawls and batches: the `crawl.tasks` consumer
 * (crawl-tasks.consumer.ts), the recovery sweep and the webhook sender (crawl-worker.lifecycle.ts).
 */
@Module({
  imports: [CrawlModule, WebhooksModule, ScrapeRunnerModule],
  providers: [
    {
      provide: CollectionPlans,
      useFactory: (frontier: FrontierRepository, config: AppConfig) =>
        new CollectionPlans(frontier, {
          robotsUserAgent: config.crawl.robotsUserAgent,
          trapMaxRun: config.crawl.trapMaxRun,
          maxFrontier: config.crawl.maxFrontier,
        }),
      inject: [FrontierRepository, APP_CONFIG],
    },
    {
      provide: PageOutcomeWriter,
      useFactory: (db: Database, frontier: FrontierRepository, logger: Logger) =>
        new PageOutcomeWriter(db, frontier, logger.child({ component: 'crawl-outcomes' })),
      inject: [Database, FrontierRepository, LOGGER],
    },
    {
      provide: RobotsService,
      useFactory: (frontier: FrontierRepository, fetcher: RobotsFetcher, logger: Logger) =>
        new RobotsService(frontier, fetcher, logger.child({ component: 'robots' })),
      inject: [FrontierRepository, RobotsFetcher, LOGGER],
    },
    {
      provide: CrawlTaskHandler,
      useFactory: (
        frontier: FrontierRepository,
        outcomes: PageOutcomeWriter,
        plans: CollectionPlans,
        dispatcher: Dispatcher,
        robots: RobotsService,
        sitemaps: SitemapFetcher,
        pipeline: ScrapePipeline,
        events: CollectionEvents,
        metrics: PlatformMetrics,
        logger: Logger,
        config: AppConfig,
        gate: SuspectGate,
      ) =>
        new CrawlTaskHandler({
          frontier,
          outcomes,
          plans,
          dispatcher,
          robots,
          sitemaps,
          pipeline,
          events,
          metrics,
          logger: logger.child({ component: 'crawl-worker' }),
          sitemapTimeoutMs: config.crawl.sitemapTimeoutMs,
          maxAttempts: config.jobs.maxAttempts,
          pageLeaseMs: config.crawl.pageLeaseMs,
          gate,
        }),
      inject: [
        FrontierRepository,
        PageOutcomeWriter,
        CollectionPlans,
        Dispatcher,
        RobotsService,
        SitemapFetcher,
        ScrapePipeline,
        CollectionEvents,
        PlatformMetrics,
        LOGGER,
        APP_CONFIG,
        SuspectGate,
      ],
    },
    {
      provide: CrawlSweeper,
      useFactory: (
        frontier: FrontierRepository,
        queue: DispatchQueueRepository,
        dispatcher: Dispatcher,
        bus: MessageBus,
        config: AppConfig,
        logger: Logger,
      ) =>
        new CrawlSweeper(
          frontier,
          queue,
          dispatcher,
          bus,
          {
            intervalMs: config.crawl.sweepIntervalMs,
            pageLeaseMs: config.crawl.pageLeaseMs,
            pageMaxAttempts: config.crawl.pageMaxAttempts,
            kickoffGraceMs: config.crawl.sitemapTimeoutMs + 30_000,
          },
          logger.child({ component: 'crawl-sweeper' }),
        ),
      inject: [FrontierRepository, DispatchQueueRepository, Dispatcher, MESSAGE_BUS, APP_CONFIG, LOGGER],
    },
    CrawlTasksConsumer,
    CrawlWorkerLifecycle,
  ],
})
export class CrawlRunnerModule {}
