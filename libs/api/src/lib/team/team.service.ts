import { Inject, Injectable } from '@nestjs/common';

import { type DailyUsageRow, UsageReportRepository } from '@quarry/billing';
import { AppError, type DailyUsageResponse, type TeamInfoResponse } from '@quarry/contracts';
import { type AuthContext, IdentityRepository } from '@quarry/identity';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';

const DAY_MS = 86_400_000;

/** The caller's team (`GET /v2/team`) and its usage per day and endpoint (`GET /v2/team/usage/daily`). */
@Injectable()
export class TeamService {
  constructor(
    @Inject(IdentityRepository) private readonly identity: IdentityRepository,
    @Inject(UsageReportRepository) private readonly usage: UsageReportRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async info(auth: AuthContext): Promise<TeamInfoResponse> {
    const [team, key] = await Promise.all([
      this.identity.teamOverview(auth.teamId),
      auth.apiKeyId ? this.identity.findKey(auth.apiKeyId) : undefined,
    ]);
    if (!team) throw new AppError('UNAUTHORIZED');
    return {
      success: true,
      data: {
        id: team.id,
        name: team.name,
        credits: team.credits,
        rateLimitPerMinute: this.config.auth.enabled
          ? (team.rateLimitPerMinute ?? this.config.limits.rateLimitPerMinute)
          : 0,
        maxConcurrency: team.concurrencyLimit ?? this.config.limits.teamConcurrency,
        zeroDataRetention: team.zeroDataRetention,
        apiKey: key ? { id: key.id, prefix: key.prefix, name: key.name, scopes: key.scopes } : null,
      },
    };
  }

  async daily(auth: AuthContext, days: number, now = new Date()): Promise<DailyUsageResponse> {
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const since = new Date(today - (days - 1) * DAY_MS);
    const [credits, tokens] = await Promise.all([
      this.usage.creditsPerDay(auth.teamId, since),
      this.usage.tokensPerDay(auth.teamId, since),
    ]);
    const empty = () => ({
      credits: 0,
      tokens: 0,
      creditsByEndpoint: {} as Record<string, number>,
      tokensByEndpoint: {} as Record<string, number>,
    });
    const byDay = new Map<string, ReturnType<typeof empty>>();
    for (let offset = 0; offset < days; offset += 1)
      byDay.set(new Date(since.getTime() + offset * DAY_MS).toISOString().slice(0, 10), empty());
    const totals = empty();
    const add = (rows: DailyUsageRow[], what: 'credits' | 'tokens') => {
      const field = what === 'credits' ? 'creditsByEndpoint' : 'tokensByEndpoint';
      for (const row of rows) {
        const day = byDay.get(row.day);
        if (!day) continue;
        for (const target of [day, totals]) {
          target[what] += row.amount;
          target[field][row.endpoint] = (target[field][row.endpoint] ?? 0) + row.amount;
        }
      }
    };
    add(credits, 'credits');
    add(tokens, 'tokens');
    return { success: true, days: [...byDay].map(([date, usage]) => ({ date, ...usage })), totals };
  }
}
