import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import {
  createMonitorSchema,
  monitorCheckDetailQuerySchema,
  monitorChecksQuerySchema,
  monitorEmailTokenSchema,
  monitorListQuerySchema,
  runMonitorSchema,
  updateMonitorSchema,
  type CreateMonitorRequest,
  type MonitorCheckDetailQuery,
  type MonitorCheckStatus,
  type MonitorEmailTokenRequest,
  type UpdateMonitorRequest,
} from '@quarry/contracts';
import { hasScope, type AuthContext } from '@quarry/identity';
import { MonitorService, type MonitorCaller } from '@quarry/monitor';
import { Public, ZodValidationPipe } from '@quarry/platform/http';
import { Auth, CurrentAuth } from '../auth/auth.decorator';
import { ROBOTS_OVERRIDE_SCOPE } from '../crawl/caller.util';
import { defineOperations } from '../openapi/openapi.registry';

defineOperations(
  {
    method: 'post',
    path: '/v2/monitor',
    summary: 'Create a monitor (scheduled checks of pages, crawls or searches)',
    tag: 'monitor',
    body: createMonitorSchema,
    statuses: [403],
  },
  { method: 'get', path: '/v2/monitor', summary: 'Monitors of the team (?limit&offset)', tag: 'monitor' },
  { method: 'get', path: '/v2/monitor/{monitorId}', summary: 'A monitor', tag: 'monitor', statuses: [404] },
  {
    method: 'patch',
    path: '/v2/monitor/{monitorId}',
    summary: 'Update a monitor (any field, status active|paused)',
    tag: 'monitor',
    body: updateMonitorSchema,
    statuses: [404],
  },
  {
    method: 'delete',
    path: '/v2/monitor/{monitorId}',
    summary: 'Delete a monitor with its checks',
    tag: 'monitor',
    statuses: [404],
  },
  {
    method: 'post',
    path: '/v2/monitor/{monitorId}/run',
    summary: 'Run a check now',
    tag: 'monitor',
    body: runMonitorSchema,
    statuses: [404, 409],
  },
  {
    method: 'get',
    path: '/v2/monitor/{monitorId}/checks',
    summary: 'Checks of a monitor (?limit&offset&status)',
    tag: 'monitor',
    statuses: [404],
  },
  {
    method: 'get',
    path: '/v2/monitor/{monitorId}/checks/{checkId}',
    summary: 'A check with its pages and diffs (?limit&skip&status, paged by next)',
    tag: 'monitor',
    statuses: [404],
  },
  {
    method: 'post',
    path: '/v2/monitor/email/confirm',
    summary: 'Confirm an email recipient (token from the confirmation email)',
    tag: 'monitor',
    body: monitorEmailTokenSchema,
    public: true,
  },
  {
    method: 'post',
    path: '/v2/monitor/email/unsubscribe',
    summary: 'Unsubscribe an email recipient (token from any monitor email)',
    tag: 'monitor',
    body: monitorEmailTokenSchema,
    public: true,
  },
);

function callerOf(auth: AuthContext): MonitorCaller {
  return {
    teamId: auth.teamId,
    apiKeyId: auth.apiKeyId,
    zeroDataRetention: auth.zeroDataRetention,
    canOverrideRobots: hasScope(auth, ROBOTS_OVERRIDE_SCOPE),
  };
}

const targetsOf = (raw: unknown): unknown =>
  raw && typeof raw === 'object' ? (raw as { targets?: unknown }).targets : undefined;

/** Monitors (compat §15): CRUD, manual runs, checks; the email opt-in routes take a token instead of a key. */
@Controller('v2/monitor')
export class MonitorController {
  constructor(@Inject(MonitorService) private readonly monitors: MonitorService) {}

  @Post()
  @HttpCode(200)
  @Auth({ scope: 'monitor', rateLimit: 'monitor' })
  create(
    @CurrentAuth() auth: AuthContext,
    @Body(new ZodValidationPipe(createMonitorSchema)) request: CreateMonitorRequest,
    @Body() raw: unknown,
  ) {
    return this.monitors.create(callerOf(auth), request, targetsOf(raw));
  }

  @Get()
  @Auth({ scope: 'monitor', rateLimit: 'status' })
  list(
    @CurrentAuth() auth: AuthContext,
    @Query(new ZodValidationPipe(monitorListQuerySchema)) query: { limit: number; offset: number },
  ) {
    return this.monitors.list(callerOf(auth), query.limit, query.offset);
  }

  @Post('email/confirm')
  @HttpCode(200)
  @Public()
  confirm(@Body(new ZodValidationPipe(monitorEmailTokenSchema)) request: MonitorEmailTokenRequest) {
    return this.monitors.confirmEmail(request.token);
  }

  @Post('email/unsubscribe')
  @HttpCode(200)
  @Public()
  unsubscribe(@Body(new ZodValidationPipe(monitorEmailTokenSchema)) request: MonitorEmailTokenRequest) {
    return this.monitors.unsubscribeEmail(request.token);
  }

  @Get(':monitorId')
  @Auth({ scope: 'monitor', rateLimit: 'status' })
  get(@CurrentAuth() auth: AuthContext, @Param('monitorId') monitorId: string) {
    return this.monitors.get(callerOf(auth), monitorId);
  }

  @Patch(':monitorId')
  @Auth({ scope: 'monitor', rateLimit: 'monitor' })
  update(
    @CurrentAuth() auth: AuthContext,
    @Param('monitorId') monitorId: string,
    @Body(new ZodValidationPipe(updateMonitorSchema)) request: UpdateMonitorRequest,
    @Body() raw: unknown,
  ) {
    return this.monitors.update(callerOf(auth), monitorId, request, targetsOf(raw));
  }

  @Delete(':monitorId')
  @Auth({ scope: 'monitor', rateLimit: 'monitor' })
  remove(@CurrentAuth() auth: AuthContext, @Param('monitorId') monitorId: string) {
    return this.monitors.delete(callerOf(auth), monitorId);
  }

  @Post(':monitorId/run')
  @HttpCode(200)
  @Auth({ scope: 'monitor', rateLimit: 'monitor' })
  run(
    @CurrentAuth() auth: AuthContext,
    @Param('monitorId') monitorId: string,
    @Body(new ZodValidationPipe(runMonitorSchema)) _body: unknown,
  ) {
    return this.monitors.run(callerOf(auth), monitorId);
  }

  @Get(':monitorId/checks')
  @Auth({ scope: 'monitor', rateLimit: 'status' })
  checks(
    @CurrentAuth() auth: AuthContext,
    @Param('monitorId') monitorId: string,
    @Query(new ZodValidationPipe(monitorChecksQuerySchema))
    query: { limit: number; offset: number; status?: MonitorCheckStatus },
  ) {
    return this.monitors.checks(callerOf(auth), monitorId, query);
  }

  @Get(':monitorId/checks/:checkId')
  @Auth({ scope: 'monitor', rateLimit: 'status' })
  check(
    @CurrentAuth() auth: AuthContext,
    @Param('monitorId') monitorId: string,
    @Param('checkId') checkId: string,
    @Query(new ZodValidationPipe(monitorCheckDetailQuerySchema)) query: MonitorCheckDetailQuery,
  ) {
    return this.monitors.check(callerOf(auth), monitorId, checkId, query);
  }
}
