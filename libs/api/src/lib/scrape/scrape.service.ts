import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CreditsService, minimumCredits } from '@quarry/billing';
import { AppError, type JobEvent, type ScrapeDocument, type ScrapeJobMessage, type ScrapeRequest } from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { DocumentRepository, JobRepository, JobWaiter, JobOutcomeStore } from '@quarry/jobs';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { PlatformMetrics } from '@quarry/platform/observability';

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
    @Inject(JobWaiter) private readonly waiter: JobWaiter,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async scrape(auth: AuthContext, input: ScrapeRequest): Promise<{ success: true; data: ScrapeDocument }> {
    const request: ScrapeRequest = auth.zeroDataRetention ? { ...input, zeroDataRetention: true, storeInCache: false } : input;
    await this.credits.ensureAvailable(auth.teamId, minimumCredits());
    const jobId = randomUUID();
    const now = Date.now();
    const deadline = now + request.timeout;
    await this.jobs.create({
      id: jobId,
      teamId: auth.teamId,
      apiKeyId: auth.apiKeyId,
      kind: 'scrape',
      input: request,
      zeroDataRetention: request.zeroDataRetention,
      expiresAt: new Date(now + this.config.jobs.retentionHours * 3_600_000),
    });
    const message: ScrapeJobMessage = { jobId, teamId: auth.teamId, request, deadline, enqueuedAt: now };
    const completion = this.waiter.wait(jobId, request.timeout + DEADLINE_GRACE_MS);
    await this.bus.publish('scrapeJobs', message, { key: jobId });
    this.metrics.jobsQueued.inc({ kind: 'scrape' });
    const event = await completion;
    if (!event) {
      await this.outcomes.fail(jobId, { code: 'SCRAPE_TIMEOUT', message: 'Request Timeout' });
      throw new AppError('SCRAPE_TIMEOUT');
    }
    return { success: true, data: await this.resultOf(event) };
  }

  /** `GET /v2/scrape/:jobId`: a past scrape of the team. */
  async get(auth: AuthContext, jobId: string): Promise<{ success: true; data: ScrapeDocument }> {
    const job = await this.jobs.findForTeam(jobId, auth.teamId, 'scrape');
    if (!job) throw new AppError('JOB_NOT_FOUND', { message: 'Job not found.' });
    if (job.zeroDataRetention) throw new AppError('SCRAPE_ZDR_VIOLATION_ERROR', { message: 'Scrapes with zero data retention cannot be retrieved' });
    if (job.status === 'failed') throw new AppError(job.error?.code ?? 'UNKNOWN_ERROR', { message: job.error?.message });
    const stored = await this.documents.findByJob(jobId);
    if (!stored) throw new AppError('JOB_NOT_FOUND', { message: 'Job not found.' });
    return { success: true, data: stored.document };
  }

  private async resultOf(event: JobEvent): Promise<ScrapeDocument> {
    if (event.status !== 'completed') {
      throw new AppError(event.error?.code ?? 'UNKNOWN_ERROR', { message: event.error?.message, details: event.error?.details });
    }
    if (event.inlineResult) return event.inlineResult;
    const stored = await this.documents.findByJob(event.jobId);
    if (!stored) throw new AppError('UNKNOWN_ERROR', { message: 'The scrape finished but its result is not available' });
    return stored.document;
  }
}
