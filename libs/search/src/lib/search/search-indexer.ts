import type { Database, Raw } from '@quarry/platform/database';

export interface SearchIndexerOptions {
  /** Documents indexed by one background statement. */
  batch: number;
  /** Pause between background rounds while nothing is left or ingestion is busy. */
  intervalMs: number;
  /**
   * Ingestion counts as busy while more documents than this arrived per second over the last round:
   * the background indexer then leaves the CPU to it…
   */
  busyDocsPerSecond: number;
  /** …unless the oldest pending document has waited this long. */
  maxLagMs: number;
}

export const DEFAULT_SEARCH_INDEXER_OPTIONS: SearchIndexerOptions = {
  batch: 200,
  intervalMs: 1_000,
  busyDocsPerSecond: 5,
  maxLagMs: 60_000,
};

/** Documents a search indexes for its team before it queries (the rest follows in the background). */
export const SEARCH_CATCH_UP = 2_000;

interface Logger {
  warn(object: object, message: string): void;
}

/**
 * Computes the full-text vectors of stored documents off the write path (docs/crawl.md "Search"):
 * stores leave `documents.search` NULL; the background rounds fill it in batches, yielding to a busy
 * ingestion (a crawl storing pages) for at most `maxLagMs`; and a search first indexes its team's
 * pending documents, so it always sees what was stored before it. Any number of processes may run
 * it: background rounds skip rows another indexer holds.
 */
export class SearchIndexer {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;
  private lastRound = Date.now();

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly options: SearchIndexerOptions = DEFAULT_SEARCH_INDEXER_OPTIONS,
  ) {}

  /**
   * Indexes up to `limit` of the team's pending documents, oldest first, waiting for rows a
   * background round holds (so the search that follows sees them). Returns how many it indexed.
   */
  async indexTeam(teamId: string, limit = SEARCH_CATCH_UP): Promise<number> {
    // In statements of one batch each, so that other work (PGlite shares the event loop) goes on between them.
    let indexed = 0;
    while (indexed < limit) {
      const rows = await this.db.sql.query<Raw>(
        `UPDATE documents d SET search = document_search_vector(d.title, d.description, d.content)
         FROM (SELECT id FROM documents WHERE team_id = $1 AND search IS NULL ORDER BY created_at LIMIT $2 FOR UPDATE) p
         WHERE d.id = p.id RETURNING d.id`,
        [teamId, Math.min(this.options.batch, limit - indexed)],
      );
      indexed += rows.length;
      if (rows.length === 0) break;
    }
    return indexed;
  }

  /** One background batch: up to `limit` pending documents of any team, skipping rows others hold. */
  async indexBatch(limit = this.options.batch): Promise<number> {
    const rows = await this.db.sql.query<Raw>(
      `UPDATE documents d SET search = document_search_vector(d.title, d.description, d.content)
       FROM (SELECT id FROM documents WHERE search IS NULL ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED) p
       WHERE d.id = p.id RETURNING d.id`,
      [limit],
    );
    return rows.length;
  }

  /** Pending documents: how many, how many arrived since `sinceMs`, and how long the oldest has waited. */
  async backlog(sinceMs: number): Promise<{ pending: number; recent: number; oldestAgeMs: number }> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT count(*) AS pending,
         count(*) FILTER (WHERE created_at > now() - ($1::text || ' milliseconds')::interval) AS recent,
         coalesce(extract(epoch FROM now() - min(created_at)) * 1000, 0) AS oldest_ms
       FROM documents WHERE search IS NULL`,
      [String(Math.max(1, Math.round(sinceMs)))],
    );
    const row = rows[0] ?? {};
    return {
      pending: Number(row['pending'] ?? 0),
      recent: Number(row['recent'] ?? 0),
      oldestAgeMs: Number(row['oldest_ms'] ?? 0),
    };
  }

  /**
   * One background round: nothing when nothing is pending, or while documents arrive faster than
   * `busyDocsPerSecond` and none has waited `maxLagMs`; else one batch. Returns how many it indexed.
   */
  async round(): Promise<number> {
    const since = Math.max(this.options.intervalMs, Date.now() - this.lastRound);
    this.lastRound = Date.now();
    const { pending, recent, oldestAgeMs } = await this.backlog(since);
    if (pending === 0) return 0;
    const busy = recent / (since / 1000) > this.options.busyDocsPerSecond;
    if (busy && oldestAgeMs < this.options.maxLagMs) return 0;
    return this.indexBatch();
  }

  /** Starts the background rounds (idempotent). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.lastRound = Date.now();
    this.schedule(this.options.intervalMs);
  }

  /** Stops the rounds and waits for the one running. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.round().then(
        // A full batch means more is waiting: go on at once while ingestion leaves room.
        (indexed) => this.schedule(indexed >= this.options.batch ? 0 : this.options.intervalMs),
        (error: unknown) => {
          this.logger.warn({ err: error }, 'search indexing round failed; retrying');
          this.schedule(this.options.intervalMs);
        },
      );
    }, delayMs);
    this.timer.unref();
  }
}
