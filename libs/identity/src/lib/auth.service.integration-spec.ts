import type { Database } from '@quarry/platform/database';
import { createTestDatabase, type TestDatabase } from '@quarry/testing';

import { generateApiKey } from './api-key.util';
import { AuthService } from './auth.service';
import { IdentityRepository } from './identity.repository';
import { KeyManagementService } from './key-management.service';

/** The key caches against real PostgreSQL, with keys created and revoked through a second connection pool (another process). */
describe('AuthService on PostgreSQL', () => {
  let testDb: TestDatabase;
  let gatewayDb: Database;
  let cliDb: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    gatewayDb = await testDb.open();
    cliDb = await testDb.open();
  });
  afterAll(async () => {
    await gatewayDb?.close();
    await cliDb?.close();
    await testDb?.drop();
  });

  it('accepts a key created elsewhere within about a second of its creation, after refusing it', async () => {
    let lookups = 0;
    const sut = new AuthService(new IdentityRepository(gatewayDb), {
      enabled: true,
      onLookup: (source) => void (source === 'database' && (lookups += 1)),
    });
    const key = generateApiKey();
    for (let i = 0; i < 20; i += 1)
      await expect(sut.authenticate(`Bearer ${key}`)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(lookups).toBe(1);
    await new KeyManagementService(new IdentityRepository(cliDb)).createKey('acme', { key });
    const created = Date.now();
    let acceptedAfter: number | undefined;
    while (acceptedAfter === undefined && Date.now() - created < 10_000) {
      const context = await sut.authenticate(`Bearer ${key}`).catch(() => undefined);
      if (context) acceptedAfter = Date.now() - created;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(acceptedAfter).toBeDefined();
    expect(acceptedAfter).toBeLessThan(1_500);
  });

  it('changes the key generation when a key is created or revoked', async () => {
    const repository = new IdentityRepository(gatewayDb);
    const keys = new KeyManagementService(new IdentityRepository(cliDb));
    const before = await repository.keyGeneration();
    const created = await keys.createKey('acme');
    const afterCreate = await repository.keyGeneration();
    expect(afterCreate).not.toBe(before);
    await keys.revoke(created.key);
    expect(await repository.keyGeneration()).not.toBe(afterCreate);
  });

  it('refuses a key revoked by another process within a second on every replica that has it cached', async () => {
    const keys = new KeyManagementService(new IdentityRepository(cliDb));
    const { key } = await keys.createKey('acme');
    // Two gateway replicas (pools of their own), each with the key in its cache and answering from it.
    const replicaDbs = [await testDb.open(), await testDb.open()];
    const replicas = replicaDbs.map(
      (db) => new AuthService(new IdentityRepository(db), { enabled: true, refreshInBackground: true }),
    );
    try {
      for (const replica of replicas)
        await expect(replica.authenticate(`Bearer ${key}`)).resolves.toMatchObject({ teamName: 'acme' });
      await keys.revoke(key);
      const revoked = Date.now();
      const refusedAfter = await Promise.all(
        replicas.map(async (replica) => {
          while (Date.now() - revoked < 5_000) {
            const accepted = await replica.authenticate(`Bearer ${key}`).then(
              () => true,
              () => false,
            );
            if (!accepted) return Date.now() - revoked;
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
          return Number.POSITIVE_INFINITY;
        }),
      );
      for (const after of refusedAfter) expect(after).toBeLessThanOrEqual(1_000);
    } finally {
      for (const replica of replicas) replica.stop();
      for (const db of replicaDbs) await db.close();
    }
  });
});
