import { AppError, type JobError, jobErrorOf, type JobKind, type ScrapeDocument } from '@quarry/contracts';
import type { MessageBus } from '@quarry/platform/bus';
import { isDataError } from '@quarry/platform/database';
import type { Logger, PlatformMetrics } from '@quarry/platform/observability';

import { isTerminal, type JobRecord, type JobRepository } from './job.repository';
import { isSuspect, type JobClaims, UNSTORABLE_RESULT } from './job-claims';
import { publishJobEvent } from './job-events';
import type { CompletedOutcome, JobOutcomeStore } from './job-outcome.store';

export interface WorkerJobDeps {
  jobs: JobRepository;
  outcomes: JobOutcomeStore;
  claims: JobClaims;
  bus: MessageBus;
  metrics: PlatformMetrics;
  logger: Logger;
}

/** The job a bus message carries. */
export interface WorkerJobRef {
  jobId: string;
  teamId: string;
}

type AnnouncedStatus = 'completed' | 'failed' | 'cancelled' | 'queued' | 'active';

export interface WorkerJobCompletion {
  /** Credits written to the ledger with the outcome (0 for work a parent job bills). */
  credits: number;
  /** False for work a parent job bills: the parent counts the credits once it succeeds. */
  countCredits?: boolean;
  documents?: CompletedOutcome['documents'];
  /** Small structured result kept on the job row (an interact call's answer). */
  result?: unknown;
  /** The key that made the call, for per-key usage. */
  apiKeyId?: string;
  /**
   * The document sent with the completion event: always under zero data retention (nothing is stored
   * to read), otherwise when it is small (the waiting request then needs no read of what was stored).
   */
  inlineResult?: ScrapeDocument;
  /** The `engine` label of the duration metric. */
  engine: string;
  startedAt: number;
}

/**
 * The life of one job a worker runs from the bus (a scrape, a parsed upload, an interact call), the same for every
 * kind: a job without a row is skipped and a finished one re-announced; suspects of a process death
 * go through the process's gate; the run is claimed (a job finished elsewhere or quarantined is only
 * announced); the outcome, its documents and its charge are stored in one transaction before the
 * completion event; a refused run (AppError) or an unstorable result is a stored failure, while an
 * infrastructure failure releases the claim and is thrown for the bus to redeliver.
 */
export class WorkerJob {
  constructor(
    private readonly deps: WorkerJobDeps,
    readonly kind: JobKind,
  ) {}

  /** The job to run, or undefined when there is none (skipped) or it already finished (re-announced). */
  async admit(ref: WorkerJobRef): Promise<JobRecord | undefined> {
    const job = await this.deps.jobs.find(ref.jobId);
    if (!job) {
      this.deps.logger.warn({ jobId: ref.jobId }, `${this.kind} job has no job row; skipped`);
      return undefined;
    }
    if (isTerminal(job.status)) {
      await this.announce(ref, job.status, job.error);
      return undefined;
    }
    return job;
  }

  /**
   * The usual first delivery in one round trip instead of two (admit's read, then the claim): a job
   * no delivery has started yet cannot be a suspect, so it is claimed for this process inside the
   * gate and `work` runs with the job as it was before the claim. False when the job is not fresh
   * (no row, finished, started before): the caller then takes admit → guarded → claim, which
   * decides those cases as before.
   */
  async runFresh(ref: WorkerJobRef, work: (job: JobRecord) => Promise<void>): Promise<boolean> {
    return this.deps.claims.gate.run(false, async () => {
      const job = await this.deps.jobs.startFresh(ref.jobId);
      if (!job) return false;
      await work(job);
      return true;
    });
  }

  /** Runs `work` through the process's gate: a suspect of an earlier process death runs alone. */
  guarded(job: JobRecord, work: () => Promise<void>): Promise<void> {
    return this.deps.claims.gate.run(isSuspect(job), work);
  }

  /** Claims the run for this process; false when it finished elsewhere or was quarantined (announced). */
  async claim(ref: WorkerJobRef): Promise<boolean> {
    const claim = await this.deps.claims.claim(ref.jobId, this.kind);
    if (claim.outcome === 'finished') {
      const job = await this.deps.jobs.find(ref.jobId);
      if (job && isTerminal(job.status)) await this.announce(ref, job.status, job.error);
      return false;
    }
    if (claim.outcome === 'quarantined') {
      await this.announce(ref, 'failed', claim.error);
      return false;
    }
    return true;
  }

  /** Stores the outcome with its documents and charge, counts it and announces the completion. */
  async complete(ref: WorkerJobRef, completion: WorkerJobCompletion): Promise<void> {
    const { outcomes, metrics } = this.deps;
    const { stored, charged } = await outcomes.completeCharged({
      jobId: ref.jobId,
      teamId: ref.teamId,
      kind: this.kind,
      apiKeyId: completion.apiKeyId,
      credits: completion.credits,
      result: completion.result,
      documents: completion.documents,
    });
    // What was charged (less than the price when the balance ran out), as the stored documents say.
    if (
      stored &&
      completion.inlineResult &&
      charged !== completion.credits &&
      completion.countCredits !== false
    )
      completion.inlineResult.metadata.creditsUsed = charged;
    metrics.jobDuration.observe(
      { kind: this.kind, engine: completion.engine },
      (Date.now() - completion.startedAt) / 1000,
    );
    if (stored) {
      metrics.jobsFinished.inc({ kind: this.kind, outcome: 'completed' });
      if (completion.countCredits !== false) metrics.creditsConsumed.inc({ kind: this.kind }, charged);
    }
    await publishJobEvent(this.deps.bus, {
      jobId: ref.jobId,
      teamId: ref.teamId,
      kind: this.kind,
      status: 'completed',
      inlineResult: stored ? completion.inlineResult : undefined,
      at: Date.now(),
    });
  }

  /**
   * What a run that threw becomes: a result the database refused and a refusal (AppError) are
   * stored failures; anything else is infrastructure — the claim is released (the run does not count
   * as an attempt) and the error thrown, so the bus redelivers.
   */
  async failed(ref: WorkerJobRef, error: unknown): Promise<void> {
    if (isDataError(error)) {
      // The database refused the result (a value it cannot hold): retrying cannot help.
      this.deps.logger.error({ err: error, jobId: ref.jobId }, `${this.kind} result could not be stored`);
      return this.fail(ref, UNSTORABLE_RESULT);
    }
    if (error instanceof AppError) return this.fail(ref, jobErrorOf(error));
    await this.deps.claims.release(ref.jobId);
    throw error;
  }

  /** Records the failure (counted once) and announces it. */
  async fail(ref: WorkerJobRef, error: JobError): Promise<void> {
    if (await this.deps.outcomes.fail(ref.jobId, error))
      this.deps.metrics.jobsFinished.inc({ kind: this.kind, outcome: 'failed' });
    await this.announce(ref, 'failed', error);
  }

  async announce(ref: WorkerJobRef, status: AnnouncedStatus, error?: JobError): Promise<void> {
    await publishJobEvent(this.deps.bus, {
      jobId: ref.jobId,
      teamId: ref.teamId,
      kind: this.kind,
      status,
      error,
      at: Date.now(),
    });
  }
}
