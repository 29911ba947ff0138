import { GroupedStatement, type SqlExecutor } from '@quarry/platform/database';

/** One job that ends as it is recorded, with its charge (a cache hit, a lockdown miss), as SQL values. */
export interface FinishedJobRow {
  id: string;
  teamId: string;
  apiKeyId: string | null;
  kind: string;
  status: 'completed' | 'failed';
  /** JSON text, or null. */
  input: string | null;
  /** JSON text, or null. */
  result: string | null;
  errorCode: string | null;
  error: string | null;
  credits: number;
  zeroDataRetention: boolean;
  idempotencyKey: string | null;
  expiresAt: Date | null;
  finishedAt: Date;
  description: string;
}

/**
 * Group commit of finished jobs (`GroupedStatement`): the rows recorded while the previous statement
 * was running go together in the next one — the job rows, one ledger entry per charged job (keyed
 * `job:<id>`, so never twice) and one balance update per team, in a single data-modifying statement
 * (atomic: all rows or none). Each caller's promise settles when its row is committed, so a job is
 * retrievable by id once its answer is sent; a duplicate id fails only its own caller. Under load
 * the team's balance row is updated once per batch instead of being a lock every concurrent request
 * waits on.
 */
export class FinishedJobWriter {
  private readonly statement: GroupedStatement<FinishedJobRow, undefined>;

  constructor(sql: SqlExecutor) {
    this.statement = new GroupedStatement(async (rows) => {
      await insertFinished(sql, rows);
      return rows.map(() => undefined);
    });
  }

  async write(row: FinishedJobRow): Promise<void> {
    await this.statement.submit(row);
  }
}

const COLUMNS: [keyof FinishedJobRow, string][] = [
  ['id', 'uuid'],
  ['teamId', 'uuid'],
  ['apiKeyId', 'uuid'],
  ['kind', 'text'],
  ['status', 'text'],
  ['input', 'jsonb'],
  ['result', 'jsonb'],
  ['errorCode', 'text'],
  ['error', 'text'],
  ['credits', 'int'],
  ['zeroDataRetention', 'bool'],
  ['idempotencyKey', 'text'],
  ['expiresAt', 'timestamptz'],
  ['finishedAt', 'timestamptz'],
  ['description', 'text'],
];

const INSERT_FINISHED = `WITH input AS (
    SELECT * FROM unnest(${COLUMNS.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ')})
      AS i(id, team_id, api_key_id, kind, status, input, result, error_code, error, credits_used,
           zero_data_retention, idempotency_key, expires_at, finished_at, description)
  ), job AS (
    INSERT INTO jobs (id, team_id, api_key_id, kind, status, input, result, error_code, error, credits_used,
                      zero_data_retention, idempotency_key, expires_at, finished_at)
    SELECT id, team_id, api_key_id, kind, status, input, result, error_code, error, credits_used,
           zero_data_retention, idempotency_key, expires_at, finished_at
    FROM input
    RETURNING id
  ), charge AS (
    INSERT INTO credit_ledger (team_id, amount, kind, idempotency_key, job_id, api_key_id, description)
    SELECT input.team_id, -abs(input.credits_used), 'charge', 'job:' || job.id::text, job.id, input.api_key_id, input.description
    FROM job JOIN input ON input.id = job.id
    WHERE input.credits_used <> 0
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING team_id, amount
  )
  UPDATE teams SET credits = teams.credits + total.amount
  FROM (SELECT team_id, sum(amount)::int AS amount FROM charge GROUP BY team_id) total
  WHERE teams.id = total.team_id`;

/** The rows, their charges and the balances in one statement (typed raw SQL: the ORM's per-statement work was the profile's largest cost on this path). */
async function insertFinished(sql: SqlExecutor, rows: FinishedJobRow[]): Promise<void> {
  await sql.query(
    INSERT_FINISHED,
    COLUMNS.map(([key]) => rows.map((row) => row[key])),
  );
}
