import { AppError } from '@quarry/contracts';
import { Database } from '@quarry/platform/database';

const WINDOW_MS = 60_000;

/**
 * Per-team, per-minute request limit shared by every gateway replica: a counter row per
 * (team, bucket, minute) in PostgreSQL, incremented atomically.
 */
export class RateLimiter {
  private lastCleanup = 0;

  constructor(private readonly db: Database) {}

  /** Counts one request; throws 429 with Retry-After when the minute's limit is exceeded. 0 = unlimited. */
  async consume(teamId: string, bucket: string, limitPerMinute: number, now = Date.now()): Promise<void> {
    if (limitPerMinute <= 0) return;
    const windowStart = new Date(Math.floor(now / WINDOW_MS) * WINDOW_MS);
    const rows = await this.db.sql.query<{ count: number }>(
      `INSERT INTO rate_limit_windows (team_id, bucket, window_start, count) VALUES ($1, $2, $3, 1)
       ON CONFLICT (team_id, bucket, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
       RETURNING count`,
      [teamId, bucket, windowStart],
    );
    this.cleanupSometimes(now);
    if (Number(rows[0]?.count ?? 0) > limitPerMinute) {
      const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now) / 1000));
      throw new AppError('RATE_LIMITED', { retryAfterSeconds });
    }
  }

  private cleanupSometimes(now: number): void {
    if (now - this.lastCleanup < 5 * WINDOW_MS) return;
    this.lastCleanup = now;
    void this.db.sql
      .query('DELETE FROM rate_limit_windows WHERE window_start < $1', [new Date(now - 10 * WINDOW_MS)])
      .catch(() => undefined);
  }
}
