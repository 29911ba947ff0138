import { GroupedStatement, type SqlExecutor } from '@quarry/platform/database';

/** One job that ends as it is recorded, with its charge (a cache hit, a lockdown miss), as SQL values. */
export interface FinishedJobRow {
  id: string;
  teamId: string;
  apiKeyId: string | null;
  kind: string;
  status: 'completed' | 'failed';
  /** A JSON value, or null. */
  input: unknown;
  /** A JSON value, or null. */
  result: unknown;
  errorCode: string | null;
  error: string | null;
  credits: number;
  zeroDataRetention: boolean;
  idempotencyKey: string | null;
  expiresAt: Date | null;
  finishedAt: Date;
  description: string;
  /** A stored document of the team the job answers from (a cache hit): the job is recorded only while it exists. */
  documentId: string | null;
}

/**
 * What became of a row: `recorded` (with its charge), `gone` (its document no longer exists: nothing
 * written) or `short` (its team's available credits did not cover it: nothing written).
 */
export type FinishedJobStatus = 'recorded' | 'gone' | 'short';

/**
 * Group commit of finished jobs (`GroupedStatement`): the rows recorded while the previous statement
 * was running go together in the next one — the job rows, one ledger entry per charged job (keyed
 * `job:<id>`) and one balance update per team, in a single data-modifying statement (atomic: all
 * rows or none). Each caller's promise settles when its row is committed, so a job is retrievable by
 * id once its answer is sent; a duplicate id fails only its own caller.
 *
 * The statement is also the credit check of these jobs: a team's rows are written only when its
 * available balance (`credits - reserved_credits`, evaluated on the team row's latest version)
 * covers all of them, so concurrent requests never take a balance below zero, on any replica. A
 * team's rows refused together are tried once more alone, so each one that fits is still recorded.
 * Under load the team's balance row is updated once per batch instead of being a lock every
 * concurrent request waits on.
 */
export class FinishedJobWriter {
  private readonly statement: GroupedStatement<FinishedJobRow, FinishedJobStatus>;

  constructor(private readonly sql: SqlExecutor) {
    this.statement = new GroupedStatement((rows) => insertFinished(sql, rows));
  }

  async write(row: FinishedJobRow): Promise<FinishedJobStatus> {
    const status = await this.statement.submit(row);
    // Refused with other rows of its team: alone it may fit (the exact answer at the balance's edge).
    return status === 'short' ? (await insertFinished(this.sql, [row]))[0] : status;
  }
}

/**
 * The batch is one JSON parameter (`json_to_recordset`): the driver no longer escapes every value
 * into an array literal (16 arrays a batch; `escapeElement` was the driver's largest cost in the
 * cache-hit profile), and the job's input and result go in as JSON values, not JSON text.
 */
const INSERT_FINISHED = `WITH input AS (
    SELECT * FROM json_to_recordset($1::json)
      AS i(n int, id uuid, team_id uuid, api_key_id uuid, kind text, status text, input jsonb, result jsonb,
           error_code text, error text, credits_used int, zero_data_retention bool, idempotency_key text,
           expires_at timestamptz, finished_at timestamptz, description text, document_id uuid)
  ), present AS (
    SELECT * FROM input
    WHERE document_id IS NULL
       OR EXISTS (SELECT 1 FROM documents d WHERE d.id = input.document_id AND d.team_id = input.team_id)
  ), need AS (
    SELECT team_id, sum(abs(credits_used))::int AS total FROM present GROUP BY team_id
  ), paid AS (
    UPDATE teams SET credits = teams.credits - need.total
    FROM need
    WHERE teams.id = need.team_id AND need.total > 0 AND teams.credits - teams.reserved_credits >= need.total
    RETURNING teams.id
  ), job AS (
    INSERT INTO jobs (id, team_id, api_key_id, kind, status, input, result, error_code, error, credits_used,
                      zero_data_retention, idempotency_key, expires_at, finished_at)
    SELECT id, team_id, api_key_id, kind, status, input, result, error_code, error, abs(credits_used),
           zero_data_retention, idempotency_key, expires_at, finished_at
    FROM present
    WHERE team_id IN (SELECT id FROM paid) OR team_id IN (SELECT team_id FROM need WHERE total = 0)
    RETURNING id
  ), charge AS (
    INSERT INTO credit_ledger (team_id, amount, kind, idempotency_key, job_id, api_key_id, description)
    SELECT input.team_id, -abs(input.credits_used), 'charge', 'job:' || job.id::text, job.id, input.api_key_id, input.description
    FROM job JOIN input ON input.id = job.id
    WHERE input.credits_used <> 0
  )
  SELECT input.n, job.id IS NOT NULL AS recorded, present.n IS NOT NULL AS present
  FROM input LEFT JOIN present ON present.n = input.n LEFT JOIN job ON job.id = input.id`;

/**
 * The rows, their charges and the balances in one statement (typed raw SQL: the ORM's per-statement
 * work was the profile's largest cost on this path); what became of each row, in input order.
 */
async function insertFinished(sql: SqlExecutor, rows: FinishedJobRow[]): Promise<FinishedJobStatus[]> {
  const batch = rows.map((row, index) => ({
    n: index + 1,
    id: row.id,
    team_id: row.teamId,
    api_key_id: row.apiKeyId,
    kind: row.kind,
    status: row.status,
    input: row.input,
    result: row.result,
    error_code: row.errorCode,
    error: row.error,
    credits_used: row.credits,
    zero_data_retention: row.zeroDataRetention,
    idempotency_key: row.idempotencyKey,
    expires_at: row.expiresAt,
    finished_at: row.finishedAt,
    description: row.description,
    document_id: row.documentId,
  }));
  const answers = await sql.query<{ n: number | string; recorded: boolean; present: boolean }>(
    INSERT_FINISHED,
    [JSON.stringify(batch)],
    // Prepared once per connection: parsing and planning this statement was a quarter of its time.
    { prepareAs: 'finished_jobs_insert' },
  );
  const statuses: FinishedJobStatus[] = rows.map(() => 'short');
  for (const answer of answers)
    statuses[Number(answer.n) - 1] = answer.recorded ? 'recorded' : answer.present ? 'short' : 'gone';
  return statuses;
}
