import type { Logger } from 'pino';

import type { CrawlTaskMessage } from '@quarry/contracts';
import type { MessageBus } from '@quarry/platform/bus';

import type { DispatchQueueRepository } from './dispatch-queue.repository';
import type { Dispatcher } from './dispatcher';
import type { FrontierRepository } from './frontier.repository';

export interface SweeperSettings {
  intervalMs: number;
  /** A dispatched page whose outcome is not stored after this long is sent again. */
  pageLeaseMs: number;
  /** Deliveries of one page before it is recorded as failed. */
  pageMaxAttempts: number;
  /** A collection not kicked off this long after creation gets its kickoff again. */
  kickoffGraceMs: number;
}

/**
 * Recovery loop run by every worker: re-sends pages whose worker died or whose message was lost
 * (their lease expired), gives up pages that keep failing, re-sends lost kickoffs and re-dispatches
 * running collections (covers wake-ups missed by a process that died).
 */
export class CrawlSweeper {
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private running?: Promise<void>;

  constructor(
    private readonly frontier: FrontierRepository,
    private readonly queue: DispatchQueueRepository,
    private readonly dispatcher: Dispatcher,
    private readonly bus: MessageBus,
    private readonly settings: SweeperSettings,
    private readonly logger: Logger,
  ) {}

  start(): void {
    const tick = () => {
      if (this.stopped) return;
      this.running = this.sweep()
        .catch((error: unknown) => this.logger.warn({ err: error }, 'crawl sweep failed'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.settings.intervalMs);
        });
    };
    this.timer = setTimeout(tick, this.settings.intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  async sweep(): Promise<void> {
    const stale = await this.queue.reclaimStale(this.settings.pageLeaseMs, 500);
    const resend = [];
    for (const page of stale) {
      if (page.attempts > this.settings.pageMaxAttempts) {
        const row = await this.frontier.loadPage(page.id);
        if (row) {
          await this.frontier.endPage(row, 'failed', {
            code: 'UNKNOWN_ERROR',
            message: `The page could not be processed after ${page.attempts - 1} attempts`,
          });
        }
        this.dispatcher.kick(page.crawlId);
      } else resend.push(page);
    }
    if (resend.length > 0) {
      this.logger.warn({ pages: resend.length }, 're-sending crawl pages whose lease expired');
      await this.dispatcher.publish(resend);
    }
    const running = await this.queue.runningCollections(1_000);
    for (const collection of running) {
      if (collection.kickedOff) this.dispatcher.kick(collection.id);
      else if (Date.now() - collection.createdAt.getTime() > this.settings.kickoffGraceMs) {
        const message: CrawlTaskMessage = {
          type: 'kickoff',
          crawlId: collection.id,
          teamId: collection.teamId,
        };
        await this.bus.publish('crawlTasks', message, { key: collection.id });
      }
    }
  }
}
