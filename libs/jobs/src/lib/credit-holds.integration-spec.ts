import { randomUUID } from 'node:crypto';

import { CreditsService } from '@quarry/billing';
import type { Database } from '@quarry/platform/database';
import { openTestEngine } from '@quarry/testing';

import { JobRepository } from './job.repository';
import { JobOutcomeStore } from './job-outcome.store';

/**
 * The balance never goes below zero and every request is billed once, with concurrent requests on
 * several "replicas" (stores and repositories of their own, as separate gateways and workers have):
 * scrapes for the workers hold their price when their job is recorded, cache hits are checked in
 * their group commit, outcomes charge from the hold. On both engines.
 */
describe.each(['postgres', 'pglite'] as const)('credit holds and checked charges (%s)', (engine) => {
  let db: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await openTestEngine(engine));
  }, 120_000);
  afterAll(() => close());

  const newTeam = async (credits: number) => {
    const team = await db.prisma.team.create({ data: { name: `holds-${randomUUID()}` } });
    if (credits) await new CreditsService(db).grant(team.id, credits, 'initial');
    return team.id;
  };

  /** Balance, held credits, the ledger's sum and the credits the team's jobs record as used. */
  const books = async (teamId: string) => {
    const [row] = await db.sql.query<Record<string, number | string | null>>(
      `SELECT t.credits, t.reserved_credits,
         (SELECT coalesce(sum(amount), 0) FROM credit_ledger WHERE team_id = t.id) AS ledger,
         (SELECT coalesce(sum(amount), 0) FROM credit_holds WHERE team_id = t.id) AS holds,
         (SELECT coalesce(sum(credits_used), 0) FROM jobs WHERE team_id = t.id) AS used,
         (SELECT coalesce(-sum(amount), 0) FROM credit_ledger WHERE team_id = t.id AND kind = 'charge') AS charged
       FROM teams t WHERE t.id = $1`,
      [teamId],
    );
    return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)]));
  };

  const storedDocument = async (teamId: string) =>
    (
      await db.prisma.document.create({
        data: {
          teamId,
          sourceUrl: 'https://example.com/c',
          url: 'https://example.com/c',
          urlKey: 'example.com/c',
          statusCode: 200,
          content: { markdown: 'c', metadata: { statusCode: 200 } },
        },
      })
    ).id;

  it('records exactly the cache hits the balance covers, across replicas, and refuses the rest with 402', async () => {
    const teamId = await newTeam(25);
    const documentId = await storedDocument(teamId);
    const replicas = [new JobOutcomeStore(db), new JobOutcomeStore(db), new JobOutcomeStore(db)];
    const settled = await Promise.allSettled(
      Array.from({ length: 30 }, (_, index) =>
        replicas[index % 3].recordFinished(
          { id: randomUUID(), teamId, kind: 'scrape', zeroDataRetention: false },
          { credits: 2, result: { cachedDocumentId: documentId }, documentId },
        ),
      ),
    );
    const recorded = settled.filter((entry) => entry.status === 'fulfilled');
    const refused = settled.filter((entry): entry is PromiseRejectedResult => entry.status === 'rejected');
    // 25 credits, 2 per hit: 12 hits fit, whatever the batching; the 13th would take the balance to -1.
    expect(recorded).toHaveLength(12);
    expect(refused.every((entry) => (entry.reason as { status?: number }).status === 402)).toBe(true);
    expect(await books(teamId)).toMatchObject({
      credits: 1,
      ledger: 1,
      used: 24,
      charged: 24,
      reserved_credits: 0,
    });
  }, 60_000);

  it('records nothing for a hit whose document was deleted', async () => {
    const teamId = await newTeam(10);
    const documentId = await storedDocument(teamId);
    await db.prisma.document.delete({ where: { id: documentId } });
    const jobId = randomUUID();
    const answer = await new JobOutcomeStore(db).recordFinished(
      { id: jobId, teamId, kind: 'scrape', zeroDataRetention: false },
      { credits: 1, result: { cachedDocumentId: documentId }, documentId },
    );
    expect(answer).toBe('gone');
    expect(await new JobRepository(db).find(jobId)).toBeUndefined();
    expect(await books(teamId)).toMatchObject({ credits: 10, charged: 0 });
  }, 60_000);

  it('holds the price of concurrent jobs, refuses those the balance cannot hold, and settles each once', async () => {
    const teamId = await newTeam(20);
    const repositories = [new JobRepository(db), new JobRepository(db)];
    const stores = [new JobOutcomeStore(db), new JobOutcomeStore(db)];
    const ids = Array.from({ length: 12 }, () => randomUUID());
    const created = await Promise.allSettled(
      ids.map((id, index) =>
        repositories[index % 2].create({
          id,
          teamId,
          kind: 'scrape',
          zeroDataRetention: false,
          holdCredits: 3,
        }),
      ),
    );
    const held = ids.filter((_, index) => created[index].status === 'fulfilled');
    // 20 credits hold six jobs of 3; the others are refused (402) and leave no job behind.
    expect(held).toHaveLength(6);
    expect(
      created
        .filter((entry): entry is PromiseRejectedResult => entry.status === 'rejected')
        .every((entry) => (entry.reason as { status?: number }).status === 402),
    ).toBe(true);
    expect(await db.prisma.job.count({ where: { teamId } })).toBe(6);
    expect(await books(teamId)).toMatchObject({ credits: 20, reserved_credits: 18, holds: 18 });
    await expect(new CreditsService(db).ensureAvailable(teamId, 3)).rejects.toMatchObject({ status: 402 });

    // Meanwhile a hit may spend only what is not held.
    const documentId = await storedDocument(teamId);
    const hit = (credits: number) =>
      stores[0].recordFinished(
        { id: randomUUID(), teamId, kind: 'scrape', zeroDataRetention: false },
        { credits, documentId },
      );
    await expect(hit(3)).rejects.toMatchObject({ status: 402 });
    await expect(hit(2)).resolves.toBe('recorded');

    // Two complete at their price (each delivered twice), one costs less, one fails, one is abandoned
    // and one is a PDF costing more than its hold: it takes what is left, never more.
    const complete = (id: string, credits: number) =>
      Promise.all(stores.map((store) => store.complete({ jobId: id, teamId, kind: 'scrape', credits })));
    await complete(held[0], 3);
    await complete(held[1], 3);
    await complete(held[2], 1);
    expect(await stores[1].fail(held[3], { code: 'SCRAPE_TIMEOUT', message: 'late' })).toBe(true);
    await db.sql.query(`UPDATE jobs SET status = 'failed' WHERE id = $1`, [held[4]]);
    expect(await books(teamId)).toMatchObject({ credits: 11, reserved_credits: 6 });
    expect(await new JobRepository(db).releaseEndedHolds()).toBe(3);
    expect(await books(teamId)).toMatchObject({ credits: 11, reserved_credits: 3 });
    await complete(held[5], 40);
    expect(await books(teamId)).toMatchObject({ credits: 0, reserved_credits: 0, holds: 0, ledger: 0 });
    expect(await new JobRepository(db).find(held[5])).toMatchObject({ creditsUsed: 11 });
  }, 60_000);

  it('never takes the balance below zero with holds, hits and outcomes racing on one team', async () => {
    const teamId = await newTeam(50);
    const documentId = await storedDocument(teamId);
    const repository = new JobRepository(db);
    const stores = [new JobOutcomeStore(db), new JobOutcomeStore(db)];
    const work = Array.from({ length: 60 }, async (_, index) => {
      if (index % 3 === 0)
        return stores[index % 2].recordFinished(
          { id: randomUUID(), teamId, kind: 'scrape', zeroDataRetention: false },
          { credits: 2, documentId },
        );
      const id = randomUUID();
      await repository.create({ id, teamId, kind: 'scrape', zeroDataRetention: false, holdCredits: 2 });
      // Every fourth costs more than it held (pages of a PDF).
      return stores[index % 2].complete({
        jobId: id,
        teamId,
        kind: 'scrape',
        credits: index % 4 === 0 ? 5 : 2,
      });
    });
    const settled = await Promise.allSettled(work);
    expect(
      settled
        .filter((entry): entry is PromiseRejectedResult => entry.status === 'rejected')
        .every((entry) => (entry.reason as { status?: number }).status === 402),
    ).toBe(true);
    const after = await books(teamId);
    expect(after['credits']).toBeGreaterThanOrEqual(0);
    expect(after).toMatchObject({ reserved_credits: 0, holds: 0, ledger: after['credits'] });
    expect(after['charged']).toBe(after['used']);
    expect(after['charged']).toBe(50 - after['credits']);
  }, 120_000);

  it('charges outcomes above their holds, all at once, exactly what the balance had', async () => {
    const teamId = await newTeam(60);
    const repository = new JobRepository(db);
    const ids = Array.from({ length: 40 }, () => randomUUID());
    for (const id of ids)
      await repository.create({ id, teamId, kind: 'scrape', zeroDataRetention: false, holdCredits: 1 });
    const stores = [new JobOutcomeStore(db), new JobOutcomeStore(db), new JobOutcomeStore(db)];
    await Promise.all(
      ids.map((jobId, index) => stores[index % 3].complete({ jobId, teamId, kind: 'scrape', credits: 4 })),
    );
    // 40 jobs of 4 credits would cost 160: the 60 there were are taken, no more, and nothing stays held.
    expect(await books(teamId)).toMatchObject({
      credits: 0,
      reserved_credits: 0,
      ledger: 0,
      charged: 60,
      used: 60,
    });
  }, 120_000);
});
