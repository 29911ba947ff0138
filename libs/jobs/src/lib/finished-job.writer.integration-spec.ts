import { randomUUID } from 'node:crypto';

import { CreditsService } from '@quarry/billing';
import { IdentityRepository } from '@quarry/identity';
import type { Database } from '@quarry/platform/database';
import { openTestEngine } from '@quarry/testing';

import { JobRepository } from './job.repository';
import { JobOutcomeStore } from './job-outcome.store';

/** Group commit of finished jobs, on both engines (PostgreSQL: cluster; PGlite: one process). */
describe.each(['postgres', 'pglite'] as const)('finished jobs written together (%s)', (engine) => {
  let db: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await openTestEngine(engine));
  }, 120_000);
  afterAll(() => close());

  it('charges every concurrent job exactly once, per team, and fails only a duplicate id', async () => {
    const identity = new IdentityRepository(db);
    const credits = new CreditsService(db);
    const teams = [(await identity.ensureTeam('batch-a')).id, (await identity.ensureTeam('batch-b')).id];
    for (const team of teams) await credits.grant(team, 1_000);
    const sut = new JobOutcomeStore(db);
    const jobs = new JobRepository(db);
    const duplicate = randomUUID();
    await sut.recordFinished(
      { id: duplicate, teamId: teams[0], kind: 'scrape', zeroDataRetention: false },
      { credits: 1 },
    );

    const ids = Array.from({ length: 40 }, () => randomUUID());
    const settled = await Promise.allSettled([
      ...ids.map((id, index) =>
        sut.recordFinished(
          {
            id,
            teamId: teams[index % 2],
            kind: 'scrape',
            input: { url: `https://example.com/${index}`, note: 'quote " and \\ backslash' },
            zeroDataRetention: index === 3,
            expiresAt: new Date(Date.now() + 3_600_000),
          },
          index === 5
            ? { credits: 1, error: { code: 'SCRAPE_LOCKDOWN_CACHE_MISS', message: 'miss' } }
            : { credits: index === 7 ? 0 : 2, result: { cachedDocumentId: `d-${index}` } },
        ),
      ),
      sut.recordFinished(
        { id: duplicate, teamId: teams[1], kind: 'scrape', zeroDataRetention: false },
        { credits: 9 },
      ),
    ]);
    expect(settled.slice(0, 40).every((entry) => entry.status === 'fulfilled')).toBe(true);
    expect(settled[40].status).toBe('rejected');

    // Team a: 20 jobs (index 0, 2, …), charged 2 each; team b: 19 at 2, the lockdown miss (5) at 1, the free one (7) at 0.
    expect(await credits.balance(teams[0])).toBe(1_000 - 1 - 20 * 2);
    expect(await credits.balance(teams[1])).toBe(1_000 - 18 * 2 - 1);
    expect(
      await db.prisma.creditLedgerEntry.count({
        where: { jobId: { in: [...ids, duplicate] }, kind: 'charge' },
      }),
    ).toBe(40);
    expect(await jobs.find(ids[0])).toMatchObject({
      status: 'completed',
      creditsUsed: 2,
      input: { url: 'https://example.com/0', note: 'quote " and \\ backslash' },
      result: { cachedDocumentId: 'd-0' },
    });
    expect(await jobs.find(ids[3])).toMatchObject({ input: null, zeroDataRetention: true });
    expect(await jobs.find(ids[5])).toMatchObject({
      status: 'failed',
      error: { code: 'SCRAPE_LOCKDOWN_CACHE_MISS' },
    });
    expect(await jobs.find(duplicate)).toMatchObject({ teamId: teams[0], creditsUsed: 1 });
  }, 60_000);
});
