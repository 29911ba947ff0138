import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { jobEventSchema, type JobEvent } from '@quarry/contracts';
import type { MessageBus } from '@quarry/platform/bus';
import type { Logger } from 'pino';
import { isTerminal, type JobRepository } from './job.repository';

interface Waiter {
  resolve: (event: JobEvent) => void;
}

const POLL_INTERVAL_MS = 1_000;

/**
 * Wakes requests waiting for a job (DESIGN "Data flow"): every gateway replica follows the job
 * events in its own consumer group; a slow database poll covers events missed during a rebalance.
 */
export class JobWaiter {
  private readonly waiters = new Map<string, Set<Waiter>>();
  readonly group = `gateway-events-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly bus: MessageBus,
    private readonly jobs: JobRepository,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await this.bus.subscribe<unknown>('jobEvents', { group: this.group, concurrency: 64 }, async (message) => {
      const parsed = jobEventSchema.safeParse(message.value);
      if (!parsed.success) return;
      this.deliver(parsed.data as JobEvent);
    });
  }

  /** Resolves with the job's terminal event, or undefined when `timeoutMs` passes first. */
  async wait(jobId: string, timeoutMs: number, signal?: AbortSignal): Promise<JobEvent | undefined> {
    return new Promise<JobEvent | undefined>((resolve) => {
      const set = this.waiters.get(jobId) ?? new Set<Waiter>();
      this.waiters.set(jobId, set);
      let settled = false;
      const finish = (event: JobEvent | undefined) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(poller);
        set.delete(waiter);
        if (set.size === 0) this.waiters.delete(jobId);
        signal?.removeEventListener('abort', onAbort);
        resolve(event);
      };
      const waiter: Waiter = { resolve: finish };
      set.add(waiter);
      const onAbort = () => finish(undefined);
      signal?.addEventListener('abort', onAbort);
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      const poller = setInterval(() => {
        this.jobs.find(jobId).then(
          (job) => {
            if (job && isTerminal(job.status) && !job.zeroDataRetention) {
              finish({ jobId, teamId: job.teamId, kind: job.kind, status: job.status, error: job.error, at: Date.now() });
            }
          },
          (error: unknown) => this.logger.debug({ err: error, jobId }, 'job poll failed'),
        );
      }, POLL_INTERVAL_MS);
    });
  }

  private deliver(event: JobEvent): void {
    if (!isTerminal(event.status)) return;
    const set = this.waiters.get(event.jobId);
    if (!set) return;
    for (const waiter of [...set]) waiter.resolve(event);
  }
}
