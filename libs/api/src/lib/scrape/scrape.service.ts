import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';

import { CreditsService, documentBilling, minimumCredits, PRICES, scrapeCredits } from '@quarry/billing';
import {
  AppError,
  type JobEvent,
  LIMITS,
  type ScrapeDocument,
  type ScrapeJobMessage,
  type ScrapeRequest,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import {
  DocumentRepository,
  isTerminal,
  JobDispatcher,
  JobOutcomeStore,
  JobRepository,
  type NewJob,
} from '@quarry/jobs';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { PlatformMetrics } from '@quarry/platform/observability';
import { type CacheHit, isCacheReadable, ScrapeCache } from '@quarry/scrape/cache';
import { ChangeSnapshotRepository, ProfileRepository } from '@quarry/scrape/state';

import { applyCachedAnswer, type CachedAnswer, isCachedAnswer } from './cached-answer';
import { cacheLookupRequest, trackCachedChanges } from './cached-change-tracking';

/** Extra time the gateway waits past the job deadline for the worker's own timeout report. */
const DEADLINE_GRACE_MS = 3_000;

/**
 * Synchronous scrape over the bus (DESIGN "Data flow"): the request becomes a job, a worker
 * executes it, and the completion event wakes this request, which reads the stored document.
 */
@Injectable()
export class ScrapeService {
  constructor(
    @Inject(CreditsService) private readonly credits: CreditsService,
    @Inject(JobRepository) private readonly jobs: JobRepository,
    @Inject(DocumentRepository) private readonly documents: DocumentRepository,
    @Inject(JobOutcomeStore) private readonly outcomes: JobOutcomeStore,
    @Inject(JobDispatcher) private readonly dispatcher: JobDispatcher,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ScrapeCache) private readonly cache: ScrapeCache,
    @Inject(ProfileRepository) private readonly profiles: ProfileRepository,
    @Inject(ChangeSnapshotRepository) private readonly snapshots: ChangeSnapshotRepository,
  ) {}

  /** `POST /v2/scrape`; the response also carries `scrape_id` when `origin` contains "website" (docs/scraping.md#response-document). */
  async scrape(
    auth: AuthContext,
    input: ScrapeRequest,
  ): Promise<{ success: true; data: ScrapeDocument; scrape_id?: string }> {
    const response = await this.execute(auth, input);
    if (!input.origin.includes('website')) return response;
    return { ...response, scrape_id: response.data.metadata.scrapeId };
  }

  /**
   * Starts a scrape without waiting for it (search `asyncScraping`): the job id, read later with
   * `GET /v2/scrape/:jobId`. A cache hit is answered at once and its id returned the same way.
   */
  async start(auth: AuthContext, input: ScrapeRequest): Promise<string> {
    const admitted = await this.admit(auth, input);
    if ('cached' in admitted) return admitted.cached.metadata.scrapeId ?? '';
    const jobId = randomUUID();
    const saving = admitted.request.profile?.saveChanges ? admitted.request.profile.name : undefined;
    try {
      await this.dispatch(auth, admitted.request, jobId);
    } catch (error) {
      if (saving) await this.profiles.release(auth.teamId, saving, jobId).catch(() => undefined);
      throw error;
    }
    return jobId;
  }

  private async execute(
    auth: AuthContext,
    input: ScrapeRequest,
  ): Promise<{ success: true; data: ScrapeDocument }> {
    const admitted = await this.admit(auth, input);
    if ('cached' in admitted) return { success: true, data: admitted.cached };
    const { request } = admitted;
    const saving = request.profile?.saveChanges ? request.profile.name : undefined;
    const jobId = randomUUID();
    try {
      const event = await this.dispatch(auth, request, jobId, request.timeout + DEADLINE_GRACE_MS);
      if (!event) {
        if (await this.continuesInBackground(jobId, request, saving)) {
          // The SDK's auto-resume repeats the request after retryAfterSeconds; the finished job's document is then a cache hit.
          const retryAfterSeconds = Math.max(5, Math.ceil(request.timeout / 1000));
          throw new AppError('SCRAPE_TIMEOUT', {
            details: { state: 'processing_continues', retryAfterSeconds },
            retryAfterSeconds,
          });
        }
        throw await this.dispatcher.timedOut(jobId);
      }
      return { success: true, data: await this.dispatcher.documentOf(event) };
    } finally {
      // The job has ended: a worker that saved already released the lock; one that never opened the
      // profile (HTTP only, no browser slot, failed early) or timed out must not keep it until its lease runs out.
      if (saving) await this.profiles.release(auth.teamId, saving, jobId).catch(() => undefined);
    }
  }

  /**
   * Whether a scrape whose caller stopped waiting goes on (408 `processing_continues`): only a job no
   * worker has started yet (it waited in the queue), whose result the same request can read back
   * from the cache — not under zero data retention, nor when it saves a browser profile.
   */
  private async continuesInBackground(
    jobId: string,
    request: ScrapeRequest,
    savingProfile?: string,
  ): Promise<boolean> {
    if (savingProfile || request.zeroDataRetention || !request.storeInCache || !isCacheReadable(request))
      return false;
    return this.jobs.continueAfterTimeout(jobId);
  }

  /**
   * The checks every scrape passes before a worker is involved: zero-data-retention rules and the
   * cache (a hit is answered here, never reaching the bus). Credits are not read here: a hit's
   * charge is checked against the team's available credits when its job is recorded, and a scrape
   * for the workers holds its price when its job is recorded (402 when either is short).
   */
  private async admit(
    auth: AuthContext,
    input: ScrapeRequest,
  ): Promise<{ request: ScrapeRequest } | { cached: ScrapeDocument }> {
    const request: ScrapeRequest = auth.zeroDataRetention
      ? { ...input, zeroDataRetention: true, storeInCache: false }
      : input;
    // Refused before the cache or a worker is involved (a cached answer must not hide the violation).
    if (request.zeroDataRetention || request.lockdown) {
      if (request.profile?.saveChanges) {
        throw new AppError('SCRAPE_ZDR_VIOLATION_ERROR', {
          message:
            'Saving a browser profile stores data and is unavailable with zero data retention; use profile.saveChanges false',
        });
      }
      if (request.onlyCleanContent) {
        throw new AppError('SCRAPE_ZDR_VIOLATION_ERROR', {
          message: 'onlyCleanContent is not supported with zero data retention',
        });
      }
    }
    if (!isCacheReadable(request)) return { request };
    // Cache and index (docs/scraping.md#cache-and-index): answered here, so a hit never reaches the bus or a worker.
    const lookup = cacheLookupRequest(request);
    const hit = await this.cache.lookup(auth.teamId, lookup);
    if (hit) {
      const cached = await this.answerFromCache(auth, request, hit);
      if (cached) return { cached };
      // The entry was deleted since it was read: the database decides again.
      const fresh = await this.cache.lookup(auth.teamId, lookup, { fresh: true });
      const again = fresh && (await this.answerFromCache(auth, request, fresh));
      if (again) return { cached: again };
    }
    this.metrics.cacheLookups.inc({ result: 'miss' });
    if (request.lockdown) {
      await this.chargeLockdownMiss(auth);
      throw new AppError('SCRAPE_LOCKDOWN_CACHE_MISS');
    }
    if (request.minAge !== undefined) {
      // A team without credits is told so before being told there is nothing cached.
      await this.credits.ensureAvailable(auth.teamId, minimumCredits());
      throw new AppError('SCRAPE_NO_CACHED_DATA');
    }
    return { request };
  }

  /**
   * Hands the scrape to the workers through the job dispatcher (record → publish, and with `waitMs`
   * wait for its event). A saving profile is locked first: a second saver is told now (409), not
   * after queueing. A failed publish has closed the job (503).
   */
  private async dispatch(
    auth: AuthContext,
    request: ScrapeRequest,
    jobId: string,
    waitMs?: number,
  ): Promise<JobEvent | undefined> {
    const now = Date.now();
    const deadline = now + request.timeout;
    const saving = request.profile?.saveChanges ? request.profile.name : undefined;
    if (saving) await this.profiles.acquireSaveLock(auth.teamId, saving, jobId, new Date(deadline + 30_000));
    const message: ScrapeJobMessage = { jobId, teamId: auth.teamId, request, deadline, enqueuedAt: now };
    const dispatch = {
      // The price known before the fetch is held from the team's available credits with the job (402 when short).
      job: { ...this.newScrapeJob(auth, jobId, request), holdCredits: scrapeCredits(chargeOptions(request)) },
      topic: 'scrapeJobs' as const,
      message,
      deadline,
    };
    if (waitMs === undefined) {
      await this.dispatcher.enqueue(dispatch);
      return undefined;
    }
    return this.dispatcher.run(dispatch, waitMs);
  }

  /** `GET /v2/scrape/:jobId`: a past scrape of the team. */
  async get(auth: AuthContext, jobId: string): Promise<{ success: true; data: ScrapeDocument }> {
    let job = await this.jobs.findForTeam(jobId, auth.teamId, 'scrape');
    if (!job) throw new AppError('JOB_NOT_FOUND', { message: 'Job not found.' });
    if (!isTerminal(job.status) && !job.zeroDataRetention) {
      // Started without waiting (search `asyncScraping`): this read waits for the job, at most until
      // its own deadline (the worker reports a timeout by then), then answers as for a finished one.
      const timeout = (job.input as Partial<ScrapeRequest> | null)?.timeout ?? LIMITS.timeoutMs.default;
      const remaining = job.createdAt.getTime() + timeout + DEADLINE_GRACE_MS - Date.now();
      if (remaining > 0) await this.dispatcher.wait(jobId, remaining);
      job = (await this.jobs.findForTeam(jobId, auth.teamId, 'scrape')) ?? job;
      if (!isTerminal(job.status)) throw new AppError('SCRAPE_TIMEOUT');
    }
    if (job.zeroDataRetention)
      throw new AppError('SCRAPE_ZDR_VIOLATION_ERROR', {
        message: 'Scrapes with zero data retention cannot be retrieved',
      });
    if (job.status === 'failed')
      throw new AppError(job.error?.code ?? 'UNKNOWN_ERROR', { message: job.error?.message });
    if (isCachedAnswer(job.result)) {
      const cached = await this.documents.findForTeam(job.result.cachedDocumentId, auth.teamId);
      if (!cached) throw new AppError('JOB_NOT_FOUND', { message: 'Job not found.' });
      return { success: true, data: applyCachedAnswer(cached.document, job.result.overlay) };
    }
    const stored = await this.documents.findByJob(jobId);
    if (!stored) throw new AppError('JOB_NOT_FOUND', { message: 'Job not found.' });
    return { success: true, data: stored.document };
  }

  /**
   * A cache hit: billed like a scrape (lockdown: 5 credits) and recorded as a finished job that refers
   * to the cached document (no second copy of the page), served from the stored document. Undefined
   * when the document was deleted meanwhile (nothing recorded or charged); 402 when the team's
   * available credits do not cover the charge.
   */
  private async answerFromCache(
    auth: AuthContext,
    request: ScrapeRequest,
    hit: CacheHit,
  ): Promise<ScrapeDocument | undefined> {
    const jobId = randomUUID();
    const credits = scrapeCredits({
      ...chargeOptions(request),
      cacheHit: true,
      ...documentBilling(hit.document),
    });
    const answer: CachedAnswer = {
      cachedDocumentId: hit.documentId,
      overlay: {
        metadata: {
          sourceURL: request.url,
          scrapeId: jobId,
          cacheState: 'hit',
          cachedAt: hit.cachedAt.toISOString(),
          creditsUsed: credits,
          concurrencyLimited: false,
        },
      },
    };
    const tracked = await trackCachedChanges(
      this.snapshots,
      auth.teamId,
      request,
      hit.document.markdown ?? '',
    );
    if (tracked) {
      answer.overlay.changeTracking = tracked.changeTracking;
      if (tracked.warning)
        answer.overlay.warning = [hit.document.warning, tracked.warning].filter(Boolean).join(' ');
    }
    // Under zero data retention the row keeps no input and no reference (GET /v2/scrape/:id refuses such jobs).
    const recorded = await this.outcomes.recordFinished(this.newScrapeJob(auth, jobId, request), {
      credits,
      result: request.zeroDataRetention ? undefined : answer,
      documentId: hit.documentId,
    });
    if (recorded === 'gone') return undefined;
    this.metrics.cacheLookups.inc({ result: 'hit' });
    this.metrics.creditsConsumed.inc({ kind: 'scrape' }, credits);
    return applyCachedAnswer(hit.document, answer.overlay);
  }

  /** Lockdown misses cost 1 credit (docs/scraping.md#cache-and-index); the job keeps no input and the URL is not logged. */
  private async chargeLockdownMiss(auth: AuthContext): Promise<void> {
    const jobId = randomUUID();
    await this.outcomes.recordFinished(
      { id: jobId, teamId: auth.teamId, apiKeyId: auth.apiKeyId, kind: 'scrape', zeroDataRetention: true },
      {
        credits: PRICES.lockdownMiss,
        error: {
          code: 'SCRAPE_LOCKDOWN_CACHE_MISS',
          message: 'No cached copy is available in lockdown mode',
        },
        description: 'scrape (lockdown cache miss)',
      },
    );
    this.metrics.creditsConsumed.inc({ kind: 'scrape' }, PRICES.lockdownMiss);
  }

  private newScrapeJob(auth: AuthContext, jobId: string, request: ScrapeRequest): NewJob {
    return {
      id: jobId,
      teamId: auth.teamId,
      apiKeyId: auth.apiKeyId,
      kind: 'scrape',
      input: request,
      zeroDataRetention: request.zeroDataRetention,
      expiresAt: new Date(Date.now() + this.config.jobs.retentionHours * 3_600_000),
    };
  }
}

/** The request's options that set a scrape's price. */
function chargeOptions(request: ScrapeRequest) {
  return {
    formats: request.formats,
    zeroDataRetention: request.zeroDataRetention,
    redactPII: request.redactPII,
    lockdown: request.lockdown,
    checkPromptInjection: request.checkPromptInjection,
  };
}
