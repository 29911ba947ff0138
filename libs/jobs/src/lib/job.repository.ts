import { AppError, JOB_KINDS, type JobError, type JobKind, type JobStatus } from '@quarry/contracts';
import { Database, date, num, type Raw } from '@quarry/platform/database';

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
  /**
   * Credits held for the job from its team's available balance, in the statement that records it
   * (none available: 402 and no job); charged or given back when the job ends (JobOutcomeStore).
   */
  holdCredits?: number;
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

/** The columns of a job row read through the raw executor (see rawRecord). */
const JOB_COLUMNS = `id, team_id, kind, status, input, result, error_code, error, credits_used, attempts,
  zero_data_retention, created_at, started_at, finished_at, expires_at`;

/** A job row of the raw executor (snake_case; jsonb already parsed by both drivers). */
function rawRecord(row: Raw): JobRecord {
  const errorCode = row['error_code'] as string | null;
  return {
    id: String(row['id']),
    teamId: String(row['team_id']),
    kind: row['kind'] as JobKind,
    status: row['status'] as JobStatus,
    input: row['input'] ?? null,
    result: row['result'] ?? null,
    error: errorCode
      ? ({ code: errorCode, message: (row['error'] as string | null) ?? '' } as JobError)
      : undefined,
    creditsUsed: num(row['credits_used']),
    attempts: num(row['attempts']),
    zeroDataRetention: row['zero_data_retention'] === true,
    createdAt: date(row['created_at']) as Date,
    startedAt: date(row['started_at']),
    finishedAt: date(row['finished_at']),
    expiresAt: date(row['expires_at']),
  };
}

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

/** Queries of the jobs table. Outcomes are written by JobOutcomeStore (one transaction with documents and charges). */
export class JobRepository {
  constructor(private readonly db: Database) {}

  /**
   * Records a queued job. It is the first write of every synchronous scrape, parse and interact call,
   * where the ORM's create cost 3–5 ms of the request (client-side query planning and its own
   * round-trip handling): one raw INSERT through the same pool instead, the same row. With
   * `holdCredits`, the same statement holds that many credits of the team's available balance
   * (`credits - reserved_credits`, decided on the team row's latest version) and records the job
   * only when they were available; otherwise nothing is written and the call fails with 402.
   * `durable: false` (a synchronous caller waits for the outcome): the commit does not wait for the
   * disk (`relaxedSql`); the job's outcome, which does, makes it durable.
   */
  async create(job: NewJob, options: { durable?: boolean } = {}): Promise<void> {
    const sql = options.durable === false ? this.db.relaxedSql : this.db.sql;
    const input = job.zeroDataRetention || job.input === undefined ? null : JSON.stringify(job.input);
    const values = [
      job.id,
      job.teamId,
      job.apiKeyId ?? null,
      job.kind,
      input,
      job.zeroDataRetention,
      job.idempotencyKey ?? null,
      job.expiresAt ?? null,
    ];
    const hold = job.holdCredits ?? 0;
    if (hold <= 0) {
      await sql.query(
        `INSERT INTO jobs (id, team_id, api_key_id, kind, status, input, zero_data_retention, idempotency_key, expires_at)
         VALUES ($1::uuid, $2::uuid, $3::uuid, $4, 'queued', $5::jsonb, $6, $7, $8::timestamptz)`,
        values,
        { prepareAs: 'jobs_create' },
      );
      return;
    }
    const rows = await sql.query(
      `WITH hold AS (
         UPDATE teams SET reserved_credits = reserved_credits + $9::int
         WHERE id = $2::uuid AND credits - reserved_credits >= $9::int
         RETURNING id
       ), held AS (
         INSERT INTO credit_holds (job_id, team_id, amount) SELECT $1::uuid, id, $9::int FROM hold
       )
       INSERT INTO jobs (id, team_id, api_key_id, kind, status, input, zero_data_retention, idempotency_key, expires_at)
       SELECT $1::uuid, $2::uuid, $3::uuid, $4, 'queued', $5::jsonb, $6, $7, $8::timestamptz FROM hold
       RETURNING 1`,
      [...values, hold],
      { prepareAs: 'jobs_create_held' },
    );
    if (rows.length === 0) throw new AppError('PAYMENT_REQUIRED');
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
   * Starts a job no delivery has started yet (queued, no attempt counted) and returns it as it was
   * before this start, in one statement; undefined for every other job (missing, finished, started
   * before, continued after a timeout is still fresh): those take the admit → claim path of
   * WorkerJob. Fresh jobs are every first delivery, so the worker's usual path is one round trip.
   */
  async startFresh(id: string): Promise<JobRecord | undefined> {
    // Relaxed commit (Database.relaxedSql): losing the claim in a database crash only gives the job its attempt back.
    const rows = await this.db.relaxedSql.query<Raw>(
      `UPDATE jobs SET status = 'active', started_at = $2::timestamptz, attempts = 1
       WHERE id = $1::uuid AND status = 'queued' AND attempts = 0
       RETURNING ${JOB_COLUMNS}`,
      [id, new Date()],
      { prepareAs: 'jobs_start_fresh' },
    );
    if (rows.length === 0) return undefined;
    return { ...rawRecord(rows[0]), status: 'queued', attempts: 0, startedAt: null };
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

  /**
   * Gives back the credit holds of jobs that are no longer queued or active (or no longer exist): the
   * paths that end a job release its hold in the same statement; this sweep covers any other way a
   * job ended (a status set elsewhere, a deleted job), so a hold never keeps credits unavailable
   * after its job. Returns the credits given back.
   */
  async releaseEndedHolds(): Promise<number> {
    const rows = await this.db.sql.query<{ released: number | string | null }>(
      `WITH ended AS (
         DELETE FROM credit_holds h
         WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = h.job_id AND j.status IN ('queued', 'active'))
         RETURNING h.team_id, h.amount
       ), per_team AS (
         SELECT team_id, sum(amount)::int AS amount FROM ended GROUP BY team_id
       ), given_back AS (
         UPDATE teams SET reserved_credits = teams.reserved_credits - per_team.amount
         FROM per_team WHERE teams.id = per_team.team_id
         RETURNING per_team.amount
       )
       SELECT coalesce(sum(amount), 0)::int AS released FROM given_back`,
    );
    return Number(rows[0]?.released ?? 0);
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
