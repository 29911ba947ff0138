import { JOB_KINDS, type JobError, type JobKind, type JobStatus } from '@quarry/contracts';
import { Database, Prisma } from '@quarry/platform/database';

export interface JobRecord {
  id: string;
  teamId: string;
  kind: JobKind;
  status: JobStatus;
  input: unknown;
  result: unknown;
  error?: JobError;
  creditsUsed: number;
  attempts: number;
  zeroDataRetention: boolean;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  expiresAt: Date | null;
}

export interface NewJob {
  id: string;
  teamId: string;
  apiKeyId?: string;
  kind: JobKind;
  input?: unknown;
  zeroDataRetention: boolean;
  idempotencyKey?: string;
  expiresAt?: Date;
}

const TERMINAL: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];

export function isTerminal(status: JobStatus): boolean {
  return TERMINAL.includes(status);
}

/** Marker of a job whose caller was answered 408 "processing_continues" while it was still queued. */
const CONTINUES = { continuesAfterTimeout: true } as const;

/** True when the job's caller stopped waiting and was told it goes on: it runs with its full time budget. */
export function continuesAfterTimeout(job: Pick<JobRecord, 'result'>): boolean {
  return (job.result as { continuesAfterTimeout?: unknown } | null)?.continuesAfterTimeout === true;
}

type JobRow = Awaited<ReturnType<Database['prisma']['job']['findUnique']>>;

function toRecord(row: NonNullable<JobRow>): JobRecord {
  return {
    id: row.id,
    teamId: row.teamId,
    kind: row.kind as JobKind,
    status: row.status as JobStatus,
    input: row.input,
    result: row.result,
    error: row.errorCode ? ({ code: row.errorCode, message: row.error ?? '' } as JobError) : undefined,
    creditsUsed: row.creditsUsed,
    attempts: row.attempts,
    zeroDataRetention: row.zeroDataRetention,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    expiresAt: row.expiresAt,
  };
}

/** The row of a new job (under zero data retention its input is not kept). */
export function newJobRow(job: NewJob) {
  return {
    id: job.id,
    teamId: job.teamId,
    apiKeyId: job.apiKeyId,
    kind: job.kind,
    input:
      job.zeroDataRetention || job.input === undefined ? Prisma.DbNull : (job.input as Prisma.InputJsonValue),
    zeroDataRetention: job.zeroDataRetention,
    idempotencyKey: job.idempotencyKey,
    expiresAt: job.expiresAt,
  };
}

/** Queries of the jobs table. Outcomes are written by JobOutcomeStore (one transaction with documents and charges). */
export class JobRepository {
  constructor(private readonly db: Database) {}

  async create(job: NewJob): Promise<void> {
    await this.db.prisma.job.create({ data: { ...newJobRow(job), status: 'queued' } });
  }

  async find(id: string): Promise<JobRecord | undefined> {
    const row = await this.db.prisma.job.findUnique({ where: { id } });
    return row ? toRecord(row) : undefined;
  }

  /** Terminal jobs among `ids` (one query for every waiting request of a gateway). */
  async findFinished(ids: readonly string[]): Promise<JobRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.prisma.job.findMany({
      where: { id: { in: [...ids] }, status: { in: [...TERMINAL] } },
    });
    return rows.map(toRecord);
  }

  /** A job of the team; another team's job is reported exactly like an unknown one. */
  async findForTeam(id: string, teamId: string, kind?: JobKind): Promise<JobRecord | undefined> {
    const row = await this.db.prisma.job.findFirst({ where: { id, teamId, ...(kind ? { kind } : {}) } });
    return row ? toRecord(row) : undefined;
  }

  /**
   * Marks a queued or interrupted job as running. `finished`: it already has an outcome.
   * `exhausted`: `maxAttempts` earlier starts never recorded an outcome (each one's process died or
   * was killed while it ran): the job is poison and must be quarantined, not run again.
   */
  async start(id: string, maxAttempts: number): Promise<'started' | 'finished' | 'exhausted'> {
    const result = await this.db.prisma.job.updateMany({
      where: { id, status: { in: ['queued', 'active'] }, attempts: { lt: maxAttempts } },
      data: { status: 'active', startedAt: new Date(), attempts: { increment: 1 } },
    });
    if (result.count > 0) return 'started';
    const job = await this.find(id);
    return job && !isTerminal(job.status) ? 'exhausted' : 'finished';
  }

  /**
   * Gives back a start that ended without an outcome for a reason of the platform's own (the
   * database or the bus failed, and the message is redelivered): it does not count as an attempt.
   */
  async release(id: string): Promise<void> {
    await this.db.prisma.job.updateMany({
      where: { id, status: 'active', attempts: { gt: 0 } },
      data: { status: 'queued', attempts: { decrement: 1 } },
    });
  }

  /**
   * Marks a job that no worker has started yet as going on after its caller stopped waiting (a 408
   * with `processing_continues`); false when a worker already took it or it has an outcome.
   */
  async continueAfterTimeout(id: string): Promise<boolean> {
    const result = await this.db.prisma.job.updateMany({
      where: { id, status: 'queued' },
      data: { result: CONTINUES },
    });
    return result.count > 0;
  }

  async setStatus(id: string, status: JobStatus, error?: JobError): Promise<boolean> {
    const result = await this.db.prisma.job.updateMany({
      where: { id, status: { notIn: [...TERMINAL] } },
      data: {
        status,
        ...(isTerminal(status) ? { finishedAt: new Date() } : {}),
        ...(error ? { errorCode: error.code, error: error.message } : {}),
      },
    });
    return result.count > 0;
  }

  /**
   * Closes bus-delivered jobs (scrape, parse, interact) still unfinished `olderThanMs` after they were
   * created: their worker and their caller are gone (a one-process restart loses in-memory messages).
   */
  async failAbandoned(olderThanMs: number, error: JobError): Promise<number> {
    const result = await this.db.prisma.job.updateMany({
      where: {
        kind: { in: ['scrape', 'parse', 'interact'] },
        status: { in: ['queued', 'active'] },
        createdAt: { lt: new Date(Date.now() - olderThanMs) },
      },
      data: { status: 'failed', finishedAt: new Date(), errorCode: error.code, error: error.message },
    });
    return result.count;
  }

  async deleteExpired(now = new Date()): Promise<number> {
    const result = await this.db.prisma.job.deleteMany({ where: { expiresAt: { lt: now } } });
    return result.count;
  }

  /** Jobs not finished yet, by kind and status, zeros included (served by the (status, kind) index). */
  async countPending(): Promise<{ kind: string; status: string; count: number }[]> {
    const groups = await this.db.prisma.job.groupBy({
      by: ['kind', 'status'],
      where: { status: { in: ['queued', 'active'] } },
      _count: { _all: true },
    });
    const counts = new Map(groups.map((group) => [`${group.kind}/${group.status}`, group._count._all]));
    return JOB_KINDS.flatMap((kind) =>
      (['queued', 'active'] as const).map((status) => ({
        kind,
        status,
        count: counts.get(`${kind}/${status}`) ?? 0,
      })),
    );
  }
}
