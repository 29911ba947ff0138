import { Inject, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';

import { BlobStore } from '@quarry/platform/blob';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import { GuardedHttpClient } from '@quarry/platform/net';
import { HealthRegistry, LOGGER, type Logger, PlatformMetrics } from '@quarry/platform/observability';
import { HttpEngine, PipelineExtensions } from '@quarry/scrape/engine';
import { ScrapeRunnerModule } from '@quarry/scrape/runner';
import { ProfileRepository, TeamConcurrencyLimiter } from '@quarry/scrape/state';

import { BrowserEngine } from './engine/browser.engine';
import { ProxyPools } from './engine/proxy-pools';
import { BrowserPool } from './pool/browser-pool';
import { BrowserPoolRef } from './pool/browser-pool.ref';

/**
 * Registers the scrape engine in the worker's pipeline: Chromium (CHROMIUM_PATH, BROWSER_CONCURRENCY
 * pages at once) when available, else HTTP only with warnings for what needed a browser.
 */
@Module({ imports: [ScrapeRunnerModule], providers: [BrowserPoolRef], exports: [BrowserPoolRef] })
export class BrowserEngineModule implements OnModuleInit, OnApplicationShutdown {
  private pool?: BrowserPool;
  private sweeper?: NodeJS.Timeout;

  constructor(
    @Inject(PipelineExtensions) private readonly extensions: PipelineExtensions,
    @Inject(GuardedHttpClient) private readonly client: GuardedHttpClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(Database) private readonly db: Database,
    @Inject(BlobStore) private readonly blobs: BlobStore,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(HealthRegistry) private readonly health: HealthRegistry,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
    @Inject(BrowserPoolRef) private readonly poolRef: BrowserPoolRef,
  ) {}

  async onModuleInit(): Promise<void> {
    const logger = this.logger.child({ component: 'browser' });
    const { chromiumPath, browserConcurrency } = this.config.worker;
    if (chromiumPath && browserConcurrency > 0) {
      try {
        this.pool = await BrowserPool.launch({
          executablePath: chromiumPath,
          concurrency: browserConcurrency,
          policy: this.client.policy,
          maxTransferBytes: this.config.browser.maxTransferBytes,
          logger,
          onRestart: () => this.metrics.browserRestarts.inc(),
        });
        logger.info(
          { chromium: chromiumPath, version: this.pool.browserVersion, concurrency: browserConcurrency },
          'browser pool started',
        );
      } catch (error) {
        logger.error(
          { err: error, chromium: chromiumPath },
          'could not start Chromium: scraping continues over HTTP only',
        );
      }
    } else {
      logger.warn(
        { chromiumPath, browserConcurrency },
        'no browser configured (CHROMIUM_PATH / BROWSER_CONCURRENCY): scraping over HTTP only; actions are refused',
      );
    }
    const pool = this.pool;
    this.poolRef.pool = pool;
    this.metrics.browserPoolSize.set(pool ? pool.concurrency : 0);
    if (pool) {
      // Sampled at scrape time rather than pushed from every page.
      (this.metrics.browserPagesActive as unknown as { collect?: () => void }).collect = () =>
        this.metrics.browserPagesActive.set(pool.active);
    }
    const engine = new BrowserEngine({
      http: new HttpEngine(this.client),
      pool,
      proxies: new ProxyPools(this.config.proxies),
      limiter: new TeamConcurrencyLimiter(this.db),
      profiles: new ProfileRepository(this.db),
      blobs: this.blobs,
      logger,
      metrics: this.metrics,
      settings: {
        teamConcurrency: this.config.limits.teamConcurrency,
        settleMs: this.config.browser.settleMs,
        maxDocumentBytes: this.config.limits.maxResponseBytes,
        pageLimits: this.config.worker.pageLimits,
        userAgent: this.config.browser.userAgent,
      },
    });
    this.extensions.addEngine(engine, () => engine);
    // Screenshots and PDFs expire after 24 h; their files are removed hourly.
    this.sweeper = setInterval(() => {
      this.blobs.sweep().then(
        (removed) => removed > 0 && logger.info({ removed }, 'expired blobs removed'),
        (error: unknown) => logger.warn({ err: error }, 'blob sweep failed'),
      );
    }, 3_600_000);
    this.sweeper.unref();
    if (pool) {
      this.health.register('browser', async () => {
        if (!pool.connected && pool.active > 0) throw new Error('browser disconnected with pages in flight');
      });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool
      ?.close()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'browser pool did not close cleanly'));
  }
}
