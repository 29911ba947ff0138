import type { Logger } from 'pino';

import { scrapeCredits } from '@quarry/billing';
import { type ScrapeDocument, type ScrapeJobMessage, urlKey } from '@quarry/contracts';
import {
  continuesAfterTimeout,
  type JobClaims,
  type JobOutcomeStore,
  type JobRecord,
  type JobRepository,
  WorkerJob,
} from '@quarry/jobs';
import type { MessageBus } from '@quarry/platform/bus';
import { storableJson } from '@quarry/platform/database';
import type { PlatformMetrics } from '@quarry/platform/observability';
import { isCacheWritable, scrapeCacheKey } from '@quarry/scrape/cache';
import type { ScrapePipeline } from '@quarry/scrape/engine';

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
 * a redelivered job that already has an outcome only re-announces it (the life of the job — admit,
 * claim, complete, fail — is the shared WorkerJob). A first delivery is admitted and claimed in one
 * statement (WorkerJob.runFresh); every other delivery takes admit → claim.
 */
export class ScrapeJobHandler {
  private readonly job: WorkerJob;

  constructor(private readonly deps: ScrapeJobHandlerDeps) {
    this.job = new WorkerJob(deps, 'scrape');
  }

  async handle(message: ScrapeJobMessage): Promise<void> {
    if (await this.job.runFresh(message, (job) => this.execute(message, job, true))) return;
    const job = await this.job.admit(message);
    if (job) await this.job.guarded(job, () => this.execute(message, job, false));
  }

  /** `claimed`: the job was started for this delivery already (WorkerJob.runFresh). */
  private async execute(message: ScrapeJobMessage, job: JobRecord, claimed: boolean): Promise<void> {
    const { metrics } = this.deps;
    // A job whose caller was told it continues (it waited in the queue past its deadline) gets its
    // whole timeout now; its result reaches the caller through the cache when the request is repeated.
    const budgetMs = continuesAfterTimeout(job)
      ? message.request.timeout
      : Math.min(message.request.timeout, message.deadline - Date.now());
    if (budgetMs <= 0) {
      await this.job.fail(message, { code: 'SCRAPE_TIMEOUT', message: 'Request Timeout' });
      return;
    }
    if (!claimed && !(await this.job.claim(message))) return;
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
      await this.job.complete(message, {
        // Work of a parent job (agent run) is billed by the parent, once it succeeds.
        credits: message.parentJobId ? 0 : credits,
        countCredits: !message.parentJobId,
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
        inlineResult: request.zeroDataRetention ? document : inlineCopy(document),
        engine: outcome.engine,
        startedAt,
      });
    } catch (error) {
      await this.job.failed(message, error);
    } finally {
      clearTimeout(timer);
      metrics.jobsRunning.dec({ kind: 'scrape' });
    }
  }
}

/**
 * Results up to this size (JSON) travel in the completion event as well as being stored, so the
 * waiting request answers without reading back what was just written (the last database round trip
 * of a synchronous scrape); larger ones are read from the database. Small enough for every bus.
 */
export const INLINE_RESULT_MAX_BYTES = 64 * 1024;

/** The document as stored (storableJson), when it is small enough to travel in the event. */
function inlineCopy(document: ScrapeDocument): ScrapeDocument | undefined {
  const rough =
    (document.markdown?.length ?? 0) + (document.html?.length ?? 0) + (document.rawHtml?.length ?? 0);
  if (rough > INLINE_RESULT_MAX_BYTES) return undefined;
  const stored = storableJson(document);
  return JSON.stringify(stored).length <= INLINE_RESULT_MAX_BYTES ? stored : undefined;
}
