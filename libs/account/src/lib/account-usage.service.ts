import {
  type ConcurrencyCheckResponse,
  type CreditUsageHistoricalResponse,
  type CreditUsageResponse,
  type QueueStatusResponse,
  TOKENS_PER_CREDIT,
  type TokenUsageHistoricalResponse,
  type TokenUsageResponse,
} from '@quarry/contracts';
import { type Database, date, num, type Raw } from '@quarry/platform/database';

export interface AccountCaller {
  teamId: string;
  concurrencyLimit?: number;
}

const HISTORY_MONTHS = 12;

/** Month boundaries (UTC) of the billing period containing `at`. */
export function billingPeriod(at = new Date()): { start: Date; end: Date } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start, end };
}

/**
 * The account routes the SDK's usage methods call (docs/crawl.md#account-routes), answered from real figures: the
 * credit ledger, the team's balance, the language-model token ledger, the crawl frontier and the
 * jobs table. Billing periods are calendar months (UTC); the token allowance (remaining, plan) is
 * the credit allowance × TOKENS_PER_CREDIT, token history counts the tokens models really used.
 */
export class AccountUsageService {
  constructor(
    private readonly db: Database,
    private readonly defaultConcurrency: number,
  ) {}

  async creditUsage(caller: AccountCaller): Promise<CreditUsageResponse> {
    const { remaining, plan } = await this.balance(caller.teamId);
    const period = billingPeriod();
    return {
      success: true,
      data: {
        remainingCredits: remaining,
        planCredits: plan,
        billingPeriodStart: period.start.toISOString(),
        billingPeriodEnd: period.end.toISOString(),
      },
    };
  }

  async tokenUsage(caller: AccountCaller): Promise<TokenUsageResponse> {
    const { remaining, plan } = await this.balance(caller.teamId);
    const period = billingPeriod();
    return {
      success: true,
      data: {
        remainingTokens: remaining * TOKENS_PER_CREDIT,
        planTokens: plan * TOKENS_PER_CREDIT,
        billingPeriodStart: period.start.toISOString(),
        billingPeriodEnd: period.end.toISOString(),
      },
    };
  }

  async creditHistory(caller: AccountCaller, byApiKey: boolean): Promise<CreditUsageHistoricalResponse> {
    return {
      success: true,
      periods: (await this.history(caller.teamId, byApiKey)).map(({ used, ...period }) => ({
        ...period,
        creditsUsed: used,
      })),
    };
  }

  /** Language-model tokens actually spent per month (table `llm_token_usage`), per API key of the job with `byApiKey`. */
  async tokenHistory(caller: AccountCaller, byApiKey: boolean): Promise<TokenUsageHistoricalResponse> {
    const usage = `SELECT u.created_at, u.total_tokens AS amount, j.api_key_id FROM llm_token_usage u LEFT JOIN jobs j ON j.id = u.job_id WHERE u.team_id = $1 AND u.created_at >= $2`;
    return {
      success: true,
      periods: (await this.history(caller.teamId, byApiKey, usage)).map(({ used, ...period }) => ({
        ...period,
        tokensUsed: used,
      })),
    };
  }

  async queueStatus(caller: AccountCaller): Promise<QueueStatusResponse> {
    const load = await this.load(caller.teamId);
    const rows = await this.db.sql.query<Raw>(
      `SELECT max(finished_at) AS at FROM jobs WHERE team_id = $1 AND status = 'completed'`,
      [caller.teamId],
    );
    const last = date(rows[0]?.['at']);
    return {
      success: true,
      jobsInQueue: load.active + load.waiting,
      activeJobsInQueue: load.active,
      waitingJobsInQueue: load.waiting,
      maxConcurrency: caller.concurrencyLimit ?? this.defaultConcurrency,
      mostRecentSuccess: last ? last.toISOString() : null,
    };
  }

  async concurrency(caller: AccountCaller): Promise<ConcurrencyCheckResponse> {
    const load = await this.load(caller.teamId);
    return {
      success: true,
      concurrency: load.active,
      maxConcurrency: caller.concurrencyLimit ?? this.defaultConcurrency,
    };
  }

  /** Pages and single jobs being executed (active) or waiting (queued) for the team. */
  private async load(teamId: string): Promise<{ active: number; waiting: number }> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT
         (SELECT count(*) FROM crawl_pages p JOIN jobs j ON j.id = p.crawl_id WHERE p.team_id = $1 AND p.status = 'dispatched' AND j.status IN ('queued', 'active')) AS pages_active,
         (SELECT count(*) FROM crawl_pages p JOIN jobs j ON j.id = p.crawl_id WHERE p.team_id = $1 AND p.status = 'queued' AND j.status IN ('queued', 'active')) AS pages_waiting,
         (SELECT count(*) FROM jobs WHERE team_id = $1 AND status = 'active' AND kind NOT IN ('crawl', 'batch_scrape')) AS jobs_active,
         (SELECT count(*) FROM jobs WHERE team_id = $1 AND status = 'queued' AND kind NOT IN ('crawl', 'batch_scrape')) AS jobs_waiting`,
      [teamId],
    );
    const row = rows[0] ?? {};
    return {
      active: num(row['pages_active']) + num(row['jobs_active']),
      waiting: num(row['pages_waiting']) + num(row['jobs_waiting']),
    };
  }

  private async balance(teamId: string): Promise<{ remaining: number; plan: number }> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT t.credits, (SELECT coalesce(sum(amount), 0) FROM credit_ledger l WHERE l.team_id = t.id AND l.amount > 0) AS granted FROM teams t WHERE t.id = $1`,
      [teamId],
    );
    const row = rows[0] ?? {};
    return { remaining: num(row['credits']), plan: num(row['granted']) };
  }

  /**
   * Usage per calendar month over the last year (optionally per API key), oldest first. `source`
   * selects `(created_at, amount, api_key_id)` rows of the team since $2; default: credits charged.
   */
  private async history(
    teamId: string,
    byApiKey: boolean,
    source?: string,
  ): Promise<{ startDate: string; endDate: string; apiKey?: string; used: number }[]> {
    const current = billingPeriod();
    const since = new Date(
      Date.UTC(current.start.getUTCFullYear(), current.start.getUTCMonth() - (HISTORY_MONTHS - 1), 1),
    );
    const rows_ =
      source ??
      `SELECT created_at, -amount AS amount, api_key_id FROM credit_ledger WHERE team_id = $1 AND kind = 'charge' AND created_at >= $2`;
    const rows = await this.db.sql.query<Raw>(
      `SELECT date_trunc('month', l.created_at AT TIME ZONE 'UTC') AS month, ${byApiKey ? 'l.api_key_id, k.name AS key_name, k.prefix,' : ''} sum(l.amount) AS used
       FROM (${rows_}) l ${byApiKey ? 'LEFT JOIN api_keys k ON k.id = l.api_key_id' : ''}
       GROUP BY 1${byApiKey ? ', l.api_key_id, k.name, k.prefix' : ''} ORDER BY 1`,
      [teamId, since],
    );
    const byMonth = new Map<string, Raw[]>();
    for (const row of rows) {
      const month = date(row['month']) as Date;
      const key = `${month.getUTCFullYear()}-${month.getUTCMonth()}`;
      byMonth.set(key, [...(byMonth.get(key) ?? []), row]);
    }
    const periods: { startDate: string; endDate: string; apiKey?: string; used: number }[] = [];
    for (let offset = HISTORY_MONTHS - 1; offset >= 0; offset -= 1) {
      const start = new Date(
        Date.UTC(current.start.getUTCFullYear(), current.start.getUTCMonth() - offset, 1),
      );
      const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
      const entries = byMonth.get(`${start.getUTCFullYear()}-${start.getUTCMonth()}`) ?? [];
      if (!byApiKey)
        periods.push({
          startDate: start.toISOString(),
          endDate: end.toISOString(),
          used: entries.reduce((sum, row) => sum + num(row['used']), 0),
        });
      else {
        for (const row of entries) {
          const apiKey = row['api_key_id']
            ? String(row['key_name'] ?? row['prefix'] ?? row['api_key_id'])
            : 'none';
          periods.push({
            startDate: start.toISOString(),
            endDate: end.toISOString(),
            apiKey,
            used: num(row['used']),
          });
        }
      }
    }
    return periods;
  }
}
