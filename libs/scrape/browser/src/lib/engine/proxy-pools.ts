import type { ScrapeRequest } from '@quarry/contracts';

export type ProxyTier = 'basic' | 'enhanced';

export interface ProxyAttempt {
  tier: ProxyTier;
  /** Proxy URL; undefined = direct connection. */
  url?: string;
}

/**
 * The outbound proxy pools (PROXY_BASIC_URLS, PROXY_ENHANCED_URLS), used round-robin. `basic`
 * uses the basic pool, `enhanced` the enhanced pool (else basic), `auto` tries basic and retries on
 * the enhanced pool when basic fails. Empty pools mean direct connections.
 */
export class ProxyPools {
  private next = { basic: 0, enhanced: 0 };

  constructor(private readonly pools: { basic: readonly string[]; enhanced: readonly string[] }) {}

  get hasEnhanced(): boolean {
    return this.pools.enhanced.length > 0;
  }

  plan(mode: ScrapeRequest['proxy']): ProxyAttempt[] {
    if (mode === 'enhanced') return [this.hasEnhanced ? this.pick('enhanced') : this.pick('basic')];
    if (mode === 'auto' && this.hasEnhanced) return [this.pick('basic'), this.pick('enhanced')];
    return [this.pick('basic')];
  }

  private pick(tier: ProxyTier): ProxyAttempt {
    const pool = this.pools[tier];
    if (pool.length === 0) return { tier: 'basic' };
    const url = pool[this.next[tier] % pool.length];
    this.next[tier] += 1;
    return { tier, url };
  }
}

/** Statuses that mean "this route was refused" (anti-bot, rate limit, proxy trouble): worth a retry on the enhanced pool. */
export function isRefusalStatus(status: number): boolean {
  return [401, 403, 407, 429, 502, 503].includes(status);
}
