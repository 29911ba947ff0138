import { Module } from '@nestjs/common';

import { AdminAuthGuard, OperatorService } from '@quarry/admin';

import { OperatorController } from './operator.controller';

/**
 * The admin API (`/admin/v1`) behind the console's operator view, served by the gateway and the
 * one-process server. Uses the identity, billing and jobs modules the API module makes global.
 */
@Module({ controllers: [OperatorController], providers: [AdminAuthGuard, OperatorService] })
export class OperatorApiModule {}
