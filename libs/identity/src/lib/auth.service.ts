import { AppError } from '@quarry/contracts';

import { hashApiKey, parseBearer } from './api-key.util';
import type { AuthContext } from './auth-context';
import type { IdentityRepository } from './identity.repository';
import { KeyCache } from './key-cache';

export interface AuthSettings {
  /** How long a valid key's context (team, scopes, team settings) is reused at most. */
  validTtlMs: number;
  validMax: number;
  /** How long an unknown key is remembered as unknown, unless a key is created meanwhile. */
  unknownTtlMs: number;
  unknownMax: number;
  /**
   * How old the last look at the key generation (keys created and revoked) may be when a request is
   * answered from the caches: a key revoked anywhere is refused, and a key created in another process
   * (the CLI, bootstrap) accepted although it was refused just before, within this long.
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
 *
 * Both caches hold only while the key generation they were filled under is current: it changes
 * whenever a key is created or revoked, and a request is answered from a cache only when the last
 * look at it is at most `generationMaxAgeMs` old (one query for all requests; with
 * `refreshInBackground` it is re-read twice as often, so requests do not wait for it). A change
 * empties both caches, so a key revoked by any process is refused by every replica within about
 * that long, and a key created by any process is accepted as soon.
 */
export class AuthService {
  private readonly valid: KeyCache<AuthContext>;
  private readonly unknown: KeyCache<string>;
  private readonly inFlight = new Map<string, Promise<AuthContext | undefined>>();
  private generation?: { value: string; readAt: number };
  private generationRead?: Promise<string | undefined>;
  private refresher?: NodeJS.Timeout;
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
      /** Re-read the key generation in the background (`start()`) from the first request on: servers set it. */
      refreshInBackground?: boolean;
    },
  ) {
    this.settings = { ...DEFAULT_AUTH_SETTINGS, ...options.settings };
    const now = options.now ?? Date.now;
    this.valid = new KeyCache(this.settings.validTtlMs, this.settings.validMax, now);
    this.unknown = new KeyCache(this.settings.unknownTtlMs, this.settings.unknownMax, now);
  }

  /** Re-reads the key generation in the background every half `generationMaxAgeMs`. */
  start(): void {
    if (!this.options.enabled || this.refresher) return;
    this.refresher = setInterval(() => void this.readGeneration(), this.settings.generationMaxAgeMs / 2);
    this.refresher.unref();
  }

  stop(): void {
    if (this.refresher) clearInterval(this.refresher);
    this.refresher = undefined;
  }

  onModuleDestroy(): void {
    this.stop();
  }

  async authenticate(authorization: string | undefined): Promise<AuthContext> {
    if (!this.options.enabled) {
      if (!this.options.defaultTeam) throw new AppError('UNAUTHORIZED');
      return this.options.defaultTeam();
    }
    if (this.options.refreshInBackground && !this.refresher) this.start();
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
    // Read first: a generation that changed empties the caches before they answer.
    const generation = await this.currentGeneration();
    const cached = this.valid.get(hash);
    if (cached) {
      this.options.onLookup?.('cache', 'valid');
      return cached;
    }
    const unknownUnder = this.unknown.get(hash);
    if (unknownUnder !== undefined && unknownUnder === generation) {
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
    return this.readGeneration();
  }

  /** One read at a time; a changed generation empties both caches (a key was created or revoked). */
  private readGeneration(): Promise<string | undefined> {
    const startedAt = (this.options.now ?? Date.now)();
    this.generationRead ??= this.repository
      .keyGeneration()
      .then(
        (value) => {
          if (this.generation?.value !== value) {
            this.unknown.clear();
            this.valid.clear();
          }
          // The state read is at least as recent as the moment the read was sent.
          this.generation = { value, readAt: startedAt };
          return value;
        },
        // Unreadable (the database is down): valid keys keep their entries, unknown ones are read again.
        () => undefined,
      )
      .finally(() => (this.generationRead = undefined));
    return this.generationRead;
  }
}
