import { Controller, Get, Inject, Query } from '@nestjs/common';
import { AccountUsageService } from '@quarry/crawl';
import type { AuthContext } from '@quarry/identity';
import { Auth, CurrentAuth } from '../auth/auth.decorator';
import { defineOperations } from '../openapi/openapi.registry';

defineOperations(
  { method: 'get', path: '/v2/team/credit-usage', summary: 'Remaining and plan credits', tag: 'account' },
  { method: 'get', path: '/v2/team/credit-usage/historical', summary: 'Credits used per month (byApiKey=true: per key)', tag: 'account' },
  { method: 'get', path: '/v2/team/token-usage', summary: 'Remaining and plan tokens', tag: 'account' },
  { method: 'get', path: '/v2/team/token-usage/historical', summary: 'Tokens used per month', tag: 'account' },
  { method: 'get', path: '/v2/team/queue-status', summary: 'Active and waiting jobs of the team', tag: 'account' },
  { method: 'get', path: '/v2/concurrency-check', summary: 'Current and maximum concurrency of the team', tag: 'account' },
);

/** Usage, queue and concurrency figures of the caller's team (compat §16). */
@Controller('v2')
export class AccountController {
  constructor(@Inject(AccountUsageService) private readonly usage: AccountUsageService) {}

  @Get('team/credit-usage')
  @Auth({ scope: 'account', rateLimit: 'status' })
  creditUsage(@CurrentAuth() auth: AuthContext) {
    return this.usage.creditUsage(auth);
  }

  @Get('team/credit-usage/historical')
  @Auth({ scope: 'account', rateLimit: 'status' })
  creditHistory(@CurrentAuth() auth: AuthContext, @Query('byApiKey') byApiKey?: string) {
    return this.usage.creditHistory(auth, byApiKey === 'true');
  }

  @Get('team/token-usage')
  @Auth({ scope: 'account', rateLimit: 'status' })
  tokenUsage(@CurrentAuth() auth: AuthContext) {
    return this.usage.tokenUsage(auth);
  }

  @Get('team/token-usage/historical')
  @Auth({ scope: 'account', rateLimit: 'status' })
  tokenHistory(@CurrentAuth() auth: AuthContext, @Query('byApiKey') byApiKey?: string) {
    return this.usage.tokenHistory(auth, byApiKey === 'true');
  }

  @Get('team/queue-status')
  @Auth({ scope: 'account', rateLimit: 'status' })
  queueStatus(@CurrentAuth() auth: AuthContext) {
    return this.usage.queueStatus(auth);
  }

  @Get('concurrency-check')
  @Auth({ scope: 'account', rateLimit: 'status' })
  concurrency(@CurrentAuth() auth: AuthContext) {
    return this.usage.concurrency(auth);
  }
}
