import { scrapeCredits } from '@quarry/billing';
import { AppError, jobErrorOf, urlKey, type JobError, type ScrapeJobMessage } from '@quarry/contracts';
import {
  continuesAfterTimeout,
  isSuspect,
  isTerminal,
  publishJobEvent,
  UNSTORABLE_RESULT,
  type JobClaims,
  type JobOutcomeStore,
  type JobRecord,
  type JobRepository,
} from '@quarry/jobs';
import { isDataError } from '@quarry/platform/database';
import type { MessageBus } from '@quarry/platform/bus';
import type { PlatformMetrics } from '@quarry/platform/observability';
import { isCacheWritable, scrapeCacheKey } from '@quarry/scrape/cache';
import type { ScrapePipeline } from '@quarry/scrape/engine';
import type { Logger } from 'pino';

export interface ScrapeJobHandlerDeps {
  pipeline: ScrapePipeline;
  jobs: JobRepository;
  outcomes: JobOutcomeStore;
  bus: MessageBus;
  metrics: PlatformMetrics;
  logger: Logger;
  claims: JobClaims;
}

/**
 * Executes one scrape job from the bus: fetch, build the document, then store the outcome, the
 * document and the charge in one transaction before announcing completion. Idempotent by job id:
 * a redelivered job that already has an outcome only re-announces it.
 */
export class ScrapeJobHandler {
  constructor(private readonly deps: ScrapeJobHandlerDeps) {}

  async handle(message: ScrapeJobMessage): Promise<void> {
    const { jobs, logger } = this.deps;
    const job = await jobs.find(message.jobId);
    if (!job) {
      logger.warn({ jobId: message.jobId }, 'scrape job has no job row; skipped');
      return;
    }
    if (isTerminal(job.status)) {
      await this.announce(message, job.status, job.error);
      return;
    }
    await this.deps.claims.gate.run(isSuspect(job), () => this.execute(message, job));
  }

  private async execute(message: ScrapeJobMessage, job: JobRecord): Promise<void> {
    const { outcomes, metrics } = this.deps;
    // A job whose caller was told it continues (it waited in the queue past its deadline) gets its
    // whole timeout now; its result reaches the caller through the cache when the request is repeated.
    const budgetMs = continuesAfterTimeout(job)
      ? message.request.timeout
      : Math.min(message.request.timeout, message.deadline - Date.now());
    if (budgetMs <= 0) {
      await this.fail(message, { code: 'SCRAPE_TIMEOUT', message: 'Request Timeout' });
      return;
    }
    const claim = await this.deps.claims.claim(message.jobId, 'scrape');
    if (claim.outcome === 'finished') return this.announceStored(message);
    if (claim.outcome === 'quarantined') return this.announce(message, 'failed', claim.error);
    const startedAt = Date.now();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), budgetMs);
    metrics.jobsRunning.inc({ kind: 'scrape' });
    try {
      const outcome = await this.deps.pipeline.run(message.request, {
        jobId: message.jobId,
        teamId: message.teamId,
        signal: controller.signal,
        timeoutMs: budgetMs,
        deadline: startedAt + budgetMs,
      });
      const request = message.request;
      const credits = outcome.fetched
        ? scrapeCredits({
            formats: request.formats,
            zeroDataRetention: request.zeroDataRetention,
            redactPII: request.redactPII,
            lockdown: request.lockdown,
            checkPromptInjection: request.checkPromptInjection,
            ...outcome.billing,
          })
        : 0;
      const document = outcome.document;
      document.metadata.creditsUsed = credits;
      const stored = await outcomes.complete({
        jobId: message.jobId,
        teamId: message.teamId,
        kind: 'scrape',
        // Work of a parent job (agent run) is billed by the parent, once it succeeds.
        credits: message.parentJobId ? 0 : credits,
        documents: request.zeroDataRetention
          ? []
          : [
              {
                sourceUrl: request.url,
                url: document.metadata.url,
                urlKey: urlKey(document.metadata.url),
                cacheKey: isCacheWritable(request, document.metadata.statusCode)
                  ? scrapeCacheKey(request)
                  : undefined,
                statusCode: document.metadata.statusCode,
                document,
              },
            ],
      });
      metrics.jobDuration.observe(
        { kind: 'scrape', engine: outcome.engine },
        (Date.now() - startedAt) / 1000,
      );
      if (stored) {
        metrics.jobsFinished.inc({ kind: 'scrape', outcome: 'completed' });
        if (!message.parentJobId) metrics.creditsConsumed.inc({ kind: 'scrape' }, credits);
      }
      await publishJobEvent(this.deps.bus, {
        jobId: message.jobId,
        teamId: message.teamId,
        kind: 'scrape',
        status: 'completed',
        inlineResult: request.zeroDataRetention && stored ? document : undefined,
        at: Date.now(),
      });
    } catch (error) {
      if (isDataError(error)) {
        // The database refused the result (a value it cannot hold): retrying cannot help.
        this.deps.logger.error({ err: error, jobId: message.jobId }, 'scrape result could not be stored');
        await this.fail(message, UNSTORABLE_RESULT);
        return;
      }
      if (!(error instanceof AppError)) {
        // Infrastructure failure: the bus redelivers, and this start does not count as an attempt.
        await this.deps.claims.release(message.jobId);
        throw error;
      }
      await this.fail(message, jobErrorOf(error));
    } finally {
      clearTimeout(timer);
      metrics.jobsRunning.dec({ kind: 'scrape' });
    }
  }

  /** The job got its outcome elsewhere meanwhile (a parallel redelivery): announce what is stored. */
  private async announceStored(message: ScrapeJobMessage): Promise<void> {
    const job = await this.deps.jobs.find(message.jobId);
    if (job && isTerminal(job.status)) await this.announce(message, job.status, job.error);
  }

  private async fail(message: ScrapeJobMessage, error: JobError): Promise<void> {
    if (await this.deps.outcomes.fail(message.jobId, error))
      this.deps.metrics.jobsFinished.inc({ kind: 'scrape', outcome: 'failed' });
    await this.announce(message, 'failed', error);
  }

  private async announce(
    message: ScrapeJobMessage,
    status: 'completed' | 'failed' | 'cancelled' | 'queued' | 'active',
    error?: JobError,
  ) {
    await publishJobEvent(this.deps.bus, {
      jobId: message.jobId,
      teamId: message.teamId,
      kind: 'scrape',
      status,
      error,
      at: Date.now(),
    });
  }
}
