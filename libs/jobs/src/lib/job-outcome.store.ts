import type { JobError, JobKind, ScrapeDocument } from '@quarry/contracts';
import { CreditsService } from '@quarry/billing';
import { Database, Prisma } from '@quarry/platform/database';
import { withSpan } from '@quarry/platform/observability';
import { DocumentRepository, type NewDocument } from './document.repository';
import { newJobRow, type NewJob } from './job.repository';

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

  /** Returns false when the job had already finished. */
  async complete(outcome: CompletedOutcome): Promise<boolean> {
    const attributes = {
      'quarry.job.id': outcome.jobId,
      'quarry.job.kind': outcome.kind,
      'quarry.credits': outcome.credits,
    };
    return withSpan('job complete', { attributes }, () => this.storeCompletion(outcome));
  }

  private async storeCompletion(outcome: CompletedOutcome): Promise<boolean> {
    return this.db.prisma.$transaction(async (tx) => {
      const updated = await tx.job.updateMany({
        where: { id: outcome.jobId, status: { in: ['queued', 'active'] } },
        data: {
          status: 'completed',
          finishedAt: new Date(),
          creditsUsed: outcome.credits,
          result: outcome.result === undefined ? Prisma.DbNull : (outcome.result as Prisma.InputJsonValue),
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
   * its charge in one transaction, without the queued → completed round trip.
   */
  async recordFinished(job: NewJob, outcome: FinishedOutcome): Promise<void> {
    await this.db.prisma.$transaction(async (tx) => {
      await tx.job.create({
        data: {
          ...newJobRow(job),
          status: outcome.error ? 'failed' : 'completed',
          finishedAt: new Date(),
          creditsUsed: outcome.credits,
          result: outcome.result === undefined ? Prisma.DbNull : (outcome.result as Prisma.InputJsonValue),
          ...(outcome.error
            ? { errorCode: outcome.error.code, error: outcome.error.message.slice(0, 4_000) }
            : {}),
        },
      });
      await this.chargeJob(
        tx,
        job.id,
        job.teamId,
        outcome.credits,
        outcome.description ?? job.kind,
        job.apiKeyId,
      );
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

export type { ScrapeDocument };
