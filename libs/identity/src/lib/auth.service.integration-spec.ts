import type { Database } from '@quarry/platform/database';
import { createTestDatabase, type TestDatabase } from '@quarry/testing';

import { generateApiKey } from './api-key.util';
import { AuthService } from './auth.service';
import { IdentityRepository } from './identity.repository';
import { KeyManagementService } from './key-management.service';

/** The negative cache against real PostgreSQL, with keys created through a second connection pool (another process). */
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

  it('changes the key generation when a key is created', async () => {
    const repository = new IdentityRepository(gatewayDb);
    const before = await repository.keyGeneration();
    await new KeyManagementService(new IdentityRepository(cliDb)).createKey('acme');
    expect(await repository.keyGeneration()).not.toBe(before);
  });
});
