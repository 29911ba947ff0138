import type { ScrapeRequest } from '@quarry/contracts';

export type ProxyTier = 'basic' | 'enhanced';

export interface ProxyAttempt {
  tier: ProxyTier;
  /** Proxy URL; undefined = direct connection. */
  url?: string;
}

/**
 * The outbound proxy pools (PROXY_BASIC_URLS, PROXY_ENHANCED_URLS, PROXY_COUNTRY_URLS), used
 * round-robin. `basic` uses the basic pool, `enhanced` the enhanced pool (else basic), `auto` tries
 * basic and retries on the enhanced pool when basic fails. A request whose `location.country` has a
 * country pool uses that pool in place of the basic one (the exit is in that country). Empty pools
 * mean direct connections.
 */
export class ProxyPools {
  private readonly next = new Map<string, number>();

  constructor(
    private readonly pools: {
      basic: readonly string[];
      enhanced: readonly string[];
      countries?: Readonly<Record<string, readonly string[]>>;
    },
  ) {}

  get hasEnhanced(): boolean {
    return this.pools.enhanced.length > 0;
  }

  plan(mode: ScrapeRequest['proxy'], country?: string): ProxyAttempt[] {
    const local = country ? this.pools.countries?.[country.toUpperCase()] : undefined;
    const basic = () =>
      local?.length ? this.pick('basic', local, `country:${country?.toUpperCase()}`) : this.pick('basic');
    if (mode === 'enhanced') return [this.hasEnhanced ? this.pick('enhanced') : basic()];
    if (mode === 'auto' && this.hasEnhanced) return [basic(), this.pick('enhanced')];
    return [basic()];
  }

  private pick(
    tier: ProxyTier,
    pool: readonly string[] = this.pools[tier],
    key: string = tier,
  ): ProxyAttempt {
    if (pool.length === 0) return { tier: 'basic' };
    const index = this.next.get(key) ?? 0;
    this.next.set(key, index + 1);
    return { tier, url: pool[index % pool.length] };
  }
}

/** Statuses that mean "this route was refused" (anti-bot, rate limit, proxy trouble): worth a retry on the enhanced pool. */
export function isRefusalStatus(status: number): boolean {
  return [401, 403, 407, 429, 502, 503].includes(status);
}
