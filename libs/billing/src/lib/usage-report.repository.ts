import { JOB_KINDS } from '@quarry/contracts';
import type { Database } from '@quarry/platform/database';

type Raw = Record<string, unknown>;

export interface DailyUsageRow {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** The job kind the usage belongs to, `other` when it cannot be told. */
  endpoint: string;
  amount: number;
}

const KNOWN = new Set<string>(JOB_KINDS);

/** The endpoint of a charge: the kind of its job, else the kind its description starts with. */
function endpointOf(kind: unknown, description: unknown): string {
  if (typeof kind === 'string' && KNOWN.has(kind)) return kind;
  const first = typeof description === 'string' ? description.split(' ')[0] : '';
  return KNOWN.has(first) ? first : 'other';
}

/**
 * Credits charged and language-model tokens used by a team per UTC day and endpoint (job kind),
 * read from the credit ledger and the token ledger (which outlive the jobs they point to).
 */
export class UsageReportRepository {
  constructor(private readonly db: Database) {}

  async creditsPerDay(teamId: string, since: Date): Promise<DailyUsageRow[]> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT to_char(date_trunc('day', l.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, j.kind,
              split_part(coalesce(l.description, ''), ' ', 1) AS description, sum(-l.amount) AS amount
       FROM credit_ledger l LEFT JOIN jobs j ON j.id = l.job_id
       WHERE l.team_id = $1 AND l.kind = 'charge' AND l.created_at >= $2
       GROUP BY 1, 2, 3`,
      [teamId, since],
    );
    return merge(
      rows.map((row) => ({
        day: String(row['day']),
        endpoint: endpointOf(row['kind'], row['description']),
        amount: Number(row['amount'] ?? 0),
      })),
    );
  }

  async tokensPerDay(teamId: string, since: Date): Promise<DailyUsageRow[]> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT to_char(date_trunc('day', u.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, j.kind, sum(u.total_tokens) AS amount
       FROM llm_token_usage u LEFT JOIN jobs j ON j.id = u.job_id
       WHERE u.team_id = $1 AND u.created_at >= $2
       GROUP BY 1, 2`,
      [teamId, since],
    );
    return merge(
      rows.map((row) => ({
        day: String(row['day']),
        endpoint: endpointOf(row['kind'], null),
        amount: Number(row['amount'] ?? 0),
      })),
    );
  }
}

/** Sums rows that map to the same day and endpoint. */
function merge(rows: DailyUsageRow[]): DailyUsageRow[] {
  const byKey = new Map<string, DailyUsageRow>();
  for (const row of rows) {
    const key = `${row.day}/${row.endpoint}`;
    const known = byKey.get(key);
    if (known) known.amount += row.amount;
    else byKey.set(key, { ...row });
  }
  return [...byKey.values()];
}
