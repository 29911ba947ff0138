import {
  AppError,
  appErrorOf,
  type JobEvent,
  type ScrapeDocument,
  type TopicKey,
  type TopicPayload,
} from '@quarry/contracts';
import { type MessageBus, publishTimeoutFor } from '@quarry/platform/bus';
import type { PlatformMetrics } from '@quarry/platform/observability';

import type { DocumentRepository } from './document.repository';
import type { JobRepository, NewJob } from './job.repository';
import type { JobOutcomeStore } from './job-outcome.store';
import type { JobWaiter } from './job-waiter';

/** One unit of work for the workers: the job row recorded first, then the message that asks for it. */
export interface JobDispatch<K extends TopicKey = TopicKey> {
  job: NewJob;
  topic: K;
  /** The topic's payload (checked against its schema by the bus before it is sent). */
  message: TopicPayload<K>;
  /** Partition key; the job id when absent (interact calls use their session id). */
  key?: string;
  /**
   * When the job is due (epoch ms): the publish may wait for the broker until what is left of it
   * (publishTimeoutFor), so a broker failover is waited out rather than answered 503.
   */
  deadline?: number;
}

export interface JobDispatcherDeps {
  jobs: JobRepository;
  documents: DocumentRepository;
  outcomes: JobOutcomeStore;
  waiter: JobWaiter;
  bus: MessageBus;
  metrics: PlatformMetrics;
}

/** The error a job is closed with when its message could not be published (answered 503). */
const UNAVAILABLE = { code: 'SERVICE_UNAVAILABLE', message: 'Service Unavailable' } as const;
/** The error a job is closed with when its caller stopped waiting (answered 408). */
const TIMED_OUT = { code: 'SCRAPE_TIMEOUT', message: 'Request Timeout' } as const;

/**
 * The one job path of the platform (docs/architecture.md "Job dispatch"): record the job → register
 * the waiter → publish → wait → read the outcome once. Scrape, parse, interact and the agent's scrape
 * client all go through it, so they fail the same way:
 * - the broker does not take the message (BusUnavailableError) → the job is closed first (a late
 *   delivery is then skipped by the worker) and the error is rethrown: 503 in the spec's error shape;
 * - the caller's wait ends without an event → `timedOut` closes the job and gives the 408;
 * - a finished job's result is read once, from the event (zero data retention) or the database.
 */
export class JobDispatcher {
  constructor(private readonly deps: JobDispatcherDeps) {}

  /** Asynchronous: records the job and publishes it; the caller reads the outcome later. */
  async enqueue<K extends TopicKey>(dispatch: JobDispatch<K>): Promise<void> {
    await this.deps.jobs.create(dispatch.job);
    await this.publish(dispatch);
  }

  /**
   * Synchronous: records the job, registers the waiter before publishing (a fast worker's event is
   * not missed), publishes and waits up to `waitMs`. Undefined when the wait ended without an event.
   */
  async run<K extends TopicKey>(dispatch: JobDispatch<K>, waitMs: number): Promise<JobEvent | undefined> {
    // Not durable on its own: the caller waits for the outcome, whose durable commit makes the row durable too.
    await this.deps.jobs.create(dispatch.job, { durable: false });
    const stopWaiting = new AbortController();
    const completion = this.deps.waiter.wait(dispatch.job.id, waitMs, stopWaiting.signal);
    try {
      await this.publish(dispatch);
    } catch (error) {
      stopWaiting.abort();
      await completion;
      throw error;
    }
    return completion;
  }

  /**
   * Publishes the message of a recorded job (also to ask the workers again for one whose message may
   * have been lost). A failed publish closes the job before the error propagates.
   */
  async publish<K extends TopicKey>(dispatch: JobDispatch<K>): Promise<void> {
    const jobId = dispatch.job.id;
    try {
      await this.deps.bus.publish(dispatch.topic, dispatch.message, {
        key: dispatch.key ?? jobId,
        ...(dispatch.deadline !== undefined ? { timeoutMs: publishTimeoutFor(dispatch.deadline) } : {}),
      });
    } catch (error) {
      await this.deps.outcomes.fail(jobId, UNAVAILABLE).catch(() => undefined);
      throw error;
    }
    this.deps.metrics.jobsQueued.inc({ kind: dispatch.job.kind });
  }

  /** Waits for a job's terminal event (undefined after `timeoutMs`, or when `signal` aborts). */
  wait(jobId: string, timeoutMs: number, signal?: AbortSignal): Promise<JobEvent | undefined> {
    return this.deps.waiter.wait(jobId, timeoutMs, signal);
  }

  /** Closes a job whose caller stopped waiting (a late outcome is then skipped) and returns the 408 to answer. */
  async timedOut(jobId: string): Promise<AppError> {
    await this.deps.outcomes.fail(jobId, TIMED_OUT);
    return new AppError('SCRAPE_TIMEOUT');
  }

  /**
   * The document of a finished scrape or parse, read once: inline in the event (zero data retention)
   * or from the database. A failed job's error is thrown as the AppError it reported.
   */
  async documentOf(event: JobEvent): Promise<ScrapeDocument> {
    if (event.status !== 'completed') throw appErrorOf(event.error);
    if (event.inlineResult) return event.inlineResult;
    const stored = await this.deps.documents.findByJob(event.jobId);
    if (!stored)
      throw new AppError('UNKNOWN_ERROR', {
        message: `The ${event.kind} finished but its result is not available`,
      });
    return stored.document;
  }

  /** The stored result of a finished job without a document (interact calls); a failed job's error is thrown. */
  async resultOf<T>(event: JobEvent): Promise<T> {
    if (event.status !== 'completed') throw appErrorOf(event.error);
    const job = await this.deps.jobs.find(event.jobId);
    if (!job?.result)
      throw new AppError('UNKNOWN_ERROR', {
        message: `The ${event.kind} finished but its result is not available`,
      });
    return job.result as T;
  }
}
