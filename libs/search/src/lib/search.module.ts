import { Global, Module } from '@nestjs/common';
import { CreditsService } from '@quarry/billing';
import { CRAWL_HTTP_CLIENT, CrawlModule, RobotsFetcher, SitemapFetcher } from '@quarry/crawl';
import { JobOutcomeStore, JobRepository } from '@quarry/jobs';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import { AddressPolicy, GuardedHttpClient } from '@quarry/platform/net';
import { LOGGER, PlatformMetrics, type Logger } from '@quarry/platform/observability';
import { MapService } from './map/map.service';
import { DocumentIndexRepository } from './search/document-index.repository';
import { SearchService } from './search/search.service';
import { SearxngProvider, type SearchProvider } from './search/search-provider';

/** The configured web search provider, or null. */
export const SEARCH_PROVIDER = Symbol('SEARCH_PROVIDER');

/** Map and search: the team's document index, the web search provider and the services of `/v2/map` and `/v2/search`. */
@Global()
@Module({
  imports: [CrawlModule],
  providers: [
    {
      provide: SEARCH_PROVIDER,
      useFactory: (config: AppConfig): SearchProvider | null => {
        if (!config.search.providerUrl) return null;
        // The provider is the operator's own endpoint: it may live on a private network.
        const client = new GuardedHttpClient(new AddressPolicy(true, []), {
          userAgent: config.net.userAgent,
          maxBytes: 5 * 1024 * 1024,
        });
        return new SearxngProvider(config.search.providerUrl, client);
      },
      inject: [APP_CONFIG],
    },
    {
      provide: DocumentIndexRepository,
      useFactory: (db: Database) => new DocumentIndexRepository(db),
      inject: [Database],
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
      inject: [
        CRAWL_HTTP_CLIENT,
        SitemapFetcher,
        RobotsFetcher,
        DocumentIndexRepository,
        SEARCH_PROVIDER,
        JobRepository,
        JobOutcomeStore,
        CreditsService,
        LOGGER,
        APP_CONFIG,
        PlatformMetrics,
      ],
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
      inject: [
        DocumentIndexRepository,
        SEARCH_PROVIDER,
        JobRepository,
        JobOutcomeStore,
        CreditsService,
        LOGGER,
        APP_CONFIG,
        PlatformMetrics,
      ],
    },
  ],
  exports: [SEARCH_PROVIDER, DocumentIndexRepository, MapService, SearchService],
})
export class SearchModule {}
