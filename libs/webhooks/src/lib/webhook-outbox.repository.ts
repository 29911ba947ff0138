import { randomUUID } from 'node:crypto';

import type { WebhookDeliverySummary, WebhookSettings } from '@quarry/contracts';
import {
  type Database,
  date,
  json,
  num,
  type Prisma,
  type Raw,
  type SqlExecutor,
} from '@quarry/platform/database';

/** What an event carries until it is sent: the body is built at delivery time. */
export interface WebhookPayload {
  success: boolean;
  error?: string;
  /** A stored document to send as `data[0]`. */
  documentId?: string;
  /** A document kept only until delivered (zero data retention). */
  document?: unknown;
}

export interface PendingDelivery {
  id: string;
  jobId: string;
  teamId: string;
  type: string;
  payload: WebhookPayload;
  attempts: number;
  nextAttemptAt: Date;
}

export interface ClaimedStream {
  jobId: string;
  target: WebhookSettings;
}

/**
 * The webhook outbox (docs/crawl.md#webhooks): events are rows written in the transaction that caused them, so
 * a page event exists exactly when the page's outcome does. One sender at a time holds a job's
 * stream (a lease) and sends its events in order.
 */
export class WebhookOutboxRepository {
  constructor(private readonly db: Database) {}

  /** Registers a job's webhook target (idempotent); done when the job is created. */
  async openStreamIn(tx: SqlExecutor, jobId: string, target: WebhookSettings): Promise<void> {
    await tx.query(
      `INSERT INTO webhook_streams (job_id, target) VALUES ($1, $2) ON CONFLICT (job_id) DO NOTHING`,
      [jobId, JSON.stringify(target)],
    );
  }

  async enqueueIn(
    tx: SqlExecutor,
    event: { jobId: string; teamId: string; type: string; payload: WebhookPayload },
  ): Promise<void> {
    await tx.query(
      `INSERT INTO webhook_deliveries (id, job_id, team_id, type, payload) VALUES ($1, $2, $3, $4, $5)`,
      [randomUUID(), event.jobId, event.teamId, event.type, JSON.stringify(event.payload)],
    );
  }

  /** `openStreamIn` for a writer whose transaction is Prisma's (agent runs, extract jobs); the job is new, so its stream is too. */
  async openStreamInPrisma(
    tx: Prisma.TransactionClient,
    jobId: string,
    target: WebhookSettings<string>,
  ): Promise<void> {
    await tx.webhookStream.create({ data: { jobId, target: target as unknown as Prisma.InputJsonValue } });
  }

  /** `enqueueIn` for a writer whose transaction is Prisma's: the events in order. */
  async enqueueInPrisma(
    tx: Prisma.TransactionClient,
    jobId: string,
    teamId: string,
    events: readonly { type: string; payload: WebhookPayload }[],
  ): Promise<void> {
    for (const event of events) {
      await tx.webhookDelivery.create({
        data: {
          id: randomUUID(),
          jobId,
          teamId,
          type: event.type,
          payload: event.payload as unknown as Prisma.InputJsonValue,
        },
      });
    }
  }

  /** Takes the lease of one stream that has a due event; undefined when none. */
  async claimStream(owner: string, leaseMs: number): Promise<ClaimedStream | undefined> {
    const rows = await this.db.sql.query<Raw>(
      `UPDATE webhook_streams SET lease_owner = $1, lease_until = now() + ($2::text || ' milliseconds')::interval
       WHERE job_id = (
         SELECT s.job_id FROM webhook_streams s
         WHERE (s.lease_until IS NULL OR s.lease_until < now())
           AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.job_id = s.job_id AND d.status = 'pending' AND d.next_attempt_at <= now())
         ORDER BY s.lease_until NULLS FIRST
         LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING job_id, target`,
      [owner, String(leaseMs)],
    );
    const row = rows[0];
    return row ? { jobId: String(row['job_id']), target: json<WebhookSettings>(row['target']) } : undefined;
  }

  async extendLease(jobId: string, owner: string, leaseMs: number): Promise<boolean> {
    const rows = await this.db.sql.query(
      `UPDATE webhook_streams SET lease_until = now() + ($3::text || ' milliseconds')::interval WHERE job_id = $1 AND lease_owner = $2 RETURNING job_id`,
      [jobId, owner, String(leaseMs)],
    );
    return rows.length > 0;
  }

  async releaseStream(jobId: string, owner: string): Promise<void> {
    await this.db.sql.query(
      `UPDATE webhook_streams SET lease_owner = NULL, lease_until = NULL WHERE job_id = $1 AND lease_owner = $2`,
      [jobId, owner],
    );
  }

  /** The stream's undelivered events in order (due or not: order is kept by waiting for the first). */
  async pending(jobId: string, limit: number): Promise<PendingDelivery[]> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT id, job_id, team_id, type, payload, attempts, next_attempt_at FROM webhook_deliveries
       WHERE job_id = $1 AND status = 'pending' ORDER BY seq LIMIT $2`,
      [jobId, limit],
    );
    return rows.map((row) => ({
      id: String(row['id']),
      jobId: String(row['job_id']),
      teamId: String(row['team_id']),
      type: String(row['type']),
      payload: json<WebhookPayload>(row['payload']),
      attempts: num(row['attempts']),
      nextAttemptAt: date(row['next_attempt_at']) as Date,
    }));
  }

  async markDelivered(id: string, status: number): Promise<void> {
    // A zero-data-retention document leaves the outbox once delivered.
    await this.db.sql.query(
      `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now(), attempts = attempts + 1, last_status = $2,
         payload = payload - 'document' WHERE id = $1`,
      [id, status],
    );
  }

  async markAttemptFailed(
    id: string,
    error: string,
    status: number | null,
    retryInMs: number | undefined,
  ): Promise<void> {
    if (retryInMs === undefined) {
      await this.db.sql.query(
        `UPDATE webhook_deliveries SET status = 'failed', attempts = attempts + 1, last_error = $2, last_status = $3, payload = payload - 'document' WHERE id = $1`,
        [id, error.slice(0, 1_000), status],
      );
      return;
    }
    await this.db.sql.query(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, last_error = $2, last_status = $3,
         next_attempt_at = now() + ($4::text || ' milliseconds')::interval WHERE id = $1`,
      [id, error.slice(0, 1_000), status, String(retryInMs)],
    );
  }

  /** How the job's webhook events fared (status bodies); undefined when the job has no webhook stream. */
  async deliverySummary(jobId: string): Promise<WebhookDeliverySummary | undefined> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT EXISTS (SELECT 1 FROM webhook_streams WHERE job_id = $1) AS has_stream,
         count(*) FILTER (WHERE d.status = 'delivered') AS delivered,
         count(*) FILTER (WHERE d.status = 'pending') AS pending,
         count(*) FILTER (WHERE d.status = 'failed') AS failed,
         (SELECT json_build_object('event', e.type, 'error', e.last_error, 'statusCode', e.last_status, 'attempts', e.attempts,
                   'nextAttemptAt', CASE WHEN e.status = 'pending' THEN e.next_attempt_at END)
            FROM webhook_deliveries e WHERE e.job_id = $1 AND e.last_error IS NOT NULL AND e.status <> 'delivered'
            ORDER BY e.seq DESC LIMIT 1) AS last_error
       FROM webhook_deliveries d WHERE d.job_id = $1`,
      [jobId],
    );
    const row = rows[0];
    if (!row || !row['has_stream']) return undefined;
    const last = row['last_error'] ? json<Record<string, unknown>>(row['last_error']) : undefined;
    const summary: WebhookDeliverySummary = {
      delivered: num(row['delivered']),
      pending: num(row['pending']),
      failed: num(row['failed']),
    };
    if (last)
      summary.lastError = {
        event: String(last['event']),
        error: String(last['error']),
        statusCode:
          last['statusCode'] === null || last['statusCode'] === undefined ? null : num(last['statusCode']),
        attempts: num(last['attempts']),
        nextAttemptAt: last['nextAttemptAt'] ? new Date(String(last['nextAttemptAt'])).toISOString() : null,
      };
    return summary;
  }

  async documentContent(documentId: string): Promise<unknown> {
    const rows = await this.db.sql.query<Raw>(`SELECT content FROM documents WHERE id = $1`, [documentId]);
    return rows[0] ? json(rows[0]['content']) : undefined;
  }
}
