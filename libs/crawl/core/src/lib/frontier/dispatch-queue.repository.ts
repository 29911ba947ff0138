import type { JobError } from '@quarry/contracts';
import { type Database, date, num, type Raw, type SqlExecutor } from '@quarry/platform/database';

export interface DispatchState {
  jobStatus: string;
  teamId: string;
  kickedOff: boolean;
  pageLimit: number;
  maxConcurrency: number;
  delayMs: number;
  completed: number;
  inFlight: number;
  queued: number;
  teamInFlight: number;
  /** The team's own concurrency limit, if set. */
  teamConcurrency?: number;
}

export interface DispatchedPage {
  id: string;
  crawlId: string;
  teamId: string;
}

/**
 * The frontier as a queue: what the dispatcher reads and takes under the collection's lock
 * (limits, politeness, the start page's error) and what the sweeper reclaims. Page outcomes and
 * discovery stay with FrontierRepository.
 */
export class DispatchQueueRepository {
  constructor(private readonly db: Database) {}

  /** Serialises dispatching of one collection across every process (transaction-scoped). */
  async lockCollectionIn(tx: SqlExecutor, id: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('crawl:' || $1::text, 0))`, [id], {
      prepareAs: 'crawl_dispatch_lock',
    });
  }

  /** Counters of one collection, read in a single statement (one snapshot). */
  async dispatchStateIn(tx: SqlExecutor, id: string): Promise<DispatchState | undefined> {
    const rows = await tx.query<Raw>(
      `SELECT j.status, c.team_id, c.kicked_off_at, c.page_limit, c.max_concurrency, c.delay_ms, c.completed_count,
         (SELECT count(*) FROM crawl_pages p WHERE p.crawl_id = c.job_id AND p.status = 'dispatched') AS in_flight,
         (SELECT count(*) FROM crawl_pages p WHERE p.crawl_id = c.job_id AND p.status = 'queued') AS queued,
         (SELECT count(*) FROM crawl_pages p WHERE p.team_id = c.team_id AND p.status = 'dispatched') AS team_in_flight,
         (SELECT t.concurrency_limit FROM teams t WHERE t.id = c.team_id) AS team_concurrency
       FROM crawls c JOIN jobs j ON j.id = c.job_id WHERE c.job_id = $1`,
      [id],
      { prepareAs: 'crawl_dispatch_state' },
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      jobStatus: String(row['status']),
      teamId: String(row['team_id']),
      kickedOff: row['kicked_off_at'] !== null && row['kicked_off_at'] !== undefined,
      pageLimit: num(row['page_limit']),
      maxConcurrency: num(row['max_concurrency']),
      delayMs: num(row['delay_ms']),
      completed: num(row['completed_count']),
      inFlight: num(row['in_flight']),
      queued: num(row['queued']),
      teamInFlight: num(row['team_in_flight']),
      teamConcurrency:
        row['team_concurrency'] === null || row['team_concurrency'] === undefined
          ? undefined
          : num(row['team_concurrency']),
    };
  }

  /** Marks up to `count` queued pages dispatched, breadth first. */
  async takeQueuedIn(tx: SqlExecutor, id: string, count: number): Promise<DispatchedPage[]> {
    const rows = await tx.query<Raw>(
      `UPDATE crawl_pages SET status = 'dispatched', dispatched_at = now(), attempts = attempts + 1
       WHERE id IN (SELECT id FROM crawl_pages WHERE crawl_id = $1 AND status = 'queued' ORDER BY depth, rank, seq LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id, crawl_id, team_id`,
      [id, count],
      { prepareAs: 'crawl_dispatch_take' },
    );
    return rows.map((row) => ({
      id: String(row['id']),
      crawlId: String(row['crawl_id']),
      teamId: String(row['team_id']),
    }));
  }

  /**
   * Politeness (`delay`): at most one page in flight per origin, and an origin's next page dispatched
   * no earlier than `delayMs` after its previous one was dispatched *and* after it finished, so two
   * requests to an origin are always at least `delayMs` apart.
   */
  async takeQueuedPoliteIn(
    tx: SqlExecutor,
    id: string,
    count: number,
    delayMs: number,
  ): Promise<DispatchedPage[]> {
    const rows = await tx.query<Raw>(
      `WITH ready AS (
         SELECT DISTINCT ON (p.host) p.id, p.host, p.depth, p.rank, p.seq FROM crawl_pages p
         LEFT JOIN crawl_hosts h ON h.crawl_id = p.crawl_id AND h.host = p.host
         WHERE p.crawl_id = $1 AND p.status = 'queued'
           AND (h.next_dispatch_at IS NULL OR h.next_dispatch_at <= now())
           AND NOT EXISTS (SELECT 1 FROM crawl_pages d WHERE d.crawl_id = p.crawl_id AND d.host = p.host AND d.status = 'dispatched')
           AND NOT EXISTS (SELECT 1 FROM crawl_pages f WHERE f.crawl_id = p.crawl_id AND f.host = p.host
                             AND f.finished_at > now() - ($3::text || ' milliseconds')::interval)
         ORDER BY p.host, p.depth, p.rank, p.seq),
       picked AS (SELECT id, host FROM ready ORDER BY depth, rank, seq LIMIT $2)
       UPDATE crawl_pages SET status = 'dispatched', dispatched_at = now(), attempts = attempts + 1
       WHERE id IN (SELECT id FROM picked) RETURNING id, crawl_id, team_id, host`,
      [id, count, String(delayMs)],
    );
    for (const row of rows) {
      await tx.query(
        `INSERT INTO crawl_hosts (crawl_id, host, robots_state, next_dispatch_at) VALUES ($1, $2, 'pending', now() + ($3::text || ' milliseconds')::interval)
         ON CONFLICT (crawl_id, host) DO UPDATE SET next_dispatch_at = EXCLUDED.next_dispatch_at`,
        [id, row['host'], String(delayMs)],
      );
    }
    return rows.map((row) => ({
      id: String(row['id']),
      crawlId: String(row['crawl_id']),
      teamId: String(row['team_id']),
    }));
  }

  /** When the earliest waiting origin of a polite crawl may be served again. */
  async nextPoliteWakeIn(tx: SqlExecutor, id: string, delayMs: number): Promise<Date | undefined> {
    const rows = await tx.query<Raw>(
      `SELECT min(greatest(h.next_dispatch_at, f.last_finished + ($2::text || ' milliseconds')::interval)) AS wake
       FROM crawl_hosts h
       LEFT JOIN LATERAL (SELECT max(finished_at) AS last_finished FROM crawl_pages x WHERE x.crawl_id = h.crawl_id AND x.host = h.host) f ON true
       WHERE h.crawl_id = $1
         AND greatest(h.next_dispatch_at, f.last_finished + ($2::text || ' milliseconds')::interval) > now()
         AND EXISTS (SELECT 1 FROM crawl_pages p WHERE p.crawl_id = h.crawl_id AND p.host = h.host AND p.status = 'queued')`,
      [id, String(delayMs)],
    );
    return date(rows[0]?.['wake']) ?? undefined;
  }

  /** The outcome of the start page when nothing was stored (a crawl then fails with its error). */
  async startPageErrorIn(tx: SqlExecutor, id: string): Promise<JobError | undefined> {
    const rows = await tx.query<Raw>(
      `SELECT error_code, error FROM crawl_pages WHERE crawl_id = $1 AND depth = 0 AND status = 'failed' ORDER BY seq LIMIT 1`,
      [id],
    );
    const row = rows[0];
    return row
      ? ({
          code: row['error_code'] ?? 'SCRAPE_SITE_ERROR',
          message: String(row['error'] ?? 'The start page could not be crawled'),
        } as JobError)
      : undefined;
  }

  // --- recovery ---------------------------------------------------------------------------------

  /** Dispatched pages whose message was lost or whose worker died: taken again (attempt counted). */
  async reclaimStale(leaseMs: number, limit: number): Promise<(DispatchedPage & { attempts: number })[]> {
    const rows = await this.db.sql.query<Raw>(
      `UPDATE crawl_pages SET dispatched_at = now(), attempts = attempts + 1
       WHERE id IN (SELECT id FROM crawl_pages WHERE status = 'dispatched' AND dispatched_at < now() - ($1::text || ' milliseconds')::interval
                    ORDER BY dispatched_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id, crawl_id, team_id, attempts`,
      [String(leaseMs), limit],
    );
    return rows.map((row) => ({
      id: String(row['id']),
      crawlId: String(row['crawl_id']),
      teamId: String(row['team_id']),
      attempts: num(row['attempts']),
    }));
  }

  /** Running collections, for the periodic sweep. */
  async runningCollections(
    limit: number,
  ): Promise<{ id: string; teamId: string; kickedOff: boolean; createdAt: Date }[]> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT c.job_id, c.team_id, c.kicked_off_at, c.created_at FROM crawls c JOIN jobs j ON j.id = c.job_id
       WHERE j.status IN ('queued', 'active') AND j.kind IN ('crawl', 'batch_scrape') ORDER BY c.created_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({
      id: String(row['job_id']),
      teamId: String(row['team_id']),
      kickedOff: row['kicked_off_at'] !== null && row['kicked_off_at'] !== undefined,
      createdAt: date(row['created_at']) as Date,
    }));
  }
}
