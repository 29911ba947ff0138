import type { AppConfig } from '@quarry/platform/config';
import { AddressPolicy, GuardedHttpClient } from '@quarry/platform/net';

export function createGuardedHttpClient(config: AppConfig): GuardedHttpClient {
  return new GuardedHttpClient(new AddressPolicy(config.net.allowPrivateNetworks, config.net.allowlist), {
    userAgent: config.net.userAgent,
    maxBytes: config.limits.maxResponseBytes,
  });
}
