import { type JobError, type ScrapeDocument, urlKey } from '@quarry/contracts';
import { type Database, type SqlExecutor, storableJson } from '@quarry/platform/database';
import type { WebhookOutboxRepository, WebhookPayload } from '@quarry/webhooks';

import type { CollectionRow, NewPage, PageRow, PageStatus } from './frontier.types';
import { COLLECTION_COLUMNS, num, PAGE_COLUMNS, type Raw, toCollection, toPage } from './sql-rows';

/** A webhook event to write with an outcome (already filtered by the caller's `events`). */
export interface OutcomeEvent {
  type: string;
  payload: WebhookPayload;
}

export interface CompletedPage {
  page: PageRow;
  collection: CollectionRow;
  /** Stored unless the collection has zero data retention. */
  document: ScrapeDocument;
  store: boolean;
  credits: number;
  /** Rows the page added to the frontier (see addDiscovered), counted into the frontier size. */
  added: number;
  event?: OutcomeEvent;
}

export type CompletionResult =
  | { stored: true; completedSeq: number; documentId?: string }
  | { stored: false; reason: 'already-handled' | 'inactive' | 'no-credits' };

class Rollback extends Error {
  constructor(readonly reason: 'inactive' | 'no-credits' | 'already-handled') {
    super(reason);
  }
}

const firstString = (value: unknown): string | null =>
  typeof value === 'string'
    ? value.slice(0, 2_000)
    : Array.isArray(value) && typeof value[0] === 'string'
      ? value[0].slice(0, 2_000)
      : null;

/**
 * The crawl frontier in PostgreSQL (DESIGN "Data flow" 5): one row per crawl and normalised URL,
 * page outcomes written with their document, charge and webhook event in one transaction, so a
 * redelivered page is never stored or charged twice.
 */
export class FrontierRepository {
  constructor(
    private readonly db: Database,
    private readonly outbox: WebhookOutboxRepository,
  ) {}

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.db.sql.transaction(work);
  }

  async loadCollection(id: string, executor: SqlExecutor = this.db.sql): Promise<CollectionRow | undefined> {
    const rows = await executor.query<Raw>(
      `SELECT ${COLLECTION_COLUMNS} FROM crawls c JOIN jobs j ON j.id = c.job_id WHERE c.job_id = $1`,
      [id],
      { prepareAs: 'crawl_load_collection' },
    );
    return rows[0] ? toCollection(rows[0]) : undefined;
  }

  async loadPage(id: string): Promise<PageRow | undefined> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT ${PAGE_COLUMNS} FROM crawl_pages p JOIN jobs j ON j.id = p.crawl_id JOIN crawls c ON c.job_id = p.crawl_id WHERE p.id = $1`,
      [id],
      { prepareAs: 'crawl_load_page' },
    );
    return rows[0] ? toPage(rows[0]) : undefined;
  }

  /**
   * Counts a run of a dispatched page. `exhausted`: `maxStarts` earlier runs ended without an outcome
   * (their worker died), so the page is poison; `running`: out of starts, but the latest run began
   * within `leaseMs` and may still be going; `gone`: it has an outcome or is no longer dispatched.
   */
  async startPage(
    id: string,
    maxStarts: number,
    leaseMs: number,
  ): Promise<'started' | 'running' | 'exhausted' | 'gone'> {
    // A run renews the page's lease (dispatched_at) and records when it began. A page out of starts
    // whose latest run began within the lease is held by a live run elsewhere (a duplicate delivery,
    // e.g. after a consumer-group rebalance): 'running', not poison.
    const rows = await this.db.sql.query<Raw>(
      `WITH target AS (SELECT id, starts, started_at FROM crawl_pages WHERE id = $1 AND status = 'dispatched' FOR UPDATE),
            started AS (UPDATE crawl_pages p SET starts = p.starts + 1, started_at = now(), dispatched_at = now()
                        FROM target t WHERE p.id = t.id AND t.starts < $2 RETURNING p.id)
       SELECT (SELECT count(*) FROM target)::int AS dispatched, (SELECT count(*) FROM started)::int AS started,
              (SELECT count(*) FROM target WHERE started_at > now() - ($3::text || ' milliseconds')::interval)::int AS running`,
      [id, maxStarts, String(leaseMs)],
      { prepareAs: 'crawl_start_page' },
    );
    const row = rows[0] ?? {};
    if (num(row['started']) > 0) return 'started';
    if (num(row['dispatched']) === 0) return 'gone';
    return num(row['running']) > 0 ? 'running' : 'exhausted';
  }

  /** Gives back a run that ended for the platform's own reasons (redelivered, not counted). */
  async releasePage(id: string): Promise<void> {
    await this.db.sql.query(
      `UPDATE crawl_pages SET starts = starts - 1 WHERE id = $1 AND status = 'dispatched' AND starts > 0`,
      [id],
    );
  }

  /** Adds rows and counts them into the frontier size; returns how many were new. */
  async addPagesIn(tx: SqlExecutor, crawlId: string, teamId: string, pages: NewPage[]): Promise<number> {
    const added = await this.insertPagesIn(tx, crawlId, teamId, pages);
    if (added > 0)
      await tx.query(`UPDATE crawls SET frontier_size = frontier_size + $2 WHERE job_id = $1`, [
        crawlId,
        added,
      ]);
    return added;
  }

  /**
   * Adds rows (first spelling of a URL wins) without touching the crawl row; returns how many were
   * new. Rows are inserted in key order: concurrent inserts of overlapping URL sets then wait for
   * each other in one direction only and cannot deadlock.
   */
  async insertPagesIn(tx: SqlExecutor, crawlId: string, teamId: string, pages: NewPage[]): Promise<number> {
    if (pages.length === 0) return 0;
    const rows = await tx.query(
      `INSERT INTO crawl_pages (crawl_id, team_id, url, url_key, host, depth, trap_run, rank, status)
       SELECT $1, $2, u.url, u.url_key, u.host, u.depth, u.trap_run, u.rank, u.status
       FROM unnest($3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::bigint[], $9::text[]) AS u(url, url_key, host, depth, trap_run, rank, status)
       ORDER BY u.url_key
       ON CONFLICT (crawl_id, url_key) DO NOTHING RETURNING id`,
      [
        crawlId,
        teamId,
        pages.map((page) => page.url),
        pages.map((page) => page.urlKey),
        pages.map((page) => page.origin),
        pages.map((page) => page.depth),
        pages.map((page) => page.trapRun),
        pages.map((page) => page.rank),
        pages.map((page) => page.status),
      ],
      { prepareAs: 'crawl_insert_pages' },
    );
    return rows.length;
  }

  /**
   * Links found on a page, added in their own short statement rather than with the page's outcome:
   * a page redelivered after a crash finds them again, and keeping them out of the outcome
   * transaction keeps that transaction from waiting on other pages' inserts.
   */
  async addDiscovered(crawlId: string, teamId: string, pages: NewPage[]): Promise<number> {
    return this.insertPagesIn(this.db.sql, crawlId, teamId, pages);
  }

  async markKickedOffIn(tx: SqlExecutor, crawlId: string): Promise<void> {
    await tx.query(`UPDATE crawls SET kicked_off_at = now() WHERE job_id = $1 AND kicked_off_at IS NULL`, [
      crawlId,
    ]);
  }

  /** Reserves a URL reached by a redirect so no other page stores it again; false when it is taken. */
  async claimAlias(collection: CollectionRow, page: NewPage): Promise<boolean> {
    return this.transaction(
      async (tx) =>
        (await this.addPagesIn(tx, collection.id, collection.teamId, [{ ...page, status: 'alias' }])) === 1,
    );
  }

  // --- robots.txt per crawl and origin -------------------------------------------------------

  /** True when this caller is the one to fetch the origin's robots.txt. */
  async claimRobots(crawlId: string, origin: string): Promise<boolean> {
    const rows = await this.db.sql.query(
      `INSERT INTO crawl_hosts (crawl_id, host, robots_state) VALUES ($1, $2, 'pending') ON CONFLICT (crawl_id, host) DO NOTHING RETURNING host`,
      [crawlId, origin],
    );
    return rows.length === 1;
  }

  async saveRobots(crawlId: string, origin: string, status: number, text: string): Promise<void> {
    await this.db.sql.query(
      `UPDATE crawl_hosts SET robots_state = 'ready', robots_status = $3, robots_txt = $4, fetched_at = now() WHERE crawl_id = $1 AND host = $2`,
      [crawlId, origin, status, text],
    );
  }

  async loadRobots(crawlId: string, origin: string): Promise<{ ready: boolean; text: string } | undefined> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT robots_state, robots_txt FROM crawl_hosts WHERE crawl_id = $1 AND host = $2`,
      [crawlId, origin],
    );
    const row = rows[0];
    return row
      ? { ready: row['robots_state'] === 'ready', text: String(row['robots_txt'] ?? '') }
      : undefined;
  }

  // --- page outcomes ----------------------------------------------------------------------------

  /** Ends a dispatched page without a document (failure, robots, duplicate, skipped). False when already ended. */
  async endPage(
    page: PageRow,
    status: Extract<PageStatus, 'failed' | 'robots_blocked' | 'duplicate' | 'skipped'>,
    error?: JobError,
    event?: OutcomeEvent,
  ): Promise<boolean> {
    return this.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE crawl_pages SET status = $2, error_code = $3, error = $4, finished_at = now() WHERE id = $1 AND status = 'dispatched' RETURNING id`,
        [page.id, status, error?.code ?? null, error?.message.slice(0, 4_000) ?? null],
      );
      if (rows.length === 0) return false;
      if (event && (await this.isActiveIn(tx, page.crawlId))) {
        await this.outbox.enqueueIn(tx, { jobId: page.crawlId, teamId: page.teamId, ...event });
      }
      return true;
    });
  }

  /**
   * Stores a scraped page: frontier row, document, discovered links, charge, job credits and the
   * page's webhook event, in one transaction. Statements that lock shared rows (team, job, crawl)
   * come last so they are held only until the commit.
   */
  async completePage(completed: CompletedPage): Promise<CompletionResult> {
    const input = { ...completed, document: storableJson(completed.document) };
    const { page, collection } = input;
    try {
      return await this.transaction(async (tx) => {
        const claimed = await tx.query(
          `UPDATE crawl_pages SET status = 'completed', finished_at = now(), credits = $2 WHERE id = $1 AND status = 'dispatched' RETURNING id`,
          [page.id, input.credits],
        );
        if (claimed.length === 0) throw new Rollback('already-handled');
        let documentId: string | undefined;
        if (input.store) {
          const metadata = input.document.metadata;
          const inserted = await tx.query<Raw>(
            `INSERT INTO documents (id, team_id, job_id, source_url, url, url_key, status_code, title, description, content)
             VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
            [
              page.teamId,
              page.crawlId,
              metadata.sourceURL,
              metadata.url,
              urlKey(metadata.url),
              metadata.statusCode,
              firstString(metadata.title),
              firstString(metadata.description),
              JSON.stringify(input.document),
            ],
          );
          documentId = String(inserted[0]['id']);
        }
        if (input.credits > 0) {
          const charged = await tx.query(
            `INSERT INTO credit_ledger (team_id, amount, kind, idempotency_key, job_id, api_key_id, description)
             VALUES ($1, $2, 'charge', $3, $4, $5, $6) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
            [
              page.teamId,
              -input.credits,
              `page:${page.id}`,
              page.crawlId,
              collection.apiKeyId,
              collection.kind,
            ],
          );
          if (charged.length > 0) {
            const team = await tx.query(
              `UPDATE teams SET credits = credits - $2 WHERE id = $1 AND credits - reserved_credits >= $2 RETURNING credits`,
              [page.teamId, input.credits],
            );
            if (team.length === 0) throw new Rollback('no-credits');
          }
        }
        const job = await tx.query(
          `UPDATE jobs SET credits_used = credits_used + $2, status = 'active', started_at = coalesce(started_at, now())
           WHERE id = $1 AND status IN ('queued', 'active') RETURNING id`,
          [page.crawlId, input.credits],
        );
        if (job.length === 0) throw new Rollback('inactive');
        const counter = await tx.query<Raw>(
          `UPDATE crawls SET completed_count = completed_count + 1, frontier_size = frontier_size + $2 WHERE job_id = $1 RETURNING completed_count`,
          [page.crawlId, input.added],
        );
        const completedSeq = num(counter[0]['completed_count']);
        await tx.query(`UPDATE crawl_pages SET completed_seq = $2, document_id = $3 WHERE id = $1`, [
          page.id,
          completedSeq,
          documentId ?? null,
        ]);
        if (input.event) {
          // The page event names its document, whose id exists only now.
          const payload = documentId ? { ...input.event.payload, documentId } : input.event.payload;
          await this.outbox.enqueueIn(tx, {
            jobId: page.crawlId,
            teamId: page.teamId,
            type: input.event.type,
            payload,
          });
        }
        return { stored: true as const, completedSeq, documentId };
      });
    } catch (error) {
      if (error instanceof Rollback) return { stored: false, reason: error.reason };
      throw error;
    }
  }

  /**
   * Whether the collection still runs. The share lock waits for a concurrent finish (whose UPDATE
   * locks the row), so a page event is never written after the collection's final event (docs/crawl.md#webhooks).
   */
  private async isActiveIn(tx: SqlExecutor, id: string): Promise<boolean> {
    const rows = await tx.query(
      `SELECT 1 FROM jobs WHERE id = $1 AND status IN ('queued', 'active') FOR SHARE`,
      [id],
    );
    return rows.length > 0;
  }

  /** Ends a collection (completed, failed or cancelled); false when it had already ended. */
  async finishCollectionIn(
    tx: SqlExecutor,
    collection: Pick<CollectionRow, 'id' | 'teamId'>,
    status: 'completed' | 'failed',
    error?: JobError,
    event?: OutcomeEvent,
  ): Promise<boolean> {
    const rows = await tx.query(
      `UPDATE jobs SET status = $2, finished_at = now(), error_code = $3, error = $4 WHERE id = $1 AND status IN ('queued', 'active') RETURNING id`,
      [collection.id, status, error?.code ?? null, error?.message.slice(0, 4_000) ?? null],
    );
    if (rows.length === 0) return false;
    await tx.query(
      `UPDATE crawl_pages SET status = 'skipped', finished_at = now() WHERE crawl_id = $1 AND status = 'queued'`,
      [collection.id],
    );
    if (event) await this.outbox.enqueueIn(tx, { jobId: collection.id, teamId: collection.teamId, ...event });
    return true;
  }
}
