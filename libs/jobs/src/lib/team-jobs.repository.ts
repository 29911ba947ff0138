import {
  JOB_KINDS,
  type JobKind,
  type JobStatus,
  type TeamJob,
  type TeamJobDocumentSummary,
  type TeamJobKind,
} from '@quarry/contracts';
import type { Database } from '@quarry/platform/database';

type Raw = Record<string, unknown>;

export interface TeamJobsFilter {
  kinds: TeamJobKind[];
  statuses: JobStatus[];
  limit: number;
  /** Items strictly older than this position (created_at, id). */
  before?: { createdAt: Date; id: string };
}

export interface TeamJobDetail extends TeamJob {
  input: unknown;
  result: unknown;
  expiresAt: string | null;
}

/** A check's status as a job status; the check's own status stays in `detail`. */
const CHECK_STATUS = `CASE c.status WHEN 'queued' THEN 'queued' WHEN 'running' THEN 'active'
  WHEN 'completed' THEN 'completed' WHEN 'partial' THEN 'completed' WHEN 'failed' THEN 'failed' ELSE 'cancelled' END`;

/** What a job was about, from its stored input (none under zero data retention). */
const JOB_TARGET = `CASE WHEN j.zero_data_retention THEN NULL ELSE left(coalesce(
  j.input->>'url', j.input->>'query', j.input->>'prompt', j.input->'urls'->>0, j.input->>'filename'), 500) END`;

const JOB_COLUMNS = `j.id::text AS id, j.kind, j.status, NULL::text AS detail, ${JOB_TARGET} AS target, j.created_at,
  j.started_at, j.finished_at, j.credits_used AS credits, j.error_code, j.error, j.api_key_id::text AS api_key_id,
  NULL::text AS monitor_id`;

/**
 * The team's jobs of every kind and its monitors' checks, newest first, as one list (the console's
 * activity; `GET /v2/team/jobs`), and one job with its stored documents. Every query is bound to the
 * team: another team's job is not found, exactly like an unknown one.
 */
export class TeamJobsRepository {
  constructor(private readonly db: Database) {}

  /** Up to `limit` items; the caller asks one more to know whether a next page exists. */
  async list(teamId: string, filter: TeamJobsFilter): Promise<TeamJob[]> {
    const jobKinds = filter.kinds.filter((kind): kind is JobKind =>
      (JOB_KINDS as readonly string[]).includes(kind),
    );
    const withJobs = filter.kinds.length === 0 || jobKinds.length > 0;
    const withChecks = filter.kinds.length === 0 || filter.kinds.includes('monitor_check');
    // $1 team, $2 statuses, $3/$4 cursor, $5 limit; $6 job kinds (only with the jobs branch)
    const params: unknown[] = [
      teamId,
      filter.statuses.length ? filter.statuses : null,
      filter.before?.createdAt ?? null,
      filter.before?.id ?? null,
      filter.limit,
    ];
    const branches: string[] = [];
    if (withJobs) {
      params.push(jobKinds.length ? jobKinds : null);
      branches.push(`(SELECT ${JOB_COLUMNS} FROM jobs j
        WHERE j.team_id = $1 AND ($6::text[] IS NULL OR j.kind = ANY($6::text[]))
          AND ($2::text[] IS NULL OR j.status = ANY($2::text[]))
          AND ($3::timestamptz IS NULL OR (j.created_at, j.id) < ($3::timestamptz, $4::uuid))
        ORDER BY j.created_at DESC, j.id DESC LIMIT $5)`);
    }
    if (withChecks) {
      branches.push(`(SELECT * FROM (SELECT c.id::text AS id, 'monitor_check' AS kind, ${CHECK_STATUS} AS status, c.status AS detail,
          left(m.name, 500) AS target, c.created_at, c.started_at, c.finished_at, coalesce(c.actual_credits, 0) AS credits,
          CASE WHEN c.error IS NULL THEN NULL ELSE c.status END AS error_code, c.error, m.api_key_id::text AS api_key_id,
          c.monitor_id::text AS monitor_id
        FROM monitor_checks c JOIN monitors m ON m.id = c.monitor_id
        WHERE c.team_id = $1 AND ($3::timestamptz IS NULL OR (c.created_at, c.id) < ($3::timestamptz, $4::uuid))) checks
        WHERE $2::text[] IS NULL OR checks.status = ANY($2::text[])
        ORDER BY checks.created_at DESC, checks.id DESC LIMIT $5)`);
    }
    const rows = await this.db.sql.query<Raw>(
      `SELECT * FROM (${branches.join(' UNION ALL ')}) items ORDER BY created_at DESC, id DESC LIMIT $5`,
      params,
    );
    return rows.map(toTeamJob);
  }

  /** A job of the team (not a monitor check) with its input and stored result. */
  async find(teamId: string, jobId: string): Promise<TeamJobDetail | undefined> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT ${JOB_COLUMNS}, CASE WHEN j.zero_data_retention THEN NULL ELSE j.input END AS input, j.result, j.expires_at
       FROM jobs j WHERE j.id = $1::uuid AND j.team_id = $2`,
      [jobId, teamId],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      ...toTeamJob(row),
      input: json(row['input']),
      result: json(row['result']),
      expiresAt: iso(row['expires_at']),
    };
  }

  /** The documents stored for a job, oldest first (a page), and how many there are. */
  async documents(
    teamId: string,
    jobId: string,
    page: { skip: number; limit: number },
  ): Promise<{ items: TeamJobDocumentSummary[]; total: number }> {
    const [rows, counts] = await Promise.all([
      this.db.sql.query<Raw>(
        `SELECT id::text AS id, url, title, status_code, created_at FROM documents
         WHERE job_id = $1::uuid AND team_id = $2 ORDER BY created_at, id OFFSET $3 LIMIT $4`,
        [jobId, teamId, page.skip, page.limit],
      ),
      this.db.sql.query<Raw>(
        `SELECT count(*) AS total FROM documents WHERE job_id = $1::uuid AND team_id = $2`,
        [jobId, teamId],
      ),
    ]);
    return { items: rows.map(toDocumentSummary), total: Number(counts[0]?.['total'] ?? 0) };
  }

  /** One document of the team by id, with the job it was stored for. */
  async document(
    teamId: string,
    documentId: string,
  ): Promise<
    { jobId: string | null; summary: TeamJobDocumentSummary; content: Record<string, unknown> } | undefined
  > {
    const rows = await this.db.sql.query<Raw>(
      `SELECT id::text AS id, job_id::text AS job_id, url, title, status_code, created_at, content FROM documents
       WHERE id = $1::uuid AND team_id = $2`,
      [documentId, teamId],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      jobId: (row['job_id'] as string | null) ?? null,
      summary: toDocumentSummary(row),
      content: json(row['content']) as Record<string, unknown>,
    };
  }
}

function toTeamJob(row: Raw): TeamJob {
  const createdAt = date(row['created_at']) as Date;
  const startedAt = date(row['started_at']);
  const finishedAt = date(row['finished_at']);
  const errorCode = (row['error_code'] as string | null) ?? null;
  return {
    id: String(row['id']),
    kind: row['kind'] as TeamJobKind,
    status: row['status'] as JobStatus,
    detail: (row['detail'] as string | null) ?? null,
    target: (row['target'] as string | null) ?? null,
    createdAt: createdAt.toISOString(),
    startedAt: startedAt?.toISOString() ?? null,
    finishedAt: finishedAt?.toISOString() ?? null,
    durationMs: finishedAt ? Math.max(0, finishedAt.getTime() - (startedAt ?? createdAt).getTime()) : null,
    creditsUsed: Number(row['credits'] ?? 0),
    error: errorCode ? { code: errorCode, message: String(row['error'] ?? '') } : null,
    apiKeyId: (row['api_key_id'] as string | null) ?? null,
    monitorId: (row['monitor_id'] as string | null) ?? null,
  };
}

function toDocumentSummary(row: Raw): TeamJobDocumentSummary {
  return {
    id: String(row['id']),
    url: String(row['url']),
    title: (row['title'] as string | null) ?? null,
    statusCode: Number(row['status_code']),
    createdAt: (date(row['created_at']) as Date).toISOString(),
  };
}

const date = (value: unknown): Date | null =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value));
const iso = (value: unknown): string | null => date(value)?.toISOString() ?? null;
/** JSON columns come parsed from both drivers (pg and PGlite). */
const json = (value: unknown): unknown => value ?? null;
