import type { Database } from '@quarry/platform/database';

import type { TokenUsage, TokenUsageSink, UsageContext } from './llm.types';

/** Token usage rows (table `llm_token_usage`): written after each completion, summed by the usage routes. */
export class TokenUsageRepository implements TokenUsageSink {
  constructor(private readonly db: Database) {}

  async record(entry: { context: UsageContext; model: string; usage: TokenUsage }): Promise<void> {
    await this.db.prisma.llmTokenUsage.create({
      data: {
        teamId: entry.context.teamId,
        jobId: entry.context.jobId,
        model: entry.model,
        purpose: entry.context.purpose,
        promptTokens: entry.usage.promptTokens,
        completionTokens: entry.usage.completionTokens,
        totalTokens: entry.usage.totalTokens,
      },
    });
  }

  /** Tokens a team used in [since, until). */
  async totalForTeam(teamId: string, since: Date, until: Date): Promise<number> {
    const result = await this.db.prisma.llmTokenUsage.aggregate({
      where: { teamId, createdAt: { gte: since, lt: until } },
      _sum: { totalTokens: true },
    });
    return result._sum.totalTokens ?? 0;
  }

  /** Tokens spent for one job (a scrape or an agent run). */
  async totalForJob(jobId: string): Promise<number> {
    const result = await this.db.prisma.llmTokenUsage.aggregate({
      where: { jobId },
      _sum: { totalTokens: true },
    });
    return result._sum.totalTokens ?? 0;
  }
}
