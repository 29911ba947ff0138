import { Inject, Module, type OnApplicationBootstrap, type BeforeApplicationShutdown } from '@nestjs/common';
import {
  CollectionEvents,
  CollectionPlans,
  CrawlModule,
  CRAWL_HTTP_CLIENT,
  CrawlSweeper,
  CrawlTaskHandler,
  Dispatcher,
  FrontierRepository,
  PageOutcomeWriter,
  RobotsFetcher,
  RobotsService,
  SitemapFetcher,
  WebhookOutboxRepository,
  WebhookSender,
} from '@quarry/crawl';
import { CONSUMER_GROUPS, crawlTaskMessageSchema } from '@quarry/contracts';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import type { GuardedHttpClient } from '@quarry/platform/net';
import { LOGGER, PlatformMetrics, type Logger } from '@quarry/platform/observability';
import { ScrapePipeline } from '@quarry/scrape/engine';
import { ScrapeRunnerModule } from '@quarry/scrape/runner';

/**
 * Consumes `crawl.tasks` and runs the recovery sweep and the webhook sender: what a worker process
 * contributes to crawls and batches. Any worker continues any crawl.
 */
class CrawlWorkerLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(CrawlTaskHandler) private readonly handler: CrawlTaskHandler,
    @Inject(CrawlSweeper) private readonly sweeper: CrawlSweeper,
    @Inject(WebhookSender) private readonly webhooks: WebhookSender,
    @Inject(Dispatcher) private readonly dispatcher: Dispatcher,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribe(
      'crawlTasks',
      {
        group: CONSUMER_GROUPS.crawlWorkers,
        concurrency: this.config.crawl.workerConcurrency,
        schema: crawlTaskMessageSchema,
        onInvalid: (error) => this.logger.error({ err: error }, 'invalid crawl task skipped'),
      },
      (message) => this.handler.handle(message.value),
    );
    this.sweeper.start();
    this.webhooks.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.dispatcher.stop();
    await Promise.allSettled([this.sweeper.stop(), this.webhooks.stop()]);
  }
}

@Module({
  imports: [CrawlModule, ScrapeRunnerModule],
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
      ],
    },
    {
      provide: CrawlSweeper,
      useFactory: (
        frontier: FrontierRepository,
        dispatcher: Dispatcher,
        bus: MessageBus,
        config: AppConfig,
        logger: Logger,
      ) =>
        new CrawlSweeper(
          frontier,
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
      inject: [FrontierRepository, Dispatcher, MESSAGE_BUS, APP_CONFIG, LOGGER],
    },
    {
      provide: WebhookSender,
      useFactory: (
        outbox: WebhookOutboxRepository,
        client: GuardedHttpClient,
        config: AppConfig,
        logger: Logger,
      ) =>
        new WebhookSender(
          outbox,
          client,
          {
            secret: config.webhooks.secret,
            timeoutMs: config.webhooks.timeoutMs,
            maxAttempts: config.webhooks.maxAttempts,
            retryBaseMs: config.webhooks.retryBaseMs,
            pollIntervalMs: 250,
            pageParallelism: 8,
            streams: 16,
          },
          logger.child({ component: 'webhooks' }),
        ),
      inject: [WebhookOutboxRepository, CRAWL_HTTP_CLIENT, APP_CONFIG, LOGGER],
    },
    CrawlWorkerLifecycle,
  ],
})
export class CrawlRunnerModule {}
