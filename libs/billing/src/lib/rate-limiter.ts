import { AppError } from '@quarry/contracts';
import { Database, GroupedStatement } from '@quarry/platform/database';

const WINDOW_MS = 60_000;
/** A replica takes at most `limit / BLOCK_DIVISOR` permits at once (at least 1, at most MAX_BLOCK). */
const BLOCK_DIVISOR = 32;
const MAX_BLOCK = 64;

/** The largest block of permits a replica takes at once for a limit (1 for limits under 64: one permit per request). */
export function permitBlock(limitPerMinute: number): number {
  return Math.max(1, Math.min(MAX_BLOCK, Math.floor(limitPerMinute / BLOCK_DIVISOR)));
}

interface Take {
  teamId: string;
  bucket: string;
  windowStart: Date;
  permits: number;
}

/** The permits of one team, bucket and minute this replica holds. */
interface Lease {
  teamId: string;
  bucket: string;
  windowStart: number;
  limit: number;
  /** Permits taken from the shared counter within the limit, and how many of them were spent. */
  granted: number;
  used: number;
  /** The next block to take (doubles while the replica keeps spending, up to permitBlock). */
  block: number;
  /** Requests waiting for permits. */
  waiting: number;
  /** The shared counter reached the limit: nothing more this minute. */
  exhausted: boolean;
  refill?: Promise<void>;
}

/**
 * Per-team, per-minute request limit shared by every gateway replica: a counter row per
 * (team, bucket, minute) in PostgreSQL counts the permits handed out, and a replica takes them in
 * blocks and spends them from memory, so most requests need no statement at all. A block starts at
 * one permit and doubles while the replica keeps spending, up to `permitBlock(limit)` (limit / 32, at
 * most 64; one permit per request below a limit of 64). Concurrent takes of a replica share one
 * upsert (`GroupedStatement`), each getting its own positions in the counter.
 *
 * Never more than `limit` requests a minute pass across all replicas: a permit counts only when its
 * position in the shared counter is within the limit. The tolerance is the other way: a request may
 * be refused while other replicas still hold unspent permits — at most `permitBlock(limit)` each (a
 * replica's last block), so at least `limit − (replicas − 1) × permitBlock(limit)` requests pass in a
 * minute when that many are made. The counter's commit does not wait for the disk
 * (`Database.relaxedSql`): a database crash may forget the last fraction of a second's takes.
 */
export class RateLimiter {
  private lastCleanup = 0;
  private readonly leases = new Map<string, Lease>();
  private readonly takes: GroupedStatement<Take, number>;

  constructor(private readonly db: Database) {
    this.takes = new GroupedStatement((batch) => this.take(batch));
  }

  /** Counts one request; throws 429 with Retry-After when the minute's limit is exceeded. 0 = unlimited. */
  async consume(teamId: string, bucket: string, limitPerMinute: number, now = Date.now()): Promise<void> {
    if (limitPerMinute <= 0) return;
    const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    const key = `${teamId}\n${bucket}\n${windowStart}`;
    let lease = this.leases.get(key);
    if (!lease) {
      lease = {
        teamId,
        bucket,
        windowStart,
        limit: limitPerMinute,
        granted: 0,
        used: 0,
        block: 1,
        waiting: 0,
        exhausted: false,
      };
      this.leases.set(key, lease);
      this.forgetEnded(windowStart);
    }
    if (limitPerMinute > lease.limit) lease.exhausted = false; // raised within the minute
    lease.limit = limitPerMinute;
    while (lease.used >= lease.granted) {
      if (lease.exhausted) {
        const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
        throw new AppError('RATE_LIMITED', { retryAfterSeconds });
      }
      lease.waiting += 1;
      try {
        const current = lease;
        await (current.refill ??= this.refill(current).finally(() => (current.refill = undefined)));
      } finally {
        lease.waiting -= 1;
      }
    }
    lease.used += 1;
    this.cleanupSometimes(now);
  }

  /** Takes the next block from the shared counter: the permits whose positions are within the limit count. */
  private async refill(lease: Lease): Promise<void> {
    const largest = permitBlock(lease.limit);
    const permits = Math.min(largest, Math.max(lease.block, lease.waiting));
    const first = await this.takes.submit({
      teamId: lease.teamId,
      bucket: lease.bucket,
      windowStart: new Date(lease.windowStart),
      permits,
    });
    const usable = Math.max(0, Math.min(permits, lease.limit - first + 1));
    lease.granted += usable;
    if (usable < permits) lease.exhausted = true;
    lease.block = Math.min(largest, permits * 2);
  }

  /** Adds the batch's permits per key in one statement; the first counter position of each take, in order. */
  private async take(batch: Take[]): Promise<number[]> {
    const groups = new Map<string, { entry: Take; permits: number; final: number }>();
    const groupOf = batch.map((entry) => {
      const key = `${entry.teamId}\n${entry.bucket}\n${entry.windowStart.getTime()}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { entry, permits: 0, final: 0 }));
      group.permits += entry.permits;
      return group;
    });
    const list = [...groups.values()];
    const rows = await this.db.relaxedSql.query<{ n: number | string; count: number }>(
      `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::int[]) WITH ORDINALITY
           AS i(team_id, bucket, window_start, permits, n)
       ), counted AS (
         INSERT INTO rate_limit_windows (team_id, bucket, window_start, count)
         SELECT team_id, bucket, window_start, permits FROM input
         ON CONFLICT (team_id, bucket, window_start) DO UPDATE SET count = rate_limit_windows.count + EXCLUDED.count
         RETURNING team_id, bucket, window_start, count
       )
       SELECT input.n, counted.count FROM counted
       JOIN input ON input.team_id = counted.team_id AND input.bucket = counted.bucket
         AND input.window_start = counted.window_start`,
      [
        list.map((group) => group.entry.teamId),
        list.map((group) => group.entry.bucket),
        list.map((group) => group.entry.windowStart),
        list.map((group) => group.permits),
      ],
      { prepareAs: 'rate_limit_take' },
    );
    for (const row of rows) list[Number(row.n) - 1].final = Number(row.count);
    // The counter after the batch holds this key's permits last, the takes in batch order.
    const given = new Map<object, number>();
    return batch.map((entry, index) => {
      const group = groupOf[index];
      const before = given.get(group) ?? 0;
      given.set(group, before + entry.permits);
      return group.final - group.permits + before + 1;
    });
  }

  /** Leases of minutes that have ended are dropped when a new minute's lease is made. */
  private forgetEnded(windowStart: number): void {
    for (const [key, lease] of this.leases) if (lease.windowStart < windowStart) this.leases.delete(key);
  }

  private cleanupSometimes(now: number): void {
    if (now - this.lastCleanup < 5 * WINDOW_MS) return;
    this.lastCleanup = now;
    void this.db.sql
      .query('DELETE FROM rate_limit_windows WHERE window_start < $1', [new Date(now - 10 * WINDOW_MS)])
      .catch(() => undefined);
  }
}
