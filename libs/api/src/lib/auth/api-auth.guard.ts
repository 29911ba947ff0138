import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

import { RateLimiter } from '@quarry/billing';
import { AppError } from '@quarry/contracts';
import { AuthService, hasScope } from '@quarry/identity';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';

import { requestPublicUrl } from '../http/public-url.util';
import { AUTH_REQUIREMENT, type AuthenticatedRequest, type AuthRequirement } from './auth.decorator';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Bearer authentication (docs/compatibility.md#keys-and-no-keys), permission check, per-team rate limit and UUID path checks. */
@Injectable()
export class ApiAuthGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(AuthService) private readonly auth: AuthService,
    @Inject(RateLimiter) private readonly rateLimiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const requirement = this.reflector.getAllAndOverride<AuthRequirement | undefined>(AUTH_REQUIREMENT, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!requirement) throw new Error('route guarded without an @Auth requirement');
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers['authorization'];
    const auth = await this.auth.authenticate(Array.isArray(header) ? header[0] : header);
    if (!hasScope(auth, requirement.scope)) throw new AppError('FORBIDDEN');
    if (requirement.rateLimit && this.config.auth.enabled) {
      await this.rateLimiter.consume(
        auth.teamId,
        requirement.rateLimit,
        auth.rateLimitPerMinute ?? this.config.limits.rateLimitPerMinute,
      );
    }
    for (const name of requirement.uuidParams ?? []) {
      const value = request.params?.[name];
      if (value === undefined || !UUID.test(value)) throw new AppError('INVALID_JOB_ID');
    }
    request.auth = auth;
    const service = this.config.service;
    request.publicUrl = requestPublicUrl(
      service.publicUrlConfigured ? service.publicUrl : undefined,
      request.headers,
      request.protocol,
    );
    return true;
  }
}
