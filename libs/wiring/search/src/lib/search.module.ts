import {
  Global,
  Inject,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';

import { CreditsService } from '@quarry/billing';
import { RobotsFetcher, SitemapFetcher } from '@quarry/crawl';
import { JobOutcomeStore, JobRepository } from '@quarry/jobs';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import { AddressPolicy, GuardedHttpClient } from '@quarry/platform/net';
import { LOGGER, type Logger, PlatformMetrics } from '@quarry/platform/observability';
import {
  DEFAULT_SEARCH_INDEXER_OPTIONS,
  DocumentIndexRepository,
  type IndexJobDeps,
  MapService,
  SearchIndexer,
  type SearchProvider,
  SearchService,
  SearxngProvider,
} from '@quarry/search';
import { CRAWL_HTTP_CLIENT, CrawlModule } from '@quarry/wiring/crawl';

/** Documents one background indexing statement covers on embedded PGlite (~10 ms of event loop each). */
const PGLITE_INDEX_BATCH = 8;

/** The configured web search provider, or null. */
export const SEARCH_PROVIDER = Symbol('SEARCH_PROVIDER');
/** What map and search jobs share: the index, the provider, job records, outcomes, credits, logs, metrics. */
const INDEX_JOB_DEPS = Symbol('INDEX_JOB_DEPS');

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
      provide: SearchIndexer,
      useFactory: (db: Database, logger: Logger, config: AppConfig) =>
        new SearchIndexer(db, logger.child({ component: 'search-indexer' }), {
          ...DEFAULT_SEARCH_INDEXER_OPTIONS,
          // Embedded PGlite runs on the event loop: small batches keep each statement short.
          batch: db.kind === 'pglite' ? PGLITE_INDEX_BATCH : DEFAULT_SEARCH_INDEXER_OPTIONS.batch,
          intervalMs: config.search.indexIntervalMs,
          maxLagMs: config.search.indexMaxLagMs,
        }),
      inject: [Database, LOGGER, APP_CONFIG],
    },
    {
      provide: DocumentIndexRepository,
      useFactory: (db: Database, indexer: SearchIndexer) => new DocumentIndexRepository(db, indexer),
      inject: [Database, SearchIndexer],
    },
    {
      provide: INDEX_JOB_DEPS,
      useFactory: (
        index: DocumentIndexRepository,
        provider: SearchProvider | null,
        jobs: JobRepository,
        outcomes: JobOutcomeStore,
        credits: CreditsService,
        logger: Logger,
        config: AppConfig,
        metrics: PlatformMetrics,
      ): IndexJobDeps => ({
        index,
        provider: provider ?? undefined,
        jobs,
        outcomes,
        credits,
        logger,
        metrics,
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
    {
      provide: MapService,
      useFactory: (
        deps: IndexJobDeps,
        client: GuardedHttpClient,
        sitemaps: SitemapFetcher,
        robots: RobotsFetcher,
        config: AppConfig,
      ) =>
        new MapService({
          ...deps,
          logger: deps.logger.child({ component: 'map' }),
          client,
          sitemaps,
          robots,
          crawlPages: config.map.crawlPages,
        }),
      inject: [INDEX_JOB_DEPS, CRAWL_HTTP_CLIENT, SitemapFetcher, RobotsFetcher, APP_CONFIG],
    },
    {
      provide: SearchService,
      useFactory: (deps: IndexJobDeps, config: AppConfig) =>
        new SearchService({
          ...deps,
          logger: deps.logger.child({ component: 'search' }),
          providerTimeoutMs: config.search.timeoutMs,
        }),
      inject: [INDEX_JOB_DEPS, APP_CONFIG],
    },
  ],
  exports: [SEARCH_PROVIDER, DocumentIndexRepository, MapService, SearchService, SearchIndexer],
})
export class SearchModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(SearchIndexer) private readonly indexer: SearchIndexer) {}

  /** Every process that serves search also computes pending search vectors in the background. */
  onApplicationBootstrap(): void {
    this.indexer.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.indexer.stop();
  }
}
