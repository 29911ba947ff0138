import { Controller, Inject, Query } from '@nestjs/common';

import { AccountUsageService } from '@quarry/account';
import {
  concurrencyCheckResponseSchema,
  creditUsageHistoricalResponseSchema,
  creditUsageResponseSchema,
  queueStatusResponseSchema,
  tokenUsageHistoricalResponseSchema,
  tokenUsageResponseSchema,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';

import { CurrentAuth } from '../auth/auth.decorator';
import { Route } from '../openapi/route.decorator';

/** Usage, queue and concurrency figures of the caller's team (docs/crawl.md#account-routes). */
@Controller('v2')
export class AccountController {
  constructor(@Inject(AccountUsageService) private readonly usage: AccountUsageService) {}

  @Route({
    method: 'get',
    path: 'team/credit-usage',
    summary: 'Remaining and plan credits',
    tag: 'account',
    auth: { scope: 'account', rateLimit: 'status' },
    response: creditUsageResponseSchema,
  })
  creditUsage(@CurrentAuth() auth: AuthContext) {
    return this.usage.creditUsage(auth);
  }

  @Route({
    method: 'get',
    path: 'team/credit-usage/historical',
    summary: 'Credits used per month (byApiKey=true: per key)',
    tag: 'account',
    auth: { scope: 'account', rateLimit: 'status' },
    response: creditUsageHistoricalResponseSchema,
  })
  creditHistory(@CurrentAuth() auth: AuthContext, @Query('byApiKey') byApiKey?: string) {
    return this.usage.creditHistory(auth, byApiKey === 'true');
  }

  @Route({
    method: 'get',
    path: 'team/token-usage',
    summary: 'Remaining and plan tokens',
    tag: 'account',
    auth: { scope: 'account', rateLimit: 'status' },
    response: tokenUsageResponseSchema,
  })
  tokenUsage(@CurrentAuth() auth: AuthContext) {
    return this.usage.tokenUsage(auth);
  }

  @Route({
    method: 'get',
    path: 'team/token-usage/historical',
    summary: 'Tokens used per month',
    tag: 'account',
    auth: { scope: 'account', rateLimit: 'status' },
    response: tokenUsageHistoricalResponseSchema,
  })
  tokenHistory(@CurrentAuth() auth: AuthContext, @Query('byApiKey') byApiKey?: string) {
    return this.usage.tokenHistory(auth, byApiKey === 'true');
  }

  @Route({
    method: 'get',
    path: 'team/queue-status',
    summary: 'Active and waiting jobs of the team',
    tag: 'account',
    auth: { scope: 'account', rateLimit: 'status' },
    response: queueStatusResponseSchema,
  })
  queueStatus(@CurrentAuth() auth: AuthContext) {
    return this.usage.queueStatus(auth);
  }

  @Route({
    method: 'get',
    path: 'concurrency-check',
    summary: 'Current and maximum concurrency of the team',
    tag: 'account',
    auth: { scope: 'account', rateLimit: 'status' },
    response: concurrencyCheckResponseSchema,
  })
  concurrency(@CurrentAuth() auth: AuthContext) {
    return this.usage.concurrency(auth);
  }
}
