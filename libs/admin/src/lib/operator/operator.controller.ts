import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import {
  adminCreateKeySchema,
  adminCreateTeamSchema,
  adminGrantCreditsSchema,
  adminUpdateTeamSchema,
  type AdminCreateKeyRequest,
  type AdminCreateTeamRequest,
  type AdminGrantCreditsRequest,
  type AdminUpdateTeamRequest,
} from '@quarry/contracts';
import { ZodValidationPipe } from '@quarry/platform/runtime';
import { AdminAuth } from './admin-auth.guard';
import { OperatorService } from './operator.service';

/** The admin API of the operator view (docs/console.md): every route needs ADMIN_API_KEY. */
@Controller('admin/v1')
export class OperatorController {
  constructor(@Inject(OperatorService) private readonly operator: OperatorService) {}

  @Get('teams')
  @AdminAuth()
  teams() {
    return this.operator.teams();
  }

  @Post('teams')
  @HttpCode(200)
  @AdminAuth()
  createTeam(@Body(new ZodValidationPipe(adminCreateTeamSchema)) request: AdminCreateTeamRequest) {
    return this.operator.createTeam(request);
  }

  @Patch('teams/:teamId')
  @AdminAuth()
  updateTeam(
    @Param('teamId') teamId: string,
    @Body(new ZodValidationPipe(adminUpdateTeamSchema)) request: AdminUpdateTeamRequest,
  ) {
    return this.operator.updateTeam(teamId, request);
  }

  @Post('teams/:teamId/credits')
  @HttpCode(200)
  @AdminAuth()
  grant(
    @Param('teamId') teamId: string,
    @Body(new ZodValidationPipe(adminGrantCreditsSchema)) request: AdminGrantCreditsRequest,
  ) {
    return this.operator.grantCredits(teamId, request.amount, request.description);
  }

  @Get('teams/:teamId/keys')
  @AdminAuth()
  keys(@Param('teamId') teamId: string) {
    return this.operator.teamKeys(teamId);
  }

  @Post('teams/:teamId/keys')
  @HttpCode(200)
  @AdminAuth()
  createKey(
    @Param('teamId') teamId: string,
    @Body(new ZodValidationPipe(adminCreateKeySchema)) request: AdminCreateKeyRequest,
  ) {
    return this.operator.createKey(teamId, request);
  }

  @Delete('keys/:keyId')
  @AdminAuth()
  revokeKey(@Param('keyId') keyId: string) {
    return this.operator.revokeKey(keyId);
  }

  @Get('system')
  @AdminAuth()
  system() {
    return this.operator.system();
  }
}
