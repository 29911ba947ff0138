import {
  applyDecorators,
  createParamDecorator,
  type ExecutionContext,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';

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
export const Auth = (requirement: AuthRequirement) =>
  applyDecorators(SetMetadata(AUTH_REQUIREMENT, requirement), UseGuards(ApiAuthGuard));

export interface AuthenticatedRequest {
  auth?: AuthContext;
  /** Base of absolute URLs for this caller (PUBLIC_URL, else the host the request came through). */
  publicUrl?: string;
  headers: Record<string, string | string[] | undefined>;
  params?: Record<string, string>;
  protocol?: string;
}

/** The base of absolute URLs handed to the caller (set by ApiAuthGuard; undefined: the configured fallback). */
export const RequestPublicUrl = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string | undefined => {
    return context.switchToHttp().getRequest<AuthenticatedRequest>().publicUrl;
  },
);

/** The caller's AuthContext, set by ApiAuthGuard. */
export const CurrentAuth = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.auth) throw new Error('CurrentAuth used on a route without @Auth');
  return request.auth;
});
