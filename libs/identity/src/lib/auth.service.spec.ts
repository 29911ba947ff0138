import { hashApiKey } from './api-key.util';
import { AuthService } from './auth.service';
import type { AuthContext } from './auth-context';
import type { IdentityRepository } from './identity.repository';

/** The key table at the repository boundary: counts the lookups the service makes. */
class FakeKeys {
  readonly keys = new Map<string, AuthContext>();
  lookups = 0;
  generationReads = 0;

  add(key: string): void {
    this.keys.set(hashApiKey(key), {
      teamId: 't1',
      teamName: 'acme',
      scopes: ['*'],
      zeroDataRetention: false,
    });
  }

  asRepository(): IdentityRepository {
    return {
      findActiveKey: async (hash: string) => {
        this.lookups += 1;
        return this.keys.get(hash);
      },
      keyGeneration: async () => {
        this.generationReads += 1;
        return `${this.keys.size}`;
      },
    } as unknown as IdentityRepository;
  }
}

describe('AuthService', () => {
  let keys: FakeKeys;
  let clock: number;
  const sut = (settings = {}) =>
    new AuthService(keys.asRepository(), { enabled: true, settings, now: () => clock });
  const bearer = (key: string) => `Bearer ${key}`;
  const refused = (service: AuthService, key: string) =>
    expect(service.authenticate(bearer(key))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });

  beforeEach(() => {
    keys = new FakeKeys();
    clock = 1_000_000;
  });

  it('looks each distinct unknown key up once while it is remembered', async () => {
    const service = sut();
    const made = Array.from({ length: 3_000 }, (_, index) => `fc-unknown-${index}`);
    for (let round = 0; round < 3; round += 1) {
      for (const key of made) await refused(service, key);
      clock += 15_000; // a round of 3,000 keys taking 15 s: longer than a valid key is cached
    }
    expect(keys.lookups).toBe(3_000);
    // The key generation is read once per second at most, for every request together.
    expect(keys.generationReads).toBeLessThanOrEqual(4);
  });

  it('accepts a key created by another process within a second of its creation, although it was just refused', async () => {
    const service = sut();
    await refused(service, 'fc-new-key');
    keys.add('fc-new-key');
    clock += 500;
    await refused(service, 'fc-new-key'); // still under the generation it was refused in
    clock += 600;
    await expect(service.authenticate(bearer('fc-new-key'))).resolves.toMatchObject({ teamName: 'acme' });
  });

  it('refuses a cached key within a second of its revocation by another process', async () => {
    keys.add('fc-revoked-key');
    const service = sut();
    await expect(service.authenticate(bearer('fc-revoked-key'))).resolves.toMatchObject({ teamName: 'acme' });
    keys.keys.delete(hashApiKey('fc-revoked-key')); // revoked elsewhere: the generation changes
    clock += 500;
    await expect(service.authenticate(bearer('fc-revoked-key'))).resolves.toMatchObject({ teamName: 'acme' });
    clock += 600;
    await refused(service, 'fc-revoked-key');
  });

  it('forgets unknown keys after their time to live, and when full drops the oldest first', async () => {
    const service = sut({ unknownTtlMs: 10_000, unknownMax: 100, generationMaxAgeMs: 60_000 });
    for (let index = 0; index < 150; index += 1) await refused(service, `fc-flood-${index}`);
    expect(keys.lookups).toBe(150);
    await refused(service, 'fc-flood-149'); // recent: remembered
    expect(keys.lookups).toBe(150);
    await refused(service, 'fc-flood-0'); // pushed out by the cap
    expect(keys.lookups).toBe(151);
    clock += 10_001;
    await refused(service, 'fc-flood-149');
    expect(keys.lookups).toBe(152);
  });

  it('keeps valid keys cached whatever the flood of unknown ones', async () => {
    keys.add('fc-good-key');
    const service = sut({ unknownMax: 10 });
    await service.authenticate(bearer('fc-good-key'));
    for (let index = 0; index < 1_000; index += 1) await refused(service, `fc-flood-${index}`);
    const before = keys.lookups;
    await service.authenticate(bearer('fc-good-key'));
    expect(keys.lookups).toBe(before);
  });

  it('makes one database lookup for concurrent requests with the same new key', async () => {
    const service = sut();
    await Promise.all(Array.from({ length: 20 }, () => refused(service, 'fc-burst')));
    expect(keys.lookups).toBe(1);
  });

  it('reports where each answer came from', async () => {
    keys.add('fc-good-key');
    const seen: string[] = [];
    const service = new AuthService(keys.asRepository(), {
      enabled: true,
      now: () => clock,
      onLookup: (source, result) => seen.push(`${source}:${result}`),
    });
    await service.authenticate(bearer('fc-good-key'));
    await service.authenticate(bearer('fc-good-key'));
    await refused(service, 'fc-bad-key');
    await refused(service, 'fc-bad-key');
    expect(seen).toEqual(['database:valid', 'cache:valid', 'database:unknown', 'cache:unknown']);
  });

  it('refuses a missing or malformed header without a lookup', async () => {
    const service = sut();
    await expect(service.authenticate(undefined)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(service.authenticate('Basic abc')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(keys.lookups).toBe(0);
  });
});
