import type { Logger } from 'pino';

import { LIMITS } from '@quarry/contracts';

import type { JobRepository } from './job.repository';

/** Three times the longest job budget: no worker or caller can still be working on such a job. */
export const ABANDONED_AFTER_MS = 3 * LIMITS.timeoutMs.max;
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Every job terminates: a scrape, parse or interact job whose worker and caller both went away
 * (a crash with in-memory messages, a lost event) is closed as failed instead of staying
 * `queued`/`active` forever; the credits held for jobs that ended without giving them back are
 * released. Idempotent, so every process may run it.
 */
export class AbandonedJobSweeper {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly jobs: JobRepository,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  async sweep(olderThanMs = ABANDONED_AFTER_MS): Promise<number> {
    try {
      const closed = await this.jobs.failAbandoned(olderThanMs, {
        code: 'SCRAPE_TIMEOUT',
        message: `No worker finished the job within ${Math.round(olderThanMs / 60_000)} minutes (the process working on it stopped); it was closed`,
      });
      if (closed > 0) this.logger.warn({ closed }, 'abandoned jobs closed');
      const released = await this.jobs.releaseEndedHolds();
      if (released > 0) this.logger.warn({ released }, 'credit holds of ended jobs given back');
      return closed;
    } catch (error) {
      this.logger.debug({ err: error }, 'abandoned job sweep failed');
      return 0;
    }
  }
}
