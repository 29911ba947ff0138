import { applyDecorators, createParamDecorator, SetMetadata, UseGuards, type ExecutionContext } from '@nestjs/common';
import type { AuthContext } from '@quarry/identity';
import { ApiAuthGuard } from './api-auth.guard';

export const AUTH_REQUIREMENT = 'quarry:auth-requirement';

export interface AuthRequirement {
  /** Permission the key needs (403 otherwise). */
  scope: string;
  /** Rate-limit bucket counted per team per minute; omit for routes outside the limit. */
  rateLimit?: string;
  /** Path parameters that must be UUIDs (checked before the body is validated). */
  uuidParams?: string[];
}

/** Declares how a route is authenticated; every non-public route carries it. */
export const Auth = (requirement: AuthRequirement) => applyDecorators(SetMetadata(AUTH_REQUIREMENT, requirement), UseGuards(ApiAuthGuard));

export interface AuthenticatedRequest {
  auth?: AuthContext;
  headers: Record<string, string | string[] | undefined>;
  params?: Record<string, string>;
}

/** The caller's AuthContext, set by ApiAuthGuard. */
export const CurrentAuth = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.auth) throw new Error('CurrentAuth used on a route without @Auth');
  return request.auth;
});
