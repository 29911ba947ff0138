import { AppError } from '@quarry/contracts';
import { hashApiKey, parseBearer } from './api-key.util';
import type { AuthContext } from './auth-context';
import type { IdentityRepository } from './identity.repository';

interface CacheEntry {
  context: AuthContext | undefined;
  expiresAt: number;
}

const CACHE_TTL_MS = 15_000;
const CACHE_MAX = 10_000;

/**
 * Turns an Authorization header into the caller's AuthContext. Lookups are cached briefly in
 * memory (a revoked key stops working within CACHE_TTL_MS on every replica).
 */
export class AuthService {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly repository: IdentityRepository,
    private readonly options: { enabled: boolean; defaultTeam?: () => Promise<AuthContext> },
  ) {}

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
    this.cache.clear();
  }

  private async lookup(hash: string): Promise<AuthContext | undefined> {
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.context;
    const context = await this.repository.findActiveKey(hash);
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(hash, { context, expiresAt: now + CACHE_TTL_MS });
    return context;
  }
}
