import type { JobStatus, ScrapeDocument, WebhookDeliverySummary, WebhookSettings } from '@quarry/contracts';
import type { Database, SqlExecutor } from '@quarry/platform/database';
import type { WebhookOutboxRepository } from '@quarry/webhooks';

import type { FrontierRepository, OutcomeEvent } from '../frontier/frontier.repository';
import type { CollectionKind, CollectionOptions, NewPage } from '../frontier/frontier.types';
import { date, json, num, type Raw } from '../frontier/sql-rows';

export interface NewCollection {
  id: string;
  teamId: string;
  apiKeyId?: string;
  kind: CollectionKind;
  url: string | null;
  /** The validated request as received (kept as the job's input; null under zero data retention). */
  input: unknown;
  options: CollectionOptions;
  pageLimit: number;
  maxConcurrency: number;
  delayMs: number;
  webhook?: WebhookSettings;
  zeroDataRetention: boolean;
  idempotencyKey?: string;
  expiresAt: Date;
  /** Batches know their pages up front; crawls get them at kickoff. */
  pages: NewPage[];
  started?: OutcomeEvent;
}

export interface CollectionCounts {
  inFlight: number;
  queued: number;
  failed: number;
  robotsBlocked: number;
}

export interface StoredPageError {
  id: string;
  url: string;
  code: string | null;
  error: string;
  at: Date | null;
}

export class IdempotencyConflict extends Error {}

/** Gateway-side queries of crawls and batches: creation, status pages, cancel, errors, listings. */
export class CollectionRepository {
  constructor(
    private readonly db: Database,
    private readonly frontier: FrontierRepository,
    private readonly outbox: WebhookOutboxRepository,
  ) {}

  /** How the collection's webhook events fared (its status body). */
  webhookDelivery(id: string): Promise<WebhookDeliverySummary | undefined> {
    return this.outbox.deliverySummary(id);
  }

  /** Creates the job, its collection row, its first pages and its `started` event in one transaction. */
  async create(collection: NewCollection): Promise<void> {
    try {
      await this.db.sql.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO jobs (id, team_id, api_key_id, kind, status, input, zero_data_retention, idempotency_key, expires_at)
           VALUES ($1, $2, $3, $4, 'queued', $5, $6, $7, $8)`,
          [
            collection.id,
            collection.teamId,
            collection.apiKeyId ?? null,
            collection.kind,
            collection.zeroDataRetention ? null : JSON.stringify(collection.input),
            collection.zeroDataRetention,
            collection.idempotencyKey ?? null,
            collection.expiresAt,
          ],
        );
        await tx.query(
          `INSERT INTO crawls (job_id, team_id, kind, url, options, page_limit, max_concurrency, delay_ms, webhook, kicked_off_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            collection.id,
            collection.teamId,
            collection.kind,
            collection.url,
            JSON.stringify(collection.options),
            collection.pageLimit,
            collection.maxConcurrency,
            collection.delayMs,
            collection.webhook ? JSON.stringify(collection.webhook) : null,
            collection.kind === 'batch_scrape' ? new Date() : null,
          ],
        );
        await this.frontier.addPagesIn(tx, collection.id, collection.teamId, collection.pages);
        if (collection.webhook) await this.outbox.openStreamIn(tx, collection.id, collection.webhook);
        if (collection.started)
          await this.outbox.enqueueIn(tx, {
            jobId: collection.id,
            teamId: collection.teamId,
            ...collection.started,
          });
      });
    } catch (error) {
      if (isUniqueViolation(error, 'idempotency_key')) throw new IdempotencyConflict();
      throw error;
    }
  }

  /** Adds URLs to a running or finished batch (`appendToId`); a finished batch runs again. */
  async append(id: string, teamId: string, pages: NewPage[]): Promise<'appended' | 'not-found' | 'ended'> {
    return this.db.sql.transaction(async (tx) => {
      const rows = await tx.query<Raw>(
        `SELECT j.status FROM jobs j JOIN crawls c ON c.job_id = j.id WHERE j.id = $1 AND j.team_id = $2 AND c.kind = 'batch_scrape' FOR UPDATE OF j`,
        [id, teamId],
      );
      if (rows.length === 0) return 'not-found';
      const status = rows[0]['status'] as JobStatus;
      if (status === 'cancelled' || status === 'failed') return 'ended';
      const added = await this.frontier.addPagesIn(tx, id, teamId, pages);
      await tx.query(`UPDATE crawls SET page_limit = page_limit + $2 WHERE job_id = $1`, [id, added]);
      if (status === 'completed')
        await tx.query(`UPDATE jobs SET status = 'active', finished_at = NULL WHERE id = $1`, [id]);
      return 'appended';
    });
  }

  async counts(id: string): Promise<CollectionCounts> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT count(*) FILTER (WHERE status = 'dispatched') AS in_flight, count(*) FILTER (WHERE status = 'queued') AS queued,
              count(*) FILTER (WHERE status = 'failed') AS failed, count(*) FILTER (WHERE status = 'robots_blocked') AS robots_blocked
       FROM crawl_pages WHERE crawl_id = $1 AND status IN ('dispatched', 'queued', 'failed', 'robots_blocked')`,
      [id],
    );
    const row = rows[0] ?? {};
    return {
      inFlight: num(row['in_flight']),
      queued: num(row['queued']),
      failed: num(row['failed']),
      robotsBlocked: num(row['robots_blocked']),
    };
  }

  /** Stored documents with finish order in (afterSeq, afterSeq + limit], in that order. */
  async documents(
    id: string,
    afterSeq: number,
    limit: number,
  ): Promise<{ seq: number; document: ScrapeDocument; bytes: number }[]> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT p.completed_seq, d.content::text AS content FROM crawl_pages p JOIN documents d ON d.id = p.document_id
       WHERE p.crawl_id = $1 AND p.completed_seq > $2 AND p.completed_seq <= $3 ORDER BY p.completed_seq`,
      [id, afterSeq, afterSeq + limit],
    );
    return rows.map((row) => {
      const text = String(row['content']);
      return {
        seq: num(row['completed_seq']),
        document: JSON.parse(text) as ScrapeDocument,
        bytes: Buffer.byteLength(text),
      };
    });
  }

  /** Cancels a running collection (status becomes `cancelled` at once); false when it had ended. */
  async cancel(id: string): Promise<boolean> {
    return this.db.sql.transaction(async (tx: SqlExecutor) => {
      const rows = await tx.query(
        `UPDATE jobs SET status = 'cancelled', finished_at = now() WHERE id = $1 AND status IN ('queued', 'active') RETURNING id`,
        [id],
      );
      if (rows.length === 0) return false;
      await tx.query(
        `UPDATE crawl_pages SET status = 'skipped', finished_at = now() WHERE crawl_id = $1 AND status = 'queued'`,
        [id],
      );
      return true;
    });
  }

  async errors(id: string, limit: number): Promise<{ errors: StoredPageError[]; robotsBlocked: string[] }> {
    const failed = await this.db.sql.query<Raw>(
      `SELECT id, url, error_code, error, finished_at FROM crawl_pages WHERE crawl_id = $1 AND status = 'failed' ORDER BY seq LIMIT $2`,
      [id, limit],
    );
    const blocked = await this.db.sql.query<Raw>(
      `SELECT url FROM crawl_pages WHERE crawl_id = $1 AND status = 'robots_blocked' ORDER BY seq LIMIT $2`,
      [id, limit],
    );
    return {
      errors: failed.map((row) => ({
        id: String(row['id']),
        url: String(row['url']),
        code: (row['error_code'] as string | null) ?? null,
        error: String(row['error'] ?? ''),
        at: date(row['finished_at']),
      })),
      robotsBlocked: blocked.map((row) => String(row['url'])),
    };
  }

  async active(
    teamId: string,
  ): Promise<{ id: string; url: string; createdAt: Date; options: CollectionOptions }[]> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT c.job_id, c.url, c.options, j.created_at FROM crawls c JOIN jobs j ON j.id = c.job_id
       WHERE c.team_id = $1 AND c.kind = 'crawl' AND j.status IN ('queued', 'active') ORDER BY j.created_at`,
      [teamId],
    );
    return rows.map((row) => ({
      id: String(row['job_id']),
      url: String(row['url'] ?? ''),
      createdAt: date(row['created_at']) as Date,
      options: json<CollectionOptions>(row['options']),
    }));
  }
}

function isUniqueViolation(error: unknown, column: string): boolean {
  const candidate = error as { code?: string; constraint?: string; detail?: string; message?: string };
  if (candidate?.code !== '23505') return false;
  return [candidate.constraint, candidate.detail, candidate.message].some(
    (text) => typeof text === 'string' && text.includes(column),
  );
}
