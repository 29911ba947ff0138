import type { Logger } from 'pino';

import type { BrowserPool, ProxyPools } from '@quarry/scrape/browser';
import type {
  InteractSessionRecord,
  InteractSessionRepository,
  ProfileState,
  Slot,
  TeamConcurrencyLimiter,
} from '@quarry/scrape/state';

import {
  captureSessionState,
  closeSlot,
  openSessionPage,
  type SessionBrowserSettings,
  type SessionPage,
} from './session-page';

export interface LiveSessionsDeps {
  pool: () => BrowserPool | undefined;
  proxies: ProxyPools;
  settings: SessionBrowserSettings;
  sessions: InteractSessionRepository;
  limiter?: TeamConcurrencyLimiter;
  /** Default concurrent browser pages of a team (teams.concurrency_limit overrides). */
  teamConcurrency: number;
  idleMs: number;
  /** Live pages this worker keeps at most; the least recently used one is closed beyond (restored on its next call). */
  maxLive: number;
  logger?: Logger;
}

/** A session whose page is open in this worker. */
export interface LiveSession {
  sessionId: string;
  teamId: string;
  page: SessionPage;
  /** The state last captured (base of the next capture: other origins' storage is kept). */
  state: ProfileState;
  lease?: Slot;
  lastUsed: number;
  timer?: NodeJS.Timeout;
}

/** A lease outlives the idle timeout by this much, so it is never lost while the session may still be used. */
const LEASE_MARGIN_MS = 60_000;

/**
 * The live pages of interact sessions on this worker. Calls of one session run one at a time; a
 * session this worker does not hold (first call, restart, rebalance, eviction, browser crash) is
 * restored from its stored state. Each live page holds one of its team's browser slots until the
 * session ends; after the idle timeout without a call the session ends here (state written back).
 */
export class LiveSessions {
  private readonly entries = new Map<string, LiveSession>();
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: LiveSessionsDeps) {}

  get size(): number {
    return this.entries.size;
  }

  /** Runs `work` on the session's page, opening or restoring it first; one call per session at a time. */
  withPage<T>(
    session: InteractSessionRecord,
    callId: string,
    deadline: number,
    work: (live: LiveSession, restored: boolean) => Promise<T>,
  ): Promise<T> {
    return this.exclusive(session.id, async () => {
      let live = this.entries.get(session.id);
      if (live && (live.page.slot.page.isClosed() || !live.page.slot.page.browser().connected)) {
        this.entries.delete(session.id);
        await this.close(live);
        live = undefined;
      }
      const restored = !live;
      if (!live) live = await this.open(session, callId, deadline);
      clearTimeout(live.timer);
      live.lastUsed = Date.now();
      try {
        return await work(live, restored);
      } finally {
        live.lastUsed = Date.now();
        if (live.lease)
          await this.deps.limiter
            ?.extend(live.lease.id, this.deps.idleMs + LEASE_MARGIN_MS)
            .catch(() => false);
        this.arm(live, this.deps.idleMs);
      }
    });
  }

  /** Removes the session's live page from this worker (for stop); the caller captures and closes it. */
  take(sessionId: string): Promise<LiveSession | undefined> {
    return this.exclusive(sessionId, async () => {
      const live = this.entries.get(sessionId);
      if (live) {
        clearTimeout(live.timer);
        this.entries.delete(sessionId);
      }
      return live;
    });
  }

  async close(live: LiveSession): Promise<void> {
    clearTimeout(live.timer);
    await closeSlot(live.page.slot).catch(() => undefined);
    await live.lease?.release().catch(() => undefined);
  }

  /** Worker shutdown: pages are closed; the sessions stay active and are restored by the next worker. */
  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.allSettled(all.map((live) => this.close(live)));
  }

  private async open(session: InteractSessionRecord, callId: string, deadline: number): Promise<LiveSession> {
    const pool = this.deps.pool();
    if (!pool) throw new Error('no browser pool');
    await this.evictIfFull();
    let lease: Slot | undefined;
    if (this.deps.limiter) {
      const limit = await this.deps.limiter.limitFor(session.teamId, this.deps.teamConcurrency);
      lease = await this.deps.limiter.acquire({
        teamId: session.teamId,
        jobId: callId,
        limit,
        maxWaitMs: Math.floor((Math.max(0, deadline - Date.now()) * 2) / 3),
        leaseMs: this.deps.idleMs + LEASE_MARGIN_MS,
      });
    }
    try {
      const page = await openSessionPage(pool, this.deps.proxies, this.deps.settings, session, deadline);
      const live: LiveSession = {
        sessionId: session.id,
        teamId: session.teamId,
        page,
        state: session.state,
        lease,
        lastUsed: Date.now(),
      };
      this.entries.set(session.id, live);
      return live;
    } catch (error) {
      await lease?.release().catch(() => undefined);
      throw error;
    }
  }

  private async evictIfFull(): Promise<void> {
    if (this.entries.size < this.deps.maxLive) return;
    const idle = [...this.entries.values()]
      .filter((live) => !this.tails.has(live.sessionId))
      .sort((a, b) => a.lastUsed - b.lastUsed);
    const oldest = idle[0];
    if (!oldest) return;
    this.entries.delete(oldest.sessionId);
    this.deps.logger?.info(
      { sessionId: oldest.sessionId },
      'interact page evicted (its session is restored on its next call)',
    );
    await this.close(oldest);
  }

  private arm(live: LiveSession, delayMs: number): void {
    clearTimeout(live.timer);
    live.timer = setTimeout(() => void this.expire(live.sessionId), delayMs + 1_000);
    live.timer.unref();
  }

  /** Idle timer: ends the session when no call touched it meanwhile (on any worker), else waits again. */
  private expire(sessionId: string): Promise<void> {
    return this.exclusive(sessionId, async () => {
      const live = this.entries.get(sessionId);
      if (!live) return;
      try {
        const captured = await captureSessionState(live.page, live.state).catch(() => undefined);
        const ended = await this.deps.sessions.expireIfIdle(sessionId, captured);
        const current = ended ?? (await this.deps.sessions.find(sessionId));
        if (!current || current.status !== 'active') {
          this.entries.delete(sessionId);
          await this.close(live);
          if (ended) this.deps.logger?.info({ sessionId }, 'interact session ended after its idle timeout');
          return;
        }
        this.arm(live, await this.deps.sessions.idleRemainingMs(sessionId));
      } catch (error) {
        this.deps.logger?.warn({ err: error, sessionId }, 'interact idle check failed; retrying');
        this.arm(live, 30_000);
      }
    });
  }

  private exclusive<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(sessionId) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => undefined);
    this.tails.set(sessionId, tail);
    void tail.then(() => {
      if (this.tails.get(sessionId) === tail) this.tails.delete(sessionId);
    });
    return run;
  }
}
