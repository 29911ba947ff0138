import { randomUUID } from 'node:crypto';

import { AppError } from '@quarry/contracts';
import type { Database } from '@quarry/platform/database';
import { createTestDatabase, type TestDatabase } from '@quarry/testing';

import { ChangeSnapshotRepository } from './change-snapshot.repository';
import { ProfileRepository } from './profile.repository';
import { TeamConcurrencyLimiter } from './team-concurrency';

jest.setTimeout(30_000);

describe('scrape state on PostgreSQL', () => {
  let testDb: TestDatabase;
  let db: Database;
  let teamId: string;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await testDb.open();
    teamId = (await db.prisma.team.create({ data: { name: `team-${randomUUID()}`, concurrencyLimit: 2 } }))
      .id;
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  describe('TeamConcurrencyLimiter', () => {
    it('reads the team limit and lets that many slots run at once', async () => {
      const sut = new TeamConcurrencyLimiter(db);
      expect(await sut.limitFor(teamId, 5)).toBe(2);
      const first = await sut.acquire({ teamId, limit: 2, maxWaitMs: 1_000, leaseMs: 10_000 });
      const second = await sut.acquire({ teamId, limit: 2, maxWaitMs: 1_000, leaseMs: 10_000 });
      expect([first.queuedMs, second.queuedMs]).toEqual([0, 0]);
      expect(await sut.active(teamId)).toBe(2);

      const started = Date.now();
      const third = sut.acquire({ teamId, limit: 2, maxWaitMs: 5_000, leaseMs: 10_000 });
      setTimeout(() => void first.release(), 400);
      const slot = await third;
      expect(slot.queuedMs).toBeGreaterThanOrEqual(350);
      expect(Date.now() - started).toBeLessThan(3_000);
      await Promise.all([second.release(), slot.release()]);
      expect(await sut.active(teamId)).toBe(0);
    });

    it('answers 429 Concurrency limit reached when the wait would exceed its budget', async () => {
      const sut = new TeamConcurrencyLimiter(db);
      const held = await sut.acquire({ teamId, limit: 1, maxWaitMs: 100, leaseMs: 10_000 });
      const error = await sut
        .acquire({ teamId, limit: 1, maxWaitMs: 300, leaseMs: 10_000 })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: 'CONCURRENCY_LIMITED',
        status: 429,
        message: 'Concurrency limit reached',
      });
      await held.release();
    });

    it('frees the slot of a job whose lease ran out (a dead worker)', async () => {
      const sut = new TeamConcurrencyLimiter(db);
      await sut.acquire({ teamId, limit: 1, maxWaitMs: 100, leaseMs: 1_000 });
      const next = await sut.acquire({ teamId, limit: 1, maxWaitMs: 3_000, leaseMs: 10_000 });
      expect(next.queuedMs).toBeGreaterThan(0);
      await next.release();
    });
  });

  describe('ProfileRepository', () => {
    it('allows one saving session at a time, loads what was saved and merges storage by origin', async () => {
      const sut = new ProfileRepository(db);
      const [jobA, jobB] = [randomUUID(), randomUUID()];
      const until = new Date(Date.now() + 60_000);
      await sut.acquireSaveLock(teamId, 'shop', jobA, until);
      await sut.acquireSaveLock(teamId, 'shop', jobA, until); // idempotent for the holder
      await expect(sut.acquireSaveLock(teamId, 'shop', jobB, until)).rejects.toMatchObject({
        code: 'SCRAPE_PROFILE_LOCKED',
        status: 409,
        message: 'Conflict',
        details: { message: expect.stringContaining('"shop" is being saved by another session') },
      });
      // Releasing is only ever the holder's: another job's release leaves the lock alone.
      await sut.release(teamId, 'shop', jobB);
      await expect(sut.acquireSaveLock(teamId, 'shop', jobB, until)).rejects.toMatchObject({ status: 409 });
      const cookie = {
        name: 's',
        value: 'v',
        domain: 'shop.test',
        path: '/',
        expires: -1,
        httpOnly: true,
        secure: false,
      };
      expect(
        await sut.save(teamId, 'shop', jobA, {
          cookies: [cookie],
          origins: { 'https://shop.test': { cart: '1' } },
        }),
      ).toBe(true);
      expect(await sut.save(teamId, 'shop', jobA, { cookies: [], origins: {} })).toBe(false); // lock released by the save

      await sut.acquireSaveLock(teamId, 'shop', jobB, until);
      await sut.save(teamId, 'shop', jobB, {
        cookies: [cookie],
        origins: { 'https://other.test': { theme: 'dark' } },
      });
      expect(await sut.load(teamId, 'shop')).toEqual({
        cookies: [cookie],
        origins: { 'https://shop.test': { cart: '1' }, 'https://other.test': { theme: 'dark' } },
      });
      expect(await sut.load(teamId, 'missing')).toEqual({ cookies: [], origins: {} });
    });

    it('lets a new saver in once a lock expired', async () => {
      const sut = new ProfileRepository(db);
      await sut.acquireSaveLock(teamId, 'stale', randomUUID(), new Date(Date.now() - 1_000));
      await expect(
        sut.acquireSaveLock(teamId, 'stale', randomUUID(), new Date(Date.now() + 60_000)),
      ).resolves.toBeUndefined();
    });
  });

  it('keeps one change-tracking snapshot per team, URL and tag', async () => {
    const sut = new ChangeSnapshotRepository(db);
    const key = { teamId, urlKey: 'https://a.test/', tag: null };
    expect(await sut.find(key)).toBeUndefined();
    await sut.save(key, {
      markdown: 'one',
      values: { price: 1 },
      removed: false,
      scrapedAt: new Date(1_000),
    });
    await sut.save(key, { markdown: 'two', values: null, removed: false, scrapedAt: new Date(2_000) });
    await sut.save(
      { ...key, tag: 'daily' },
      { markdown: 'tagged', values: null, removed: false, scrapedAt: new Date(3_000) },
    );
    expect(await sut.find(key)).toEqual({
      markdown: 'two',
      values: null,
      removed: false,
      scrapedAt: new Date(2_000),
    });
    expect((await sut.find({ ...key, tag: 'daily' }))?.markdown).toBe('tagged');
  });
});
