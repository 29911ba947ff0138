import { CreditsService } from '@quarry/billing';
import { AppError, type JobError, type JobKind, type ScrapeDocument } from '@quarry/contracts';
import { Database, Prisma, storableJson } from '@quarry/platform/database';
import { withSpan } from '@quarry/platform/observability';

import { DocumentRepository, type NewDocument } from './document.repository';
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
}

/**
 * Writes a job's outcome in one transaction: the job row, its documents and its charge. A job that
 * already has an outcome is left untouched (redelivery after a crash), so nothing is stored or
 * charged twice.
 */
export class JobOutcomeStore {
  constructor(
    private readonly db: Database,
    private readonly documents: DocumentRepository,
    private readonly credits: CreditsService,
  ) {}

  /**
   * Returns false when the job had already finished. A scrape whose document is a browser error
   * page is refused (AppError `SCRAPE_SITE_ERROR`, nothing stored); one answering a refused target
   * is stored as the answer only, without cache key and charge (see `pageVerdict`).
   */
  async complete(outcome: CompletedOutcome): Promise<boolean> {
    const checked = outcome.kind === 'scrape' ? webOutcome(outcome) : outcome;
    const attributes = {
      'quarry.job.id': checked.jobId,
      'quarry.job.kind': checked.kind,
      'quarry.credits': checked.credits,
    };
    return withSpan('job complete', { attributes }, () => this.storeCompletion(checked));
  }

  private async storeCompletion(outcome: CompletedOutcome): Promise<boolean> {
    return this.db.prisma.$transaction(async (tx) => {
      const updated = await tx.job.updateMany({
        where: { id: outcome.jobId, status: { in: ['queued', 'active'] } },
        data: {
          status: 'completed',
          finishedAt: new Date(),
          creditsUsed: outcome.credits,
          result:
            outcome.result === undefined
              ? Prisma.DbNull
              : (storableJson(outcome.result) as Prisma.InputJsonValue),
        },
      });
      if (updated.count === 0) return false;
      for (const document of outcome.documents ?? []) {
        await this.documents.insertIn(tx, { ...document, jobId: outcome.jobId, teamId: outcome.teamId });
      }
      await this.chargeJob(
        tx,
        outcome.jobId,
        outcome.teamId,
        outcome.credits,
        outcome.kind,
        outcome.apiKeyId,
      );
      return true;
    });
  }

  /**
   * A job that ends as it is recorded (a cache hit, a lockdown miss): the row with its outcome and
   * its charge in one statement, without the queued → completed round trip. It is on the gateway's
   * cache-hit path, where the CPU profile showed the ORM's interactive transaction (BEGIN, three
   * statements, COMMIT: five round trips and the client's per-statement work) as the largest cost,
   * so it is one data-modifying CTE through the raw executor instead: atomic as a statement, the same
   * rows as before (job, ledger entry keyed `job:<id>`, balance), a duplicate job id fails it whole.
   */
  async recordFinished(job: NewJob, outcome: FinishedOutcome): Promise<void> {
    const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
    await this.db.sql.query(
      `WITH job AS (
         INSERT INTO jobs (id, team_id, api_key_id, kind, status, input, result, error_code, error, credits_used,
                           zero_data_retention, idempotency_key, expires_at, finished_at)
         VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5, $6::jsonb, $7::jsonb, $8, $9, $10::int, $11, $12, $13::timestamptz, $14::timestamptz)
         RETURNING id
       ), charge AS (
         INSERT INTO credit_ledger (team_id, amount, kind, idempotency_key, job_id, api_key_id, description)
         SELECT $2::uuid, -abs($10::int), 'charge', 'job:' || job.id::text, job.id, $3::uuid, $15 FROM job WHERE $10::int <> 0
         ON CONFLICT (idempotency_key) DO NOTHING
         RETURNING amount
       )
       UPDATE teams SET credits = teams.credits + charge.amount FROM charge WHERE teams.id = $2::uuid`,
      [
        job.id,
        job.teamId,
        job.apiKeyId ?? null,
        job.kind,
        outcome.error ? 'failed' : 'completed',
        job.zeroDataRetention ? null : json(job.input),
        json(outcome.result === undefined ? undefined : storableJson(outcome.result)),
        outcome.error?.code ?? null,
        outcome.error ? outcome.error.message.slice(0, 4_000) : null,
        outcome.credits,
        job.zeroDataRetention,
        job.idempotencyKey ?? null,
        job.expiresAt ?? null,
        new Date(),
        outcome.description ?? job.kind,
      ],
    );
  }

  /** The job's one charge: keyed by the job id, so a redelivered outcome never charges twice. */
  private chargeJob(
    tx: Prisma.TransactionClient,
    jobId: string,
    teamId: string,
    credits: number,
    description: string,
    apiKeyId?: string,
  ) {
    return this.credits.chargeIn(tx, {
      teamId,
      amount: credits,
      idempotencyKey: `job:${jobId}`,
      jobId,
      apiKeyId,
      description,
    });
  }

  /** Records a failure (failed jobs cost nothing). Returns false when the job had already finished. */
  async fail(jobId: string, error: JobError, status: 'failed' | 'cancelled' = 'failed'): Promise<boolean> {
    const result = await this.db.prisma.job.updateMany({
      where: { id: jobId, status: { in: ['queued', 'active'] } },
      data: { status, finishedAt: new Date(), errorCode: error.code, error: error.message.slice(0, 4_000) },
    });
    return result.count > 0;
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
