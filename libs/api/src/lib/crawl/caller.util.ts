import type { Caller } from '@quarry/crawl';
import { type AuthContext, hasScope } from '@quarry/identity';

/** Scope a key needs to override robots.txt (`ignoreRobotsTxt`, `robotsUserAgent`: enterprise features in the reference). */
export const ROBOTS_OVERRIDE_SCOPE = 'crawl.robots';

export function callerOf(auth: AuthContext, publicUrl?: string): Caller {
  return {
    publicUrl,
    teamId: auth.teamId,
    apiKeyId: auth.apiKeyId,
    zeroDataRetention: auth.zeroDataRetention,
    concurrencyLimit: auth.concurrencyLimit,
    canOverrideRobots: hasScope(auth, ROBOTS_OVERRIDE_SCOPE),
  };
}
