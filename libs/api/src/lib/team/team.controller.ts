import { Controller, Inject } from '@nestjs/common';

import { dailyUsageQuerySchema, dailyUsageResponseSchema, teamInfoResponseSchema } from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';

import { CurrentAuth } from '../auth/auth.decorator';
import { Route } from '../openapi/route.decorator';
import { RouteQuery } from '../openapi/route-input.decorator';
import { TeamService } from './team.service';

/** The caller's team and its daily usage (docs/console.md). */
@Controller('v2/team')
export class TeamController {
  constructor(@Inject(TeamService) private readonly team: TeamService) {}

  @Route({
    method: 'get',
    summary: 'The calling key, its team, balance and limits',
    tag: 'account',
    auth: { scope: 'account', rateLimit: 'status' },
    response: teamInfoResponseSchema,
  })
  info(@CurrentAuth() auth: AuthContext) {
    return this.team.info(auth);
  }

  @Route({
    method: 'get',
    path: 'usage/daily',
    summary: 'Credits and tokens per UTC day and endpoint (?days=1..366, default 30)',
    tag: 'account',
    statuses: [400],
    auth: { scope: 'account', rateLimit: 'status' },
    query: dailyUsageQuerySchema,
    response: dailyUsageResponseSchema,
  })
  daily(@CurrentAuth() auth: AuthContext, @RouteQuery() query: { days: number }) {
    return this.team.daily(auth, query.days);
  }
}
