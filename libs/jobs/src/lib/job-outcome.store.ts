import { AppError, type JobError, type JobKind, type ScrapeDocument } from '@quarry/contracts';
import { Database, storableJson } from '@quarry/platform/database';
import { withSpan } from '@quarry/platform/observability';

import { documentColumns, type NewDocument } from './document.repository';
import { FinishedJobWriter } from './finished-job.writer';
import type { NewJob } from './job.repository';
import { pageVerdict } from './page-verdict.util';

export interface CompletedOutcome {
  jobId: string;
  teamId: string;
  kind: JobKind;
  apiKeyId?: string;
  credits: number;
  /** Small structured result kept on the job row. */
  result?: unknown;
  /** Documents to store with the outcome (none under zero data retention). */
  documents?: Omit<NewDocument, 'jobId' | 'teamId'>[];
}

export interface FinishedOutcome {
  credits: number;
  /** Small structured result kept on the job row. */
  result?: unknown;
  /** Set: the job is recorded as failed (it may still be charged, as a lockdown miss is). */
  error?: JobError;
  /** Ledger description; the job kind by default. */
  description?: string;
  /** The stored document of the team the job answers from (a cache hit): nothing is recorded once it is gone. */
  documentId?: string;
}

/**
 * Writes a job's outcome in one transaction: the job row, its documents and its charge. A job that
 * already has an outcome is left untouched (redelivery after a crash), so nothing is stored or
 * charged twice.
 */
export class JobOutcomeStore {
  /** Group commit of the jobs recorded finished (cache hits, lockdown misses). */
  private readonly finished: FinishedJobWriter;

  constructor(private readonly db: Database) {
    this.finished = new FinishedJobWriter(db.sql);
  }

  /**
   * Returns false when the job had already finished. A scrape whose document is a browser error
   * page is refused (AppError `SCRAPE_SITE_ERROR`, nothing stored); one answering a refused target
   * is stored as the answer only, without cache key and charge (see `pageVerdict`).
   */
  async complete(outcome: CompletedOutcome): Promise<boolean> {
    return (await this.completeCharged(outcome)).stored;
  }

  /** `complete`, with the credits actually charged (the price, or less when the balance could not cover it). */
  async completeCharged(outcome: CompletedOutcome): Promise<{ stored: boolean; charged: number }> {
    const checked = outcome.kind === 'scrape' ? webOutcome(outcome) : outcome;
    const attributes = {
      'quarry.job.id': checked.jobId,
      'quarry.job.kind': checked.kind,
      'quarry.credits': checked.credits,
    };
    return withSpan('job complete', { attributes }, () => this.storeCompletion(checked));
  }

  /**
   * The job row, its documents and its charge in one data-modifying statement (atomic as a
   * statement): the ORM's interactive transaction (BEGIN, update, insert per document, ledger
   * insert, balance update, COMMIT) was the largest part of a synchronous scrape's path after the
   * fetch itself (≈17 ms of ≈56 on PostgreSQL, ≈19 ms on PGlite), almost all of it round trips and
   * the client's per-statement work. Nothing is inserted or charged when the job had already
   * finished (a redelivery), and the charge is keyed `job:<id>`.
   *
   * The charge comes out of the job's credit hold (JobRepository.create), which is given back in the
   * same statement. A price above the hold (a PDF's pages, a job recorded without a hold) takes the
   * rest from the team's available balance, read on the team row's latest version under its lock,
   * and never more than that: the balance does not go below zero, and the charge recorded — on the
   * job, the ledger and the documents' `creditsUsed` — is what was taken.
   */
  private async storeCompletion(outcome: CompletedOutcome): Promise<{ stored: boolean; charged: number }> {
    const result = outcome.result === undefined ? null : JSON.stringify(storableJson(outcome.result));
    const [row] = await this.db.sql.query<{ updated: unknown; charged: unknown }>(
      `WITH held AS (
         SELECT amount FROM credit_holds WHERE job_id = $1::uuid
       ), team AS (
         SELECT credits - reserved_credits AS available FROM teams WHERE id = $2::uuid FOR UPDATE
       ), price AS (
         SELECT CASE WHEN $4::int <= coalesce((SELECT amount FROM held), 0) THEN $4::int
           ELSE least($4::int, coalesce((SELECT amount FROM held), 0) + greatest(0, coalesce((SELECT available FROM team), 0)))
         END AS charged
       ), job AS (
         UPDATE jobs SET status = 'completed', finished_at = $3::timestamptz, credits_used = (SELECT charged FROM price), result = $5::jsonb
         WHERE id = $1::uuid AND status IN ('queued', 'active')
         RETURNING id
       ), released AS (
         DELETE FROM credit_holds WHERE job_id = $1::uuid AND EXISTS (SELECT 1 FROM job)
         RETURNING amount
       ), docs AS (
         INSERT INTO documents (id, team_id, job_id, source_url, url, url_key, cache_key, status_code, title, description, content)
         SELECT d.id, $2::uuid, job.id, d.source_url, d.url, d.url_key, d.cache_key, d.status_code, d.title, d.description,
           CASE WHEN price.charged = $4::int THEN d.content::jsonb
             ELSE jsonb_set(d.content::jsonb, '{metadata,creditsUsed}', to_jsonb(price.charged)) END
         FROM job, price, unnest($8::uuid[], $9::text[], $10::text[], $11::text[], $12::text[], $13::int[], $14::text[], $15::text[], $16::text[])
           AS d(id, source_url, url, url_key, cache_key, status_code, title, description, content)
         RETURNING 1
       ), charge AS (
         INSERT INTO credit_ledger (team_id, amount, kind, idempotency_key, job_id, api_key_id, description)
         SELECT $2::uuid, -price.charged, 'charge', 'job:' || job.id::text, job.id, $6::uuid, $7 FROM job, price WHERE price.charged <> 0
         ON CONFLICT (idempotency_key) DO NOTHING
         RETURNING amount
       ), balance AS (
         UPDATE teams SET credits = teams.credits + coalesce((SELECT sum(amount) FROM charge), 0),
           reserved_credits = teams.reserved_credits - coalesce((SELECT sum(amount) FROM released), 0)
         WHERE teams.id = $2::uuid AND (EXISTS (SELECT 1 FROM charge) OR EXISTS (SELECT 1 FROM released))
         RETURNING 1
       )
       SELECT count(*)::int AS updated, (SELECT charged FROM price) AS charged FROM job`,
      [
        outcome.jobId,
        outcome.teamId,
        new Date(),
        Math.abs(outcome.credits),
        result,
        outcome.apiKeyId ?? null,
        outcome.kind,
        ...documentColumns(outcome.documents ?? []),
      ],
      { prepareAs: 'jobs_complete' },
    );
    const stored = Number(row?.updated ?? 0) > 0;
    return { stored, charged: stored ? Number(row?.charged ?? 0) : 0 };
  }

  /**
   * A job that ends as it is recorded (a cache hit, a lockdown miss): the row with its outcome and
   * its charge, without the queued → completed round trip. It is on the gateway's cache-hit path,
   * where the CPU profile showed the ORM's interactive transaction as the largest cost and then one
   * statement and one hot balance-row update per request: rows are group-committed by
   * `FinishedJobWriter` (typed raw SQL, one data-modifying statement per batch: job, ledger entry
   * keyed `job:<id>`, balance). Resolves once the row is committed (`recorded`), or with `gone` when
   * `outcome.documentId` names a document that no longer exists (nothing written); rejects with 402
   * when the team's available credits do not cover the charge (nothing written) and when the job id
   * is a duplicate.
   */
  async recordFinished(job: NewJob, outcome: FinishedOutcome): Promise<'recorded' | 'gone'> {
    const status = await this.finished.write({
      id: job.id,
      teamId: job.teamId,
      apiKeyId: job.apiKeyId ?? null,
      kind: job.kind,
      status: outcome.error ? 'failed' : 'completed',
      input: job.zeroDataRetention || job.input === undefined ? null : job.input,
      result: outcome.result === undefined ? null : storableJson(outcome.result),
      errorCode: outcome.error?.code ?? null,
      error: outcome.error ? outcome.error.message.slice(0, 4_000) : null,
      credits: outcome.credits,
      zeroDataRetention: job.zeroDataRetention,
      idempotencyKey: job.idempotencyKey ?? null,
      expiresAt: job.expiresAt ?? null,
      finishedAt: new Date(),
      description: outcome.description ?? job.kind,
      documentId: outcome.documentId ?? null,
    });
    if (status === 'short') throw new AppError('PAYMENT_REQUIRED');
    return status;
  }

  /**
   * Records a failure (failed jobs cost nothing) and gives back the job's credit hold in the same
   * statement. Returns false when the job had already finished.
   */
  async fail(jobId: string, error: JobError, status: 'failed' | 'cancelled' = 'failed'): Promise<boolean> {
    const [row] = await this.db.sql.query<{ updated: unknown }>(
      `WITH job AS (
         UPDATE jobs SET status = $2, finished_at = $3::timestamptz, error_code = $4, error = $5
         WHERE id = $1::uuid AND status IN ('queued', 'active')
         RETURNING id
       ), released AS (
         DELETE FROM credit_holds WHERE job_id = $1::uuid AND EXISTS (SELECT 1 FROM job)
         RETURNING team_id, amount
       ), given_back AS (
         UPDATE teams SET reserved_credits = teams.reserved_credits - released.amount
         FROM released WHERE teams.id = released.team_id
         RETURNING 1
       )
       SELECT count(*)::int AS updated FROM job`,
      [jobId, status, new Date(), error.code, error.message.slice(0, 4_000)],
    );
    return Number(row?.updated ?? 0) > 0;
  }
}

/** The rule of `pageVerdict` applied to a scrape's outcome before anything of it is stored. */
function webOutcome(outcome: CompletedOutcome): CompletedOutcome {
  const documents = outcome.documents ?? [];
  const verdicts = documents.map((entry) => pageVerdict(entry.document, entry.url));
  if (verdicts.includes('error-page')) {
    throw new AppError('SCRAPE_SITE_ERROR', {
      message:
        'The target could not be loaded: the browser showed its own error page instead of a page of the target',
    });
  }
  if (!verdicts.includes('refused')) return outcome;
  return {
    ...outcome,
    credits: 0,
    documents: documents.map((entry, index) =>
      verdicts[index] === 'refused'
        ? {
            ...entry,
            cacheKey: undefined,
            document: { ...entry.document, metadata: { ...entry.document.metadata, creditsUsed: 0 } },
          }
        : entry,
    ),
  };
}

export type { ScrapeDocument };
