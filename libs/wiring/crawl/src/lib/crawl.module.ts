import { Global, Module } from '@nestjs/common';

import { CreditsService } from '@quarry/billing';
import {
  CollectionEvents,
  CollectionRepository,
  CollectionService,
  CrawlPromptInterpreter,
  DEFAULT_SITEMAP_LIMITS,
  Dispatcher,
  DispatchQueueRepository,
  FrontierRepository,
  RobotsFetcher,
  SitemapFetcher,
  SiteOutlineReader,
} from '@quarry/crawl';
import { JobRepository } from '@quarry/jobs';
import { LLM_PROVIDER, LlmModule, type LlmProvider } from '@quarry/llm';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import { AddressPolicy, GuardedHttpClient, WebhookTargetPolicy } from '@quarry/platform/net';
import { LOGGER, type Logger, PlatformMetrics } from '@quarry/platform/observability';
import { WebhookOutboxRepository } from '@quarry/webhooks';
import { WebhooksModule } from '@quarry/wiring/core';

/** Outbound client of crawls and maps (the guard applies: private targets need ALLOW_PRIVATE_NETWORKS or the allowlist). */
export const CRAWL_HTTP_CLIENT = Symbol('CRAWL_HTTP_CLIENT');

/** Crawl and batch services shared by gateways and workers (the outbox their webhook events go to: WebhooksModule). */
@Global()
@Module({
  imports: [LlmModule, WebhooksModule],
  providers: [
    {
      provide: CRAWL_HTTP_CLIENT,
      useFactory: (config: AppConfig) =>
        new GuardedHttpClient(new AddressPolicy(config.net.allowPrivateNetworks, config.net.allowlist), {
          userAgent: config.net.userAgent,
          maxBytes: config.limits.maxResponseBytes,
        }),
      inject: [APP_CONFIG],
    },
    {
      provide: FrontierRepository,
      useFactory: (db: Database, outbox: WebhookOutboxRepository) => new FrontierRepository(db, outbox),
      inject: [Database, WebhookOutboxRepository],
    },
    {
      provide: CollectionRepository,
      useFactory: (db: Database, frontier: FrontierRepository, outbox: WebhookOutboxRepository) =>
        new CollectionRepository(db, frontier, outbox),
      inject: [Database, FrontierRepository, WebhookOutboxRepository],
    },
    {
      provide: DispatchQueueRepository,
      useFactory: (db: Database) => new DispatchQueueRepository(db),
      inject: [Database],
    },
    { provide: CollectionEvents, useValue: new CollectionEvents() },
    {
      provide: Dispatcher,
      useFactory: (
        frontier: FrontierRepository,
        queue: DispatchQueueRepository,
        events: CollectionEvents,
        bus: MessageBus,
        logger: Logger,
        config: AppConfig,
        metrics: PlatformMetrics,
      ) =>
        new Dispatcher(frontier, queue, events, bus, logger.child({ component: 'crawl-dispatcher' }), {
          defaultTeamConcurrency: config.limits.teamConcurrency,
          metrics,
        }),
      inject: [
        FrontierRepository,
        DispatchQueueRepository,
        CollectionEvents,
        MESSAGE_BUS,
        LOGGER,
        APP_CONFIG,
        PlatformMetrics,
      ],
    },
    {
      provide: SitemapFetcher,
      useFactory: (client: GuardedHttpClient, config: AppConfig) =>
        new SitemapFetcher(client, { ...DEFAULT_SITEMAP_LIMITS, maxBytes: config.limits.maxResponseBytes }),
      inject: [CRAWL_HTTP_CLIENT, APP_CONFIG],
    },
    {
      provide: RobotsFetcher,
      useFactory: (client: GuardedHttpClient) => new RobotsFetcher(client),
      inject: [CRAWL_HTTP_CLIENT],
    },
    {
      provide: CrawlPromptInterpreter,
      // Offline, prompts are read against the site's own sections (start page links and sitemap).
      useFactory: (llm: LlmProvider, client: GuardedHttpClient, sitemaps: SitemapFetcher) =>
        new CrawlPromptInterpreter(llm, 30_000, new SiteOutlineReader(client, sitemaps)),
      inject: [LLM_PROVIDER, CRAWL_HTTP_CLIENT, SitemapFetcher],
    },
    {
      provide: CollectionService,
      useFactory: (
        collections: CollectionRepository,
        frontier: FrontierRepository,
        jobs: JobRepository,
        credits: CreditsService,
        dispatcher: Dispatcher,
        events: CollectionEvents,
        bus: MessageBus,
        config: AppConfig,
        metrics: PlatformMetrics,
        prompts: CrawlPromptInterpreter,
        webhookTargets: WebhookTargetPolicy,
      ) =>
        new CollectionService({
          collections,
          frontier,
          jobs,
          credits,
          dispatcher,
          events,
          bus,
          metrics,
          prompts,
          webhookTargets,
          settings: {
            publicUrl: config.service.publicUrl,
            retentionHours: config.jobs.retentionHours,
            defaultTeamConcurrency: config.limits.teamConcurrency,
            addressPolicy: new AddressPolicy(config.net.allowPrivateNetworks, config.net.allowlist),
          },
        }),
      inject: [
        CollectionRepository,
        FrontierRepository,
        JobRepository,
        CreditsService,
        Dispatcher,
        CollectionEvents,
        MESSAGE_BUS,
        APP_CONFIG,
        PlatformMetrics,
        CrawlPromptInterpreter,
        WebhookTargetPolicy,
      ],
    },
  ],
  exports: [
    CRAWL_HTTP_CLIENT,
    FrontierRepository,
    DispatchQueueRepository,
    CollectionRepository,
    CollectionEvents,
    Dispatcher,
    SitemapFetcher,
    RobotsFetcher,
    CollectionService,
  ],
})
export class CrawlModule {}
