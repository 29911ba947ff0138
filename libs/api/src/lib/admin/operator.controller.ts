import { Controller, Inject, Param } from '@nestjs/common';

import { OperatorService } from '@quarry/admin';
import {
  adminCreatedKeyResponseSchema,
  type AdminCreateKeyRequest,
  adminCreateKeySchema,
  type AdminCreateTeamRequest,
  adminCreateTeamSchema,
  type AdminGrantCreditsRequest,
  adminGrantCreditsSchema,
  adminKeyResponseSchema,
  adminKeysResponseSchema,
  adminSystemResponseSchema,
  adminTeamResponseSchema,
  adminTeamsResponseSchema,
  type AdminUpdateTeamRequest,
  adminUpdateTeamSchema,
} from '@quarry/contracts';

import { Route } from '../openapi/route.decorator';
import { RouteBody } from '../openapi/route-input.decorator';

const TAG = 'admin';

/**
 * The admin API of the operator view (docs/console.md): every route needs ADMIN_API_KEY (`auth:
 * 'operator'`, the `operator` security scheme of the OpenAPI document), never a team key.
 */
@Controller('admin/v1')
export class OperatorController {
  constructor(@Inject(OperatorService) private readonly operator: OperatorService) {}

  @Route({
    method: 'get',
    path: 'teams',
    summary: 'List the teams with balance, limits, keys and last use',
    tag: TAG,
    auth: 'operator',
    response: adminTeamsResponseSchema,
  })
  teams() {
    return this.operator.teams();
  }

  @Route({
    method: 'post',
    path: 'teams',
    summary: 'Create a team',
    tag: TAG,
    auth: 'operator',
    body: adminCreateTeamSchema,
    response: adminTeamResponseSchema,
    statuses: [409],
  })
  createTeam(@RouteBody() request: AdminCreateTeamRequest) {
    return this.operator.createTeam(request);
  }

  @Route({
    method: 'patch',
    path: 'teams/:teamId',
    summary: "Set a team's limits and zero data retention",
    tag: TAG,
    auth: 'operator',
    body: adminUpdateTeamSchema,
    response: adminTeamResponseSchema,
    statuses: [404],
  })
  updateTeam(@Param('teamId') teamId: string, @RouteBody() request: AdminUpdateTeamRequest) {
    return this.operator.updateTeam(teamId, request);
  }

  @Route({
    method: 'post',
    path: 'teams/:teamId/credits',
    summary: 'Grant (or, negative, remove) credits',
    tag: TAG,
    auth: 'operator',
    body: adminGrantCreditsSchema,
    response: adminTeamResponseSchema,
    statuses: [404, 409],
  })
  grant(@Param('teamId') teamId: string, @RouteBody() request: AdminGrantCreditsRequest) {
    return this.operator.grantCredits(teamId, request.amount, request.description);
  }

  @Route({
    method: 'get',
    path: 'teams/:teamId/keys',
    summary: "List a team's keys (never a hash)",
    tag: TAG,
    auth: 'operator',
    response: adminKeysResponseSchema,
    statuses: [400, 404],
  })
  keys(@Param('teamId') teamId: string) {
    return this.operator.teamKeys(teamId);
  }

  @Route({
    method: 'post',
    path: 'teams/:teamId/keys',
    summary: 'Create a key (the full key is shown once)',
    tag: TAG,
    auth: 'operator',
    body: adminCreateKeySchema,
    response: adminCreatedKeyResponseSchema,
    statuses: [404],
  })
  createKey(@Param('teamId') teamId: string, @RouteBody() request: AdminCreateKeyRequest) {
    return this.operator.createKey(teamId, request);
  }

  @Route({
    method: 'delete',
    path: 'keys/:keyId',
    summary: 'Revoke a key',
    tag: TAG,
    auth: 'operator',
    response: adminKeyResponseSchema,
    statuses: [400, 404, 409],
  })
  revokeKey(@Param('keyId') keyId: string) {
    return this.operator.revokeKey(keyId);
  }

  @Route({
    method: 'get',
    path: 'system',
    summary: 'Readiness of every service, unfinished jobs, dashboards',
    tag: TAG,
    auth: 'operator',
    response: adminSystemResponseSchema,
  })
  system() {
    return this.operator.system();
  }
}
