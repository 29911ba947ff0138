import { Global, Module } from '@nestjs/common';
import { CreditsService } from '@quarry/billing';
import { JobOutcomeStore, JobRepository } from '@quarry/jobs';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import { AddressPolicy, GuardedHttpClient } from '@quarry/platform/net';
import { LOGGER, PlatformMetrics, type Logger } from '@quarry/platform/observability';
import { LLM_PROVIDER, LlmModule, type LlmProvider } from '@quarry/llm';
import { AccountUsageService } from './account/account-usage.service';
import { CollectionRepository } from './collection/collection.repository';
import { CollectionService } from './collection/collection.service';
import { CrawlPromptInterpreter } from './collection/crawl-prompt.interpreter';
import { Dispatcher } from './frontier/dispatcher';
import { FrontierRepository } from './frontier/frontier.repository';
import { MapService } from './map/map.service';
import { RobotsFetcher } from './robots/robots-fetcher';
import { DocumentIndexRepository } from './search/document-index.repository';
import { SearchService } from './search/search.service';
import { SearxngProvider, type SearchProvider } from './search/search-provider';
import { SitemapFetcher } from './sitemap/sitemap-fetcher';
import { CollectionEvents } from './webhooks/collection-events';
import { WebhookOutboxRepository } from './webhooks/webhook-outbox.repository';

/** Outbound client of crawls, maps and webhooks (the guard applies: private targets need ALLOW_PRIVATE_NETWORKS or the allowlist). */
export const CRAWL_HTTP_CLIENT = Symbol('CRAWL_HTTP_CLIENT');
/** The configured web search provider, or null. */
export const SEARCH_PROVIDER = Symbol('SEARCH_PROVIDER');

/** Crawl, batch, map, search and account services shared by gateways and workers. */
@Global()
@Module({
  imports: [LlmModule],
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
      provide: SEARCH_PROVIDER,
      useFactory: (config: AppConfig): SearchProvider | null => {
        if (!config.search.providerUrl) return null;
        // The provider is the operator's own endpoint: it may live on a private network.
        const client = new GuardedHttpClient(new AddressPolicy(true, []), { userAgent: config.net.userAgent, maxBytes: 5 * 1024 * 1024 });
        return new SearxngProvider(config.search.providerUrl, client);
      },
      inject: [APP_CONFIG],
    },
    { provide: WebhookOutboxRepository, useFactory: (db: Database) => new WebhookOutboxRepository(db), inject: [Database] },
    { provide: FrontierRepository, useFactory: (db: Database, outbox: WebhookOutboxRepository) => new FrontierRepository(db, outbox), inject: [Database, WebhookOutboxRepository] },
    {
      provide: CollectionRepository,
      useFactory: (db: Database, frontier: FrontierRepository, outbox: WebhookOutboxRepository) => new CollectionRepository(db, frontier, outbox),
      inject: [Database, FrontierRepository, WebhookOutboxRepository],
    },
    { provide: DocumentIndexRepository, useFactory: (db: Database) => new DocumentIndexRepository(db), inject: [Database] },
    { provide: CollectionEvents, useValue: new CollectionEvents() },
    {
      provide: Dispatcher,
      useFactory: (frontier: FrontierRepository, events: CollectionEvents, bus: MessageBus, logger: Logger, config: AppConfig, metrics: PlatformMetrics) =>
        new Dispatcher(frontier, events, bus, logger.child({ component: 'crawl-dispatcher' }), { defaultTeamConcurrency: config.limits.teamConcurrency, metrics }),
      inject: [FrontierRepository, CollectionEvents, MESSAGE_BUS, LOGGER, APP_CONFIG, PlatformMetrics],
    },
    { provide: SitemapFetcher, useFactory: (client: GuardedHttpClient) => new SitemapFetcher(client), inject: [CRAWL_HTTP_CLIENT] },
    { provide: RobotsFetcher, useFactory: (client: GuardedHttpClient) => new RobotsFetcher(client), inject: [CRAWL_HTTP_CLIENT] },
    { provide: CrawlPromptInterpreter, useFactory: (llm: LlmProvider) => new CrawlPromptInterpreter(llm), inject: [LLM_PROVIDER] },
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
          settings: {
            publicUrl: config.service.publicUrl,
            retentionHours: config.jobs.retentionHours,
            defaultTeamConcurrency: config.limits.teamConcurrency,
            addressPolicy: new AddressPolicy(config.net.allowPrivateNetworks, config.net.allowlist),
          },
        }),
      inject: [CollectionRepository, FrontierRepository, JobRepository, CreditsService, Dispatcher, CollectionEvents, MESSAGE_BUS, APP_CONFIG, PlatformMetrics, CrawlPromptInterpreter],
    },
    {
      provide: MapService,
      useFactory: (
        client: GuardedHttpClient,
        sitemaps: SitemapFetcher,
        robots: RobotsFetcher,
        index: DocumentIndexRepository,
        provider: SearchProvider | null,
        jobs: JobRepository,
        outcomes: JobOutcomeStore,
        credits: CreditsService,
        logger: Logger,
        config: AppConfig,
        metrics: PlatformMetrics,
      ) =>
        new MapService({
          client,
          sitemaps,
          robots,
          index,
          provider: provider ?? undefined,
          jobs,
          outcomes,
          credits,
          logger: logger.child({ component: 'map' }),
          metrics,
          crawlPages: config.map.crawlPages,
          retentionHours: config.jobs.retentionHours,
        }),
      inject: [CRAWL_HTTP_CLIENT, SitemapFetcher, RobotsFetcher, DocumentIndexRepository, SEARCH_PROVIDER, JobRepository, JobOutcomeStore, CreditsService, LOGGER, APP_CONFIG, PlatformMetrics],
    },
    {
      provide: SearchService,
      useFactory: (
        index: DocumentIndexRepository,
        provider: SearchProvider | null,
        jobs: JobRepository,
        outcomes: JobOutcomeStore,
        credits: CreditsService,
        logger: Logger,
        config: AppConfig,
        metrics: PlatformMetrics,
      ) =>
        new SearchService({
          index,
          provider: provider ?? undefined,
          jobs,
          outcomes,
          credits,
          logger: logger.child({ component: 'search' }),
          metrics,
          providerTimeoutMs: config.search.timeoutMs,
          retentionHours: config.jobs.retentionHours,
        }),
      inject: [DocumentIndexRepository, SEARCH_PROVIDER, JobRepository, JobOutcomeStore, CreditsService, LOGGER, APP_CONFIG, PlatformMetrics],
    },
    {
      provide: AccountUsageService,
      useFactory: (db: Database, config: AppConfig) => new AccountUsageService(db, config.limits.teamConcurrency),
      inject: [Database, APP_CONFIG],
    },
  ],
  exports: [
    CRAWL_HTTP_CLIENT,
    SEARCH_PROVIDER,
    WebhookOutboxRepository,
    FrontierRepository,
    CollectionRepository,
    DocumentIndexRepository,
    CollectionEvents,
    Dispatcher,
    SitemapFetcher,
    RobotsFetcher,
    CollectionService,
    MapService,
    SearchService,
    AccountUsageService,
  ],
})
export class CrawlModule {}
