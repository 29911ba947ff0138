import { Inject, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';

import { CONSUMER_GROUPS } from '@quarry/contracts';
import { JobClaims, JobOutcomeStore, JobRepository } from '@quarry/jobs';
import { LLM_PROVIDER, type LlmProvider } from '@quarry/llm';
import { BlobStore } from '@quarry/platform/blob';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import { GuardedHttpClient } from '@quarry/platform/net';
import { LOGGER, type Logger, PlatformMetrics } from '@quarry/platform/observability';
import { BrowserPoolRef, ProxyPools } from '@quarry/scrape/browser';
import {
  INTERACT_SESSION_IDLE_MS,
  InteractSessionRepository,
  ProfileRepository,
  TeamConcurrencyLimiter,
} from '@quarry/scrape/state';

import { InteractCallHandler } from './interact-call.handler';
import { LiveSessions } from './session/live-sessions';

/** Live pages one worker keeps at most (least recently used closed beyond; restored on their next call). */
const MAX_LIVE_SESSIONS = 16;
/** Interact calls one worker runs at once (each runs in its own session; calls of one session queue). */
const CALL_CONCURRENCY = 16;

/**
 * Consumes `interact.calls` (group `interact-workers`, docs/interact.md): runs each call on a live
 * page of its session in the worker's Chromium (shared with the browser engine); closes the live
 * pages at shutdown.
 */
export class InteractCallsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private live?: LiveSessions;

  constructor(
    @Inject(BrowserPoolRef) private readonly poolRef: BrowserPoolRef,
    @Inject(GuardedHttpClient) private readonly client: GuardedHttpClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(Database) private readonly db: Database,
    @Inject(JobRepository) private readonly jobs: JobRepository,
    @Inject(JobClaims) private readonly claims: JobClaims,
    @Inject(JobOutcomeStore) private readonly outcomes: JobOutcomeStore,
    @Inject(LLM_PROVIDER) private readonly llm: LlmProvider,
    @Inject(BlobStore) private readonly blobs: BlobStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const logger = this.logger.child({ component: 'interact' });
    const sessions = new InteractSessionRepository(this.db, new ProfileRepository(this.db));
    const settings = {
      policy: this.client.policy,
      maxTransferBytes: this.config.browser.maxTransferBytes,
      settleMs: this.config.browser.settleMs,
      userAgent: this.config.browser.userAgent,
    };
    const pool = () => this.poolRef.pool;
    const live = new LiveSessions({
      pool,
      proxies: new ProxyPools(this.config.proxies),
      settings,
      sessions,
      limiter: new TeamConcurrencyLimiter(this.db),
      teamConcurrency: this.config.limits.teamConcurrency,
      idleMs: INTERACT_SESSION_IDLE_MS,
      maxLive: MAX_LIVE_SESSIONS,
      logger,
    });
    this.live = live;
    const handler = new InteractCallHandler({
      jobs: this.jobs,
      claims: this.claims,
      outcomes: this.outcomes,
      sessions,
      live,
      pool,
      settings,
      llm: this.llm,
      blobs: this.blobs,
      bus: this.bus,
      metrics: this.metrics,
      logger,
      maxDocumentBytes: this.config.limits.maxResponseBytes,
    });
    await this.bus.subscribe(
      'interactCalls',
      {
        group: CONSUMER_GROUPS.interactWorkers,
        concurrency: CALL_CONCURRENCY,
      },
      (message) => handler.handle(message.value),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.live?.closeAll();
  }
}
