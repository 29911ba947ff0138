import type { Logger } from 'pino';

import { type JobError, type MetricJobKind, quarantineError } from '@quarry/contracts';
import type { PlatformMetrics } from '@quarry/platform/observability';

import type { JobRecord, JobRepository } from './job.repository';
import type { JobOutcomeStore } from './job-outcome.store';
import type { SuspectGate } from './suspect-gate';

/** The outcome of work whose result the database refused (isDataError): failed, not redelivered. */
export const UNSTORABLE_RESULT: JobError = {
  code: 'SCRAPE_SITE_ERROR',
  message: 'The result could not be stored (the database refused one of its values); it was not retried',
};

/** A job whose earlier run ended with its process dying (not given back): it runs alone (SuspectGate). */
export function isSuspect(job: Pick<JobRecord, 'status' | 'attempts'>): boolean {
  return job.status === 'active' && job.attempts > 0;
}

/** `run`: this delivery runs the job. `finished`: it has an outcome already. `quarantined`: poison, failed now with `error`. */
export type JobClaim =
  { outcome: 'run' } | { outcome: 'finished' } | { outcome: 'quarantined'; error: JobError };

/**
 * The one claim rule of bus-delivered jobs (scrape, parse, interact): a job runs at most
 * `maxAttempts` times without recording an outcome. A job whose earlier runs all ended with their
 * process dying (a crash, an OOM kill, kill -9) is poison: it is failed with a recorded reason,
 * counted, and never run again — however often the bus or a restart delivers it.
 */
export class JobClaims {
  constructor(
    private readonly jobs: JobRepository,
    private readonly outcomes: JobOutcomeStore,
    private readonly metrics: PlatformMetrics,
    private readonly logger: Logger,
    private readonly maxAttempts: number,
    /** The process's one gate: suspects of a process death run alone. */
    readonly gate: SuspectGate,
  ) {}

  async claim(jobId: string, kind: MetricJobKind): Promise<JobClaim> {
    const started = await this.jobs.start(jobId, this.maxAttempts);
    if (started === 'started') return { outcome: 'run' };
    if (started === 'finished') return { outcome: 'finished' };
    const error = quarantineError(this.maxAttempts);
    if (await this.outcomes.fail(jobId, error)) {
      this.metrics.workQuarantined.inc({ kind });
      this.metrics.jobsFinished.inc({ kind, outcome: 'failed' });
      this.logger.error({ jobId, kind, attempts: this.maxAttempts }, 'poison job quarantined');
      return { outcome: 'quarantined', error };
    }
    return { outcome: 'finished' };
  }

  /** A run that ended for the platform's own reasons (database, bus): redelivered, not counted. */
  async release(jobId: string): Promise<void> {
    await this.jobs
      .release(jobId)
      .catch((error: unknown) =>
        this.logger.warn({ err: error, jobId }, 'could not release a job for redelivery'),
      );
  }
}
