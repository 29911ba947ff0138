import { createHash, timingSafeEqual } from 'node:crypto';

import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';

import { AppError } from '@quarry/contracts';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';

export const ADMIN_AUTH = 'quarry:admin-auth';

/**
 * The operator credential: `Authorization: Bearer <ADMIN_API_KEY>`, compared as SHA-256 digests in
 * constant time (the configuration keeps only the digest). Without ADMIN_API_KEY the admin API is
 * off (403); a missing or wrong key is 401. Team API keys are never accepted here.
 */
@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.config.admin.apiKeySha256;
    if (!expected)
      throw new AppError('FORBIDDEN', {
        message: 'The admin API is disabled: set ADMIN_API_KEY to enable it',
      });
    const request = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | string[] | undefined> }>();
    const header = request.headers['authorization'];
    const match = /^Bearer\s+(\S+)\s*$/i.exec(Array.isArray(header) ? (header[0] ?? '') : (header ?? ''));
    if (!match) throw new AppError('UNAUTHORIZED');
    const given = createHash('sha256').update(match[1]).digest();
    if (!timingSafeEqual(given, Buffer.from(expected, 'hex'))) throw new AppError('UNAUTHORIZED');
    return true;
  }
}

/** Declares a route of the admin API: reachable only with the deployment's ADMIN_API_KEY. */
export const AdminAuth = () => applyDecorators(SetMetadata(ADMIN_AUTH, true), UseGuards(AdminAuthGuard));
