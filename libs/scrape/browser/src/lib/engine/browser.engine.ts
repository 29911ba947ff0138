import type { Logger } from 'pino';

import { AppError, hasFormat, LIMITS, type ScrapeRequest } from '@quarry/contracts';
import type { BlobStore } from '@quarry/platform/blob';
import { BlockedAddressError, DnsResolutionError } from '@quarry/platform/net';
import { type PlatformMetrics, withSpan } from '@quarry/platform/observability';
import type { PageLimits } from '@quarry/scrape/content';
import type { Engine, EngineContext, FetchedPage, HttpEngine } from '@quarry/scrape/engine';
import type { ProfileRepository, ProfileState, Slot, TeamConcurrencyLimiter } from '@quarry/scrape/state';

import type { BrowserPool } from '../pool/browser-pool';
import type { ArtifactKind } from '../render/actions-runner';
import {
  NotRenderableError,
  renderPage,
  type RenderResult,
  RenderTimeoutError,
} from '../render/browser-renderer';
import { desktopUserAgent } from '../render/emulation';
import { browserFeatures } from './browser-features.util';
import { needsJavaScript } from './js-need.util';
import { isRefusalStatus, type ProxyAttempt, type ProxyPools } from './proxy-pools';

export interface BrowserEngineDeps {
  http: HttpEngine;
  /** Absent when no Chromium is configured: HTTP only, with warnings for what needed a browser. */
  pool?: BrowserPool;
  proxies: ProxyPools;
  limiter?: TeamConcurrencyLimiter;
  profiles?: ProfileRepository;
  blobs?: BlobStore;
  logger?: Logger;
  metrics?: PlatformMetrics;
  settings: {
    /** Default concurrent browser scrapes of a team (teams.concurrency_limit overrides). */
    teamConcurrency: number;
    settleMs: number;
    maxDocumentBytes: number;
    /** Bounds on a document Chromium may parse (`MAX_PAGE_ELEMENTS`, `MAX_PAGE_LINKS`). */
    pageLimits?: PageLimits;
    userAgent?: string;
  };
}

/** Content the browser renders as a page; anything else is a file it only displays. */
const MARKUP = /^(text\/|application\/(xhtml\+xml|xml|json)\b)/i;

/** Time a retry needs at least to be worth starting. */
const MIN_RETRY_MS = 1_500;
const CRASH =
  /Target closed|Session closed|Protocol error|Connection closed|browser is not connected|page crashed|Unable to get browser page|detached Frame/i;

/**
 * The scrape engine of the worker (docs/scraping.md#engines): HTTP first when the request
 * needs no browser feature, the browser when it does (`actions`, `screenshot`, `branding`,
 * `waitFor`, `mobile`, `location`, `profile`) or when the HTTP answer turns out to need JavaScript.
 * The choice and the fallback are reported in `metadata.engine` and `metadata.engineFallback`.
 * Proxy pools, team concurrency, profiles and crash retries are handled here.
 */
export class BrowserEngine implements Engine {
  readonly name: 'browser' | 'http';

  constructor(private readonly deps: BrowserEngineDeps) {
    this.name = deps.pool ? 'browser' : 'http';
  }

  async fetch(request: ScrapeRequest, context: EngineContext): Promise<FetchedPage> {
    const deadline = Date.now() + context.timeoutMs;
    const features = browserFeatures(request);
    if (features.length > 0 && this.deps.pool) {
      const rendered = await this.render(request, context, deadline);
      this.deps.metrics?.engineSelected.inc({ engine: rendered.engine, fallback: 'false' });
      // A PDF or an image opened for a browser feature (e.g. `location`) is a file, not a page: its
      // bytes are the HTTP response's, never the browser's viewer DOM.
      if (rendered.contentType && !MARKUP.test(rendered.contentType))
        return this.fetchHttp(request, context, deadline);
      if (hasFormat(request.formats, 'rawBase64') && rendered.text !== undefined && !rendered.responseBody) {
        // The browser no longer had the response body (evicted): fetch it as the HTTP engine would.
        const raw = await this.fetchHttp(request, context, deadline);
        return { ...rendered, responseBody: raw.body };
      }
      return rendered;
    }

    const warnings: string[] = [];
    if (features.length > 0) {
      warnings.push(
        `The engine used does not support the following features: ${features.join(', ')} -- your scrape may be partial.`,
      );
    }
    const fetched = await this.fetchHttp(request, context, deadline);
    // rawBase64 (the only format when asked) is the HTTP response body: rendering would add nothing.
    const reason = hasFormat(request.formats, 'rawBase64') ? undefined : needsJavaScript(fetched);
    if (!reason) {
      this.deps.metrics?.engineSelected.inc({ engine: 'http', fallback: 'false' });
      return withWarnings(fetched, warnings);
    }
    if (!this.deps.pool) {
      warnings.push(
        'This page appears to need JavaScript, but no browser is configured (CHROMIUM_PATH); the content may be incomplete.',
      );
      return withWarnings(fetched, warnings);
    }
    try {
      const rendered = await this.render(request, context, deadline);
      rendered.metadata = { ...rendered.metadata, engineFallback: `http → browser: ${reason}` };
      this.deps.metrics?.engineSelected.inc({ engine: 'browser', fallback: 'true' });
      return withWarnings(rendered, warnings);
    } catch (error) {
      if (
        error instanceof AppError ||
        error instanceof BlockedAddressError ||
        isTimeout(error, context, deadline)
      )
        throw error;
      this.deps.logger?.warn(
        { err: loggable(request, error), jobId: context.jobId },
        'browser fallback failed; answering the HTTP result',
      );
      warnings.push(
        `This page appears to need JavaScript, but rendering it failed (${messageOf(error)}); the content may be incomplete.`,
      );
      return withWarnings(fetched, warnings);
    }
  }

  /** HTTP through the proxy plan: `auto` retries a refused or failed basic attempt on the enhanced pool. */
  private async fetchHttp(
    request: ScrapeRequest,
    context: EngineContext,
    deadline: number,
  ): Promise<FetchedPage> {
    const attempts = this.deps.proxies.plan(request.proxy, request.location?.country);
    for (const [index, attempt] of attempts.entries()) {
      const last = index === attempts.length - 1;
      try {
        const page = await this.deps.http.fetch(
          request,
          { ...context, timeoutMs: Math.max(1, deadline - Date.now()) },
          { proxyUrl: attempt.url },
        );
        if (!last && isRefusalStatus(page.status) && deadline - Date.now() > MIN_RETRY_MS) continue;
        return withMetadata(page, { engine: 'http', proxyUsed: proxyUsed(attempt) });
      } catch (caught) {
        const error = proxyFailure(caught);
        if (last || !retryable(error, context, deadline)) throw error;
        this.deps.logger?.info(
          { jobId: context.jobId, err: loggable(request, error) },
          'basic route failed; retrying on the enhanced proxy pool',
        );
      }
    }
    throw new Error('no proxy attempt was made');
  }

  private async render(
    request: ScrapeRequest,
    context: EngineContext,
    deadline: number,
  ): Promise<FetchedPage> {
    const pool = this.deps.pool as BrowserPool;
    const slot = await this.teamSlot(context, deadline);
    let profile: { state: ProfileState } | undefined;
    let saved = false;
    try {
      profile = await this.openProfile(request, context, deadline);
      const attempts = this.deps.proxies.plan(request.proxy, request.location?.country);
      let result: RenderResult | undefined;
      let used: ProxyAttempt = attempts[0];
      for (const [index, attempt] of attempts.entries()) {
        used = attempt;
        const last = index === attempts.length - 1;
        try {
          result = await this.renderWithCrashRetry(pool, request, context, deadline, attempt, profile?.state);
          if (!last && isRefusalStatus(result.page.status) && deadline - Date.now() > MIN_RETRY_MS) continue;
          break;
        } catch (error) {
          if (last || !retryable(error, context, deadline)) throw error;
          this.deps.logger?.info(
            { jobId: context.jobId, err: loggable(request, error) },
            'basic route failed in the browser; retrying on the enhanced proxy pool',
          );
        }
      }
      const rendered = result as RenderResult;
      this.countRefusals(rendered);
      if (profile && request.profile?.saveChanges && rendered.profileState && context.teamId) {
        saved = await (this.deps.profiles as ProfileRepository).save(
          context.teamId,
          request.profile.name,
          context.jobId,
          rendered.profileState,
        );
      }
      return withMetadata(rendered.page, {
        engine: 'browser',
        proxyUsed: proxyUsed(used),
        concurrencyLimited: (slot?.queuedMs ?? 0) > 0,
        ...((slot?.queuedMs ?? 0) > 0 ? { concurrencyQueueDurationMs: slot?.queuedMs } : {}),
      });
    } catch (error) {
      if (error instanceof NotRenderableError) {
        // A download or a type the browser does not show: the HTTP engine fetches it as bytes.
        const page = await this.fetchHttp(request, context, deadline);
        return withWarnings(page, [
          'The browser could not render this URL (a download or non-HTML type); it was fetched over HTTP instead.',
        ]);
      }
      throw error;
    } finally {
      // Also when the profile was never opened (no slot, 409): release only ever frees this job's own lock.
      if (request.profile?.saveChanges && !saved && context.teamId) {
        await this.deps.profiles
          ?.release(context.teamId, request.profile.name, context.jobId)
          .catch(() => undefined);
      }
      await slot?.release().catch(() => undefined);
    }
  }

  private async renderWithCrashRetry(
    pool: BrowserPool,
    request: ScrapeRequest,
    context: EngineContext,
    deadline: number,
    attempt: ProxyAttempt,
    profileState?: ProfileState,
  ): Promise<RenderResult> {
    for (let tries = 1; ; tries += 1) {
      try {
        // One span per attempt in Chromium (waiting for a pool page included), under the `fetch browser` span.
        // Zero data retention (lockdown included): neither the URL nor error messages quoting it are recorded.
        const sensitive = request.zeroDataRetention;
        const attributes = {
          ...(sensitive ? {} : { 'url.full': request.url }),
          'quarry.browser.try': tries,
          'quarry.proxy.tier': attempt.tier,
        };
        return await withSpan('browser render', { attributes, sensitive }, (span) =>
          pool.run(context.signal, async (slot) => {
            const rendered = await renderPage(slot, {
              request,
              signal: context.signal,
              deadline,
              route: { verifyTls: !request.skipTlsVerification, upstream: attempt.url },
              userAgent: this.deps.settings.userAgent ?? desktopUserAgent(pool.userAgent),
              settleMs: this.deps.settings.settleMs,
              maxDocumentBytes: this.deps.settings.maxDocumentBytes,
              pageLimits: this.deps.settings.pageLimits,
              profile: profileState
                ? { state: profileState, save: request.profile?.saveChanges ?? false }
                : undefined,
              store: (kind, data, contentType, extension) =>
                this.storeArtifact(request, context, kind, data, contentType, extension),
            });
            span.setAttribute('http.response.status_code', rendered.page.status);
            return rendered;
          }),
        );
      } catch (error) {
        const crashed = CRASH.test(messageOf(error));
        if (
          !crashed ||
          tries >= 2 ||
          isTimeout(error, context, deadline) ||
          deadline - Date.now() < MIN_RETRY_MS
        )
          throw error;
        this.deps.logger?.warn(
          { jobId: context.jobId, err: loggable(request, error) },
          'browser failed during the job; retrying once on a fresh context',
        );
      }
    }
  }

  private countRefusals(result: RenderResult): void {
    const metrics = this.deps.metrics;
    if (!metrics) return;
    for (const refusal of result.refused) metrics.browserRequestsRefused.inc({ reason: refusal.reason });
    for (const event of result.guardEvents)
      if (event.kind === 'blocked' || event.kind === 'dns')
        metrics.browserRequestsRefused.inc({ reason: event.kind === 'dns' ? 'dns' : 'private-address' });
    if (result.adsBlocked) metrics.browserRequestsRefused.inc({ reason: 'ad' }, result.adsBlocked);
  }

  /** Waits for one of the team's browser slots (2/3 of the remaining time at most, docs/scraping.md#team-concurrency). */
  private async teamSlot(context: EngineContext, deadline: number): Promise<Slot | undefined> {
    if (!this.deps.limiter || !context.teamId) return undefined;
    const limit = await this.deps.limiter.limitFor(context.teamId, this.deps.settings.teamConcurrency);
    const remaining = Math.max(0, deadline - Date.now());
    return this.deps.limiter.acquire({
      teamId: context.teamId,
      jobId: context.jobId,
      limit,
      maxWaitMs: Math.floor((remaining * 2) / 3),
      leaseMs: remaining + 5_000,
      signal: context.signal,
    });
  }

  private async openProfile(
    request: ScrapeRequest,
    context: EngineContext,
    deadline: number,
  ): Promise<{ state: ProfileState } | undefined> {
    if (!request.profile || !this.deps.profiles || !context.teamId) return undefined;
    if (request.profile.saveChanges) {
      await this.deps.profiles.acquireSaveLock(
        context.teamId,
        request.profile.name,
        context.jobId,
        new Date(deadline + 30_000),
      );
    }
    return { state: await this.deps.profiles.load(context.teamId, request.profile.name) };
  }

  /** Screenshots and PDFs: a signed gateway URL valid 24 h, or inline under zero data retention (nothing stored). */
  private async storeArtifact(
    request: ScrapeRequest,
    context: EngineContext,
    kind: ArtifactKind,
    data: Buffer,
    contentType: string,
    extension: string,
  ): Promise<string> {
    if (request.zeroDataRetention || !this.deps.blobs)
      return `data:${contentType};base64,${data.toString('base64')}`;
    const stored = await this.deps.blobs.put(
      `${kind}s/${context.jobId}`,
      data,
      contentType,
      LIMITS.screenshotLifetimeMs,
      extension,
    );
    return stored.url;
  }
}

/** Engine errors often quote the URL: under zero data retention (and lockdown) only their type is logged. */
function loggable(request: ScrapeRequest, error: unknown): unknown {
  if (!request.zeroDataRetention && !request.lockdown) return error;
  return { type: error instanceof Error ? error.name : typeof error };
}

function proxyUsed(attempt: ProxyAttempt): 'basic' | 'stealth' {
  return attempt.tier === 'enhanced' ? 'stealth' : 'basic';
}

function withMetadata(page: FetchedPage, metadata: FetchedPage['metadata']): FetchedPage {
  return { ...page, metadata: { ...page.metadata, ...metadata } };
}

function withWarnings(page: FetchedPage, warnings: string[]): FetchedPage {
  if (warnings.length === 0) return page;
  return { ...page, warnings: [...(page.warnings ?? []), ...warnings] };
}

function isTimeout(error: unknown, context: EngineContext, deadline: number): boolean {
  return context.signal.aborted || Date.now() >= deadline || error instanceof RenderTimeoutError;
}

/** A proxy of the pool refused to tunnel (undici reports it as an AbortError, which would read as a timeout). */
export class ProxyRefusedError extends Error {
  readonly code = 'PROXY_REFUSED';
  constructor(detail: string) {
    super(`The proxy refused the connection: ${detail}`);
    this.name = 'ProxyRefusedError';
  }
}

function proxyFailure(error: unknown): unknown {
  const message = error instanceof Error ? error.message : '';
  return /Proxy response \(\d+\)/.test(message) ? new ProxyRefusedError(message) : error;
}

/** A failure another route might not have (connection trouble, proxy refusal), as opposed to a refused target or a timeout. */
function retryable(error: unknown, context: EngineContext, deadline: number): boolean {
  if (
    error instanceof AppError ||
    error instanceof BlockedAddressError ||
    error instanceof DnsResolutionError
  )
    return false;
  if (isTimeout(error, context, deadline)) return false;
  return deadline - Date.now() > MIN_RETRY_MS;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
