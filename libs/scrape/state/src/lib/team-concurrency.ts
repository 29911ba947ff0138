import { randomUUID } from 'node:crypto';

import { AppError } from '@quarry/contracts';
import { Database } from '@quarry/platform/database';

export interface SlotRequest {
  teamId: string;
  jobId?: string;
  /** Concurrent browser scrapes the team may run. */
  limit: number;
  /** Longest time to wait in the queue before answering 429. */
  maxWaitMs: number;
  /** How long the slot is held at most (the job's remaining budget): a dead worker frees it then. */
  leaseMs: number;
  signal?: AbortSignal;
}

export interface Slot {
  id: string;
  /** Milliseconds spent waiting for the slot (0 when one was free). */
  queuedMs: number;
  release(): Promise<void>;
}

const POLL_MIN_MS = 50;
const POLL_MAX_MS = 500;

/**
 * A team's concurrent-browser limit, shared by every worker: one lease row per running browser
 * scrape in PostgreSQL, taken under a per-team advisory lock. A job over the limit waits (polling
 * with backoff) and reports how long; when the wait would exceed `maxWaitMs` it gets 429
 * `Concurrency limit reached`.
 */
export class TeamConcurrencyLimiter {
  private readonly limits = new Map<string, { limit: number; at: number }>();

  constructor(private readonly db: Database) {}

  /** The team's limit (teams.concurrency_limit, else `fallback`), cached for 10 s. */
  async limitFor(teamId: string, fallback: number): Promise<number> {
    const cached = this.limits.get(teamId);
    if (cached && Date.now() - cached.at < 10_000) return cached.limit;
    const team = await this.db.prisma.team.findUnique({
      where: { id: teamId },
      select: { concurrencyLimit: true },
    });
    const limit = team?.concurrencyLimit ?? fallback;
    this.limits.set(teamId, { limit, at: Date.now() });
    return limit;
  }

  async acquire(request: SlotRequest): Promise<Slot> {
    const startedAt = Date.now();
    const id = randomUUID();
    for (let attempt = 0; ; attempt += 1) {
      if (await this.tryTake(id, request)) {
        return { id, queuedMs: attempt === 0 ? 0 : Date.now() - startedAt, release: () => this.release(id) };
      }
      const waited = Date.now() - startedAt;
      const pause = Math.min(POLL_MAX_MS, POLL_MIN_MS * 2 ** attempt);
      if (request.signal?.aborted || waited + pause > request.maxWaitMs) {
        throw new AppError('CONCURRENCY_LIMITED', {
          retryAfterSeconds: 1,
          details: { limit: request.limit, waitedMs: waited },
        });
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  async release(id: string): Promise<void> {
    await this.db.sql.query('DELETE FROM browser_leases WHERE id = $1', [id]);
  }

  /** Extends a held lease (interact sessions keep their slot while the session lives); false when it is gone. */
  async extend(id: string, leaseMs: number): Promise<boolean> {
    const rows = await this.db.sql.query<{ id: string }>(
      `UPDATE browser_leases SET expires_at = now() + ($2::int * interval '1 millisecond') WHERE id = $1 RETURNING id`,
      [id, Math.max(1_000, Math.ceil(leaseMs))],
    );
    return rows.length > 0;
  }

  /** Leases held by the team right now (tests and the queue-status route). */
  async active(teamId: string): Promise<number> {
    const rows = await this.db.sql.query<{ count: string | number }>(
      'SELECT count(*) AS count FROM browser_leases WHERE team_id = $1 AND expires_at > now()',
      [teamId],
    );
    return Number(rows[0]?.count ?? 0);
  }

  private async tryTake(id: string, request: SlotRequest): Promise<boolean> {
    return this.db.sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`browser-leases:${request.teamId}`]);
      await tx.query('DELETE FROM browser_leases WHERE team_id = $1 AND expires_at <= now()', [
        request.teamId,
      ]);
      const rows = await tx.query<{ count: string | number }>(
        'SELECT count(*) AS count FROM browser_leases WHERE team_id = $1',
        [request.teamId],
      );
      if (Number(rows[0]?.count ?? 0) >= request.limit) return false;
      await tx.query(
        `INSERT INTO browser_leases (id, team_id, job_id, expires_at) VALUES ($1, $2, $3, now() + ($4::int * interval '1 millisecond'))`,
        [id, request.teamId, request.jobId ?? null, Math.max(1_000, Math.ceil(request.leaseMs))],
      );
      return true;
    });
  }
}
