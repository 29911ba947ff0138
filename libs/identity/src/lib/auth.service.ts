import { AppError } from '@quarry/contracts';

import { hashApiKey, parseBearer } from './api-key.util';
import type { AuthContext } from './auth-context';
import type { IdentityRepository } from './identity.repository';
import { KeyCache } from './key-cache';

export interface AuthSettings {
  /** How long a valid key's context is reused (a revoked key stops working within this on every replica). */
  validTtlMs: number;
  validMax: number;
  /** How long an unknown key is remembered as unknown, unless a key is created meanwhile. */
  unknownTtlMs: number;
  unknownMax: number;
  /**
   * How old the last look at the key generation (count and newest creation of keys) may be before
   * an unknown key is trusted again: a key created in another process (the CLI, bootstrap) works
   * within about this long although it was refused just before.
   */
  generationMaxAgeMs: number;
}

export const DEFAULT_AUTH_SETTINGS: AuthSettings = {
  validTtlMs: 15_000,
  validMax: 10_000,
  unknownTtlMs: 60_000,
  unknownMax: 50_000,
  generationMaxAgeMs: 1_000,
};

/**
 * Turns an Authorization header into the caller's AuthContext. Valid keys are cached briefly; unknown
 * keys are remembered in a separate, size-capped negative cache, so that a flood of made-up keys costs
 * one database lookup per distinct key rather than one per request, and cannot evict the valid ones.
 * A negative entry only holds while the key generation it was made under is current; the generation
 * is re-read at most once per `generationMaxAgeMs` (one query for all requests), so a key created by
 * any process is accepted within about that long.
 */
export class AuthService {
  private readonly valid: KeyCache<AuthContext>;
  private readonly unknown: KeyCache<string>;
  private readonly inFlight = new Map<string, Promise<AuthContext | undefined>>();
  private generation?: { value: string; readAt: number };
  private generationRead?: Promise<string | undefined>;
  private readonly settings: AuthSettings;

  constructor(
    private readonly repository: IdentityRepository,
    private readonly options: {
      enabled: boolean;
      defaultTeam?: () => Promise<AuthContext>;
      /** Counts every key lookup by where its answer came from (metrics). */
      onLookup?: (source: 'cache' | 'database', result: 'valid' | 'unknown') => void;
      settings?: Partial<AuthSettings>;
      now?: () => number;
    },
  ) {
    this.settings = { ...DEFAULT_AUTH_SETTINGS, ...options.settings };
    const now = options.now ?? Date.now;
    this.valid = new KeyCache(this.settings.validTtlMs, this.settings.validMax, now);
    this.unknown = new KeyCache(this.settings.unknownTtlMs, this.settings.unknownMax, now);
  }

  async authenticate(authorization: string | undefined): Promise<AuthContext> {
    if (!this.options.enabled) {
      if (!this.options.defaultTeam) throw new AppError('UNAUTHORIZED');
      return this.options.defaultTeam();
    }
    const key = parseBearer(authorization);
    if (!key) throw new AppError('UNAUTHORIZED');
    const context = await this.lookup(hashApiKey(key));
    if (!context) throw new AppError('UNAUTHORIZED');
    return context;
  }

  /** Authenticates a raw key (WebSocket subprotocol). */
  async authenticateKey(key: string | undefined): Promise<AuthContext> {
    return this.authenticate(key ? `Bearer ${key}` : undefined);
  }

  invalidate(): void {
    this.valid.clear();
    this.unknown.clear();
    this.generation = undefined;
  }

  private async lookup(hash: string): Promise<AuthContext | undefined> {
    const cached = this.valid.get(hash);
    if (cached) {
      this.options.onLookup?.('cache', 'valid');
      return cached;
    }
    const unknownUnder = this.unknown.get(hash);
    if (unknownUnder !== undefined && unknownUnder === (await this.currentGeneration())) {
      this.options.onLookup?.('cache', 'unknown');
      return undefined;
    }
    let pending = this.inFlight.get(hash);
    if (!pending) {
      pending = this.load(hash).finally(() => this.inFlight.delete(hash));
      this.inFlight.set(hash, pending);
    }
    return pending;
  }

  private async load(hash: string): Promise<AuthContext | undefined> {
    // The generation is read before the key: a key created in between makes the entry stale, never wrong.
    const generation = await this.currentGeneration();
    const context = await this.repository.findActiveKey(hash);
    this.options.onLookup?.('database', context ? 'valid' : 'unknown');
    if (context) {
      // last_used_at for the operator view: refreshed when the cached entry is (≤ once per TTL per process), never awaited
      if (context.apiKeyId) void this.repository.touchKey(context.apiKeyId).catch(() => undefined);
      this.unknown.delete(hash);
      this.valid.set(hash, context);
    } else if (generation !== undefined) this.unknown.set(hash, generation);
    return context;
  }

  /** The key generation, re-read when older than `generationMaxAgeMs`; undefined when it cannot be read. */
  private async currentGeneration(): Promise<string | undefined> {
    const now = (this.options.now ?? Date.now)();
    if (this.generation && now - this.generation.readAt < this.settings.generationMaxAgeMs)
      return this.generation.value;
    this.generationRead ??= this.repository
      .keyGeneration()
      .then(
        (value) => {
          if (this.generation?.value !== value) this.unknown.clear();
          this.generation = { value, readAt: now };
          return value;
        },
        () => undefined,
      )
      .finally(() => (this.generationRead = undefined));
    return this.generationRead;
  }
}
