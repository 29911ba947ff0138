import { Body, Controller, Inject, Param } from '@nestjs/common';

import {
  type CreateMonitorRequest,
  createMonitorSchema,
  type MonitorCheckDetailQuery,
  monitorCheckDetailQuerySchema,
  monitorCheckDetailResponseSchema,
  monitorChecksQuerySchema,
  monitorChecksResponseSchema,
  type MonitorCheckStatus,
  monitorDeleteResponseSchema,
  monitorEmailResponseSchema,
  type MonitorEmailTokenRequest,
  monitorEmailTokenSchema,
  monitorListQuerySchema,
  monitorListResponseSchema,
  monitorResponseSchema,
  monitorRunResponseSchema,
  runMonitorSchema,
  type UpdateMonitorRequest,
  updateMonitorSchema,
} from '@quarry/contracts';
import { type AuthContext, hasScope } from '@quarry/identity';
import { type MonitorCaller, MonitorService } from '@quarry/monitor';

import { CurrentAuth } from '../auth/auth.decorator';
import { ROBOTS_OVERRIDE_SCOPE } from '../crawl/caller.util';
import { Route } from '../openapi/route.decorator';
import { RouteBody, RouteQuery } from '../openapi/route-input.decorator';

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

/** Monitors (docs/monitor.md): CRUD, manual runs, checks; the email opt-in routes take a token instead of a key. */
@Controller('v2/monitor')
export class MonitorController {
  constructor(@Inject(MonitorService) private readonly monitors: MonitorService) {}

  @Route({
    method: 'post',
    summary: 'Create a monitor (scheduled checks of pages, crawls or searches)',
    tag: 'monitor',
    body: createMonitorSchema,
    statuses: [403],
    auth: { scope: 'monitor', rateLimit: 'monitor' },
    response: monitorResponseSchema,
  })
  create(@CurrentAuth() auth: AuthContext, @RouteBody() request: CreateMonitorRequest, @Body() raw: unknown) {
    return this.monitors.create(callerOf(auth), request, targetsOf(raw));
  }

  @Route({
    method: 'get',
    summary: 'Monitors of the team (?limit&offset)',
    tag: 'monitor',
    auth: { scope: 'monitor', rateLimit: 'status' },
    query: monitorListQuerySchema,
    response: monitorListResponseSchema,
  })
  list(@CurrentAuth() auth: AuthContext, @RouteQuery() query: { limit: number; offset: number }) {
    return this.monitors.list(callerOf(auth), query.limit, query.offset);
  }

  @Route({
    method: 'post',
    path: 'email/confirm',
    summary: 'Confirm an email recipient (token from the confirmation email)',
    tag: 'monitor',
    body: monitorEmailTokenSchema,
    auth: 'public',
    response: monitorEmailResponseSchema,
  })
  confirm(@RouteBody() request: MonitorEmailTokenRequest) {
    return this.monitors.confirmEmail(request.token);
  }

  @Route({
    method: 'post',
    path: 'email/unsubscribe',
    summary: 'Unsubscribe an email recipient (token from any monitor email)',
    tag: 'monitor',
    body: monitorEmailTokenSchema,
    auth: 'public',
    response: monitorEmailResponseSchema,
  })
  unsubscribe(@RouteBody() request: MonitorEmailTokenRequest) {
    return this.monitors.unsubscribeEmail(request.token);
  }

  @Route({
    method: 'get',
    path: ':monitorId',
    summary: 'A monitor',
    tag: 'monitor',
    statuses: [404],
    auth: { scope: 'monitor', rateLimit: 'status' },
    response: monitorResponseSchema,
  })
  get(@CurrentAuth() auth: AuthContext, @Param('monitorId') monitorId: string) {
    return this.monitors.get(callerOf(auth), monitorId);
  }

  @Route({
    method: 'patch',
    path: ':monitorId',
    summary: 'Update a monitor (any field, status active|paused)',
    tag: 'monitor',
    body: updateMonitorSchema,
    statuses: [404],
    auth: { scope: 'monitor', rateLimit: 'monitor' },
    response: monitorResponseSchema,
  })
  update(
    @CurrentAuth() auth: AuthContext,
    @Param('monitorId') monitorId: string,
    @RouteBody() request: UpdateMonitorRequest,
    @Body() raw: unknown,
  ) {
    return this.monitors.update(callerOf(auth), monitorId, request, targetsOf(raw));
  }

  @Route({
    method: 'delete',
    path: ':monitorId',
    summary: 'Delete a monitor with its checks',
    tag: 'monitor',
    statuses: [404],
    auth: { scope: 'monitor', rateLimit: 'monitor' },
    response: monitorDeleteResponseSchema,
  })
  remove(@CurrentAuth() auth: AuthContext, @Param('monitorId') monitorId: string) {
    return this.monitors.delete(callerOf(auth), monitorId);
  }

  @Route({
    method: 'post',
    path: ':monitorId/run',
    summary: 'Run a check now',
    tag: 'monitor',
    body: runMonitorSchema,
    statuses: [404, 409],
    auth: { scope: 'monitor', rateLimit: 'monitor' },
    response: monitorRunResponseSchema,
  })
  run(@CurrentAuth() auth: AuthContext, @Param('monitorId') monitorId: string, @RouteBody() _body: unknown) {
    return this.monitors.run(callerOf(auth), monitorId);
  }

  @Route({
    method: 'get',
    path: ':monitorId/checks',
    summary: 'Checks of a monitor (?limit&offset&status)',
    tag: 'monitor',
    statuses: [404],
    auth: { scope: 'monitor', rateLimit: 'status' },
    query: monitorChecksQuerySchema,
    response: monitorChecksResponseSchema,
  })
  checks(
    @CurrentAuth() auth: AuthContext,
    @Param('monitorId') monitorId: string,
    @RouteQuery()
    query: { limit: number; offset: number; status?: MonitorCheckStatus },
  ) {
    return this.monitors.checks(callerOf(auth), monitorId, query);
  }

  @Route({
    method: 'get',
    path: ':monitorId/checks/:checkId',
    summary: 'A check with its pages and diffs (?limit&skip&status, paged by next)',
    tag: 'monitor',
    statuses: [404],
    auth: { scope: 'monitor', rateLimit: 'status' },
    query: monitorCheckDetailQuerySchema,
    response: monitorCheckDetailResponseSchema,
  })
  check(
    @CurrentAuth() auth: AuthContext,
    @Param('monitorId') monitorId: string,
    @Param('checkId') checkId: string,
    @RouteQuery() query: MonitorCheckDetailQuery,
  ) {
    return this.monitors.check(callerOf(auth), monitorId, checkId, query);
  }
}
