import { AppError } from '@quarry/contracts';
import { Database, GroupedStatement } from '@quarry/platform/database';

const WINDOW_MS = 60_000;

interface Consumption {
  teamId: string;
  bucket: string;
  windowStart: Date;
}

/**
 * Per-team, per-minute request limit shared by every gateway replica: a counter row per
 * (team, bucket, minute) in PostgreSQL, incremented atomically. Concurrent requests of a replica are
 * counted together (`GroupedStatement`): one upsert per batch adds each key's number of requests and
 * each request gets its own position in the counter, so the limit is exact across replicas as with
 * one upsert per request, at one round trip per batch instead of one per request.
 */
export class RateLimiter {
  private lastCleanup = 0;
  private readonly counts: GroupedStatement<Consumption, number>;

  constructor(private readonly db: Database) {
    this.counts = new GroupedStatement((batch) => this.count(batch));
  }

  /** Counts one request; throws 429 with Retry-After when the minute's limit is exceeded. 0 = unlimited. */
  async consume(teamId: string, bucket: string, limitPerMinute: number, now = Date.now()): Promise<void> {
    if (limitPerMinute <= 0) return;
    const windowStart = new Date(Math.floor(now / WINDOW_MS) * WINDOW_MS);
    const count = await this.counts.submit({ teamId, bucket, windowStart });
    this.cleanupSometimes(now);
    if (count > limitPerMinute) {
      const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now) / 1000));
      throw new AppError('RATE_LIMITED', { retryAfterSeconds });
    }
  }

  /** Adds the batch's requests per key in one statement; each request's position in its key's counter, in order. */
  private async count(batch: Consumption[]): Promise<number[]> {
    const groups = new Map<string, { entry: Consumption; requests: number; seen: number; final: number }>();
    const groupOf = batch.map((entry) => {
      const key = `${entry.teamId}\n${entry.bucket}\n${entry.windowStart.getTime()}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { entry, requests: 0, seen: 0, final: 0 }));
      group.requests += 1;
      return group;
    });
    const list = [...groups.values()];
    const rows = await this.db.sql.query<{ n: number | string; count: number }>(
      `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::int[]) WITH ORDINALITY
           AS i(team_id, bucket, window_start, requests, n)
       ), counted AS (
         INSERT INTO rate_limit_windows (team_id, bucket, window_start, count)
         SELECT team_id, bucket, window_start, requests FROM input
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
        list.map((group) => group.requests),
      ],
    );
    for (const row of rows) list[Number(row.n) - 1].final = Number(row.count);
    // The counter after the batch holds this key's requests last: the k-th of them is at final - requests + k.
    return groupOf.map((group) => group.final - group.requests + ++group.seen);
  }

  private cleanupSometimes(now: number): void {
    if (now - this.lastCleanup < 5 * WINDOW_MS) return;
    this.lastCleanup = now;
    void this.db.sql
      .query('DELETE FROM rate_limit_windows WHERE window_start < $1', [new Date(now - 10 * WINDOW_MS)])
      .catch(() => undefined);
  }
}
