import type { Logger } from 'pino';

import type { CrawlTaskMessage, JobError } from '@quarry/contracts';
import type { MessageBus } from '@quarry/platform/bus';
import type { PlatformMetrics } from '@quarry/platform/observability';

import type { CollectionEvents } from '../webhooks/collection-events';
import type { DispatchQueueRepository } from './dispatch-queue.repository';
import type { FrontierRepository } from './frontier.repository';

export interface DispatchResult {
  dispatched: number;
  finished?: 'completed' | 'failed';
  /** A polite crawl has pages waiting for their origin's delay until then. */
  wakeAt?: Date;
}

export interface DispatcherOptions {
  /** Concurrent pages of one team over all its crawls and batches, when the team sets none. */
  defaultTeamConcurrency: number;
  /** Counts collections that end (`quarry_jobs_finished_total`, `quarry_job_duration_seconds` of crawl / batch_scrape). */
  metrics?: PlatformMetrics;
}

/**
 * Moves frontier pages from `queued` to `dispatched` within the collection's limits — pages stored
 * plus pages in flight never exceed `limit`; in flight never exceed `maxConcurrency`, the team's
 * concurrency, and one per origin under `delay` — publishes them, and ends the collection when
 * nothing is left. Any process may dispatch any collection: a transaction-scoped advisory lock
 * serialises them. Calls for one collection coalesce within a process.
 */
export class Dispatcher {
  private readonly running = new Map<string, { again: boolean }>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly frontier: FrontierRepository,
    private readonly queue: DispatchQueueRepository,
    private readonly events: CollectionEvents,
    private readonly bus: MessageBus,
    private readonly logger: Logger,
    private readonly options: DispatcherOptions,
  ) {}

  /** Dispatches soon (coalesced); errors are logged, the periodic sweep retries. */
  kick(collectionId: string): void {
    if (this.stopped) return;
    const state = this.running.get(collectionId);
    if (state) {
      state.again = true;
      return;
    }
    const entry = { again: false };
    this.running.set(collectionId, entry);
    void (async () => {
      try {
        do {
          entry.again = false;
          const result = await this.dispatch(collectionId);
          if (result.wakeAt) this.wakeAt(collectionId, result.wakeAt);
        } while (entry.again && !this.stopped);
      } catch (error) {
        this.logger.warn({ err: error, crawlId: collectionId }, 'dispatch failed; the sweep will retry');
      } finally {
        this.running.delete(collectionId);
      }
    })();
  }

  /** Resolves once in-flight dispatches of this process have finished. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  async dispatch(collectionId: string): Promise<DispatchResult> {
    const result = await this.frontier.transaction(async (tx) => {
      await this.queue.lockCollectionIn(tx, collectionId);
      const state = await this.queue.dispatchStateIn(tx, collectionId);
      if (!state || !state.kickedOff || !['queued', 'active'].includes(state.jobStatus))
        return { pages: [], dispatched: 0 } as const;
      const teamLimit = state.teamConcurrency ?? this.options.defaultTeamConcurrency;
      const capacity = Math.min(
        state.maxConcurrency - state.inFlight,
        state.pageLimit - state.completed - state.inFlight,
        teamLimit - state.teamInFlight,
      );
      const pages =
        capacity > 0 && state.queued > 0
          ? state.delayMs > 0
            ? await this.queue.takeQueuedPoliteIn(tx, collectionId, capacity, state.delayMs)
            : await this.queue.takeQueuedIn(tx, collectionId, capacity)
          : [];
      const inFlight = state.inFlight + pages.length;
      if (inFlight === 0 && (state.queued === 0 || state.completed >= state.pageLimit)) {
        const collection = await this.frontier.loadCollection(collectionId, tx);
        if (!collection) return { pages, dispatched: 0 } as const;
        let error: JobError | undefined;
        if (state.completed === 0 && collection.kind === 'crawl')
          error = await this.queue.startPageErrorIn(tx, collectionId);
        const status = error ? 'failed' : 'completed';
        const ended = await this.frontier.finishCollectionIn(
          tx,
          collection,
          status,
          error,
          this.events.finished(collection, status, error?.message),
        );
        return { pages, dispatched: 0, finished: ended ? status : undefined, collection } as const;
      }
      const wakeAt =
        state.delayMs > 0 && state.queued > pages.length
          ? await this.queue.nextPoliteWakeIn(tx, collectionId, state.delayMs)
          : undefined;
      return { pages, dispatched: pages.length, wakeAt } as const;
    });
    await this.publish(result.pages);
    if (result.finished) {
      this.logger.info({ crawlId: collectionId, status: result.finished }, 'collection finished');
      if ('collection' in result && result.collection) {
        const { kind, createdAt } = result.collection;
        this.options.metrics?.jobsFinished.inc({ kind, outcome: result.finished });
        this.options.metrics?.jobDuration.observe(
          { kind, engine: 'none' },
          Math.max(0, Date.now() - createdAt.getTime()) / 1000,
        );
      }
    }
    return {
      dispatched: result.dispatched,
      finished: 'finished' in result ? result.finished : undefined,
      wakeAt: 'wakeAt' in result ? result.wakeAt : undefined,
    };
  }

  /** Publishes page tasks. A publish failure leaves the pages dispatched; the stale-page sweep re-sends them. */
  async publish(pages: readonly { id: string; crawlId: string; teamId: string }[]): Promise<void> {
    await Promise.all(
      pages.map((page) => {
        const message: CrawlTaskMessage = {
          type: 'page',
          crawlId: page.crawlId,
          teamId: page.teamId,
          pageId: page.id,
        };
        return this.bus.publish('crawlTasks', message, { key: page.id });
      }),
    );
  }

  private wakeAt(collectionId: string, at: Date): void {
    if (this.stopped) return;
    clearTimeout(this.timers.get(collectionId));
    const delay = Math.max(5, at.getTime() - Date.now() + 5);
    const timer = setTimeout(() => {
      this.timers.delete(collectionId);
      this.kick(collectionId);
    }, delay);
    timer.unref();
    this.timers.set(collectionId, timer);
  }
}
