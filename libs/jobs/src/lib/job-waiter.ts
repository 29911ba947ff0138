import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

import type { Logger } from 'pino';

import type { JobEvent } from '@quarry/contracts';
import type { MessageBus } from '@quarry/platform/bus';

import { isTerminal, type JobRepository } from './job.repository';
import { JobEventsConsumer } from './job-events.consumer';

type Resolve = (event: JobEvent | undefined) => void;

const POLL_INTERVAL_MS = 1_000;
/**
 * How long a finished job found by the poll waits for its event before the poll answers for it: the
 * event follows the stored outcome within milliseconds and carries what the row does not (error
 * details, Retry-After, zero-data-retention results); the poll is only for events that never come.
 */
const EVENT_GRACE_MS = 1_500;

/**
 * Wakes requests waiting for a job (DESIGN "Data flow"): every gateway replica follows the job
 * events in its own consumer group (job-events.consumer.ts); one batched database poll per second covers events missed
 * during a rebalance (zero-data-retention results exist only in events).
 */
export class JobWaiter {
  private readonly waiters = new Map<string, Set<Resolve>>();
  /** Jobs the poll found finished, and when it first did (waiting for their event; see EVENT_GRACE_MS). */
  private readonly finishedSeen = new Map<string, number>();
  private poller: NodeJS.Timeout | undefined;
  private polling = false;
  readonly group = `gateway-events-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly bus: MessageBus,
    private readonly jobs: JobRepository,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await new JobEventsConsumer(this.bus, this.group, (event) => this.deliver(event)).start();
  }

  /** Resolves with the job's terminal event, or undefined when `timeoutMs` passes (or `signal` aborts) first. */
  wait(jobId: string, timeoutMs: number, signal?: AbortSignal): Promise<JobEvent | undefined> {
    return new Promise<JobEvent | undefined>((resolve) => {
      const set = this.waiters.get(jobId) ?? new Set<Resolve>();
      this.waiters.set(jobId, set);
      const finish: Resolve = (event) => {
        if (!set.delete(finish)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (set.size === 0) {
          this.waiters.delete(jobId);
          this.finishedSeen.delete(jobId);
        }
        if (this.waiters.size === 0) this.stopPolling();
        resolve(event);
      };
      const onAbort = () => finish(undefined);
      const timer = setTimeout(onAbort, timeoutMs);
      signal?.addEventListener('abort', onAbort);
      set.add(finish);
      this.startPolling();
    });
  }

  private deliver(event: JobEvent): void {
    if (!isTerminal(event.status)) return;
    for (const resolve of [...(this.waiters.get(event.jobId) ?? [])]) resolve(event);
  }

  private startPolling(): void {
    this.poller ??= setInterval(() => void this.poll(), POLL_INTERVAL_MS);
  }

  private stopPolling(): void {
    if (this.poller) clearInterval(this.poller);
    this.poller = undefined;
  }

  private async poll(): Promise<void> {
    if (this.polling || this.waiters.size === 0) return;
    this.polling = true;
    try {
      for (const job of await this.jobs.findFinished([...this.waiters.keys()])) {
        if (job.zeroDataRetention) continue; // its result travels only in the event
        const seen = this.finishedSeen.get(job.id);
        if (seen === undefined) this.finishedSeen.set(job.id, Date.now());
        if (seen === undefined || Date.now() - seen < EVENT_GRACE_MS) continue;
        this.deliver({
          jobId: job.id,
          teamId: job.teamId,
          kind: job.kind,
          status: job.status,
          error: job.error,
          at: Date.now(),
        });
      }
    } catch (error) {
      this.logger.debug({ err: error }, 'job poll failed');
    } finally {
      this.polling = false;
    }
  }
}
