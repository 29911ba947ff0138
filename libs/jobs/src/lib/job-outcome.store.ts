import { CreditsService } from '@quarry/billing';
import { AppError, type JobError, type JobKind, type ScrapeDocument } from '@quarry/contracts';
import { Database, Prisma, storableJson } from '@quarry/platform/database';
import { withSpan } from '@quarry/platform/observability';

import { DocumentRepository, type NewDocument } from './document.repository';
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
}

/**
 * Writes a job's outcome in one transaction: the job row, its documents and its charge. A job that
 * already has an outcome is left untouched (redelivery after a crash), so nothing is stored or
 * charged twice.
 */
export class JobOutcomeStore {
  /** Group commit of the jobs recorded finished (cache hits, lockdown misses). */
  private readonly finished: FinishedJobWriter;

  constructor(
    private readonly db: Database,
    private readonly documents: DocumentRepository,
    private readonly credits: CreditsService,
  ) {
    this.finished = new FinishedJobWriter(db.sql);
  }

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
   * its charge, without the queued → completed round trip. It is on the gateway's cache-hit path,
   * where the CPU profile showed the ORM's interactive transaction as the largest cost and then one
   * statement and one hot balance-row update per request: rows are group-committed by
   * `FinishedJobWriter` (typed raw SQL, one data-modifying statement per batch, the same rows as
   * before: job, ledger entry keyed `job:<id>`, balance). Resolves once the row is committed; a
   * duplicate job id rejects, and nothing of it is written.
   */
  async recordFinished(job: NewJob, outcome: FinishedOutcome): Promise<void> {
    const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
    await this.finished.write({
      id: job.id,
      teamId: job.teamId,
      apiKeyId: job.apiKeyId ?? null,
      kind: job.kind,
      status: outcome.error ? 'failed' : 'completed',
      input: job.zeroDataRetention ? null : json(job.input),
      result: json(outcome.result === undefined ? undefined : storableJson(outcome.result)),
      errorCode: outcome.error?.code ?? null,
      error: outcome.error ? outcome.error.message.slice(0, 4_000) : null,
      credits: outcome.credits,
      zeroDataRetention: job.zeroDataRetention,
      idempotencyKey: job.idempotencyKey ?? null,
      expiresAt: job.expiresAt ?? null,
      finishedAt: new Date(),
      description: outcome.description ?? job.kind,
    });
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
