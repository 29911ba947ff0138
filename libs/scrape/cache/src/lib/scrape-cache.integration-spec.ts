import { type ScrapeRequestInput, scrapeRequestSchema } from '@quarry/contracts';
import type { Database } from '@quarry/platform/database';
import { openTestEngine } from '@quarry/testing';

import { scrapeCacheKey } from './cache-key';
import { ScrapeCache } from './scrape-cache';

const request = (input: Partial<ScrapeRequestInput> = {}) =>
  scrapeRequestSchema.parse({ url: 'https://example.com/cached', maxAge: 3_600_000, ...input });

/** The lookup (grouped, id and age only, document from memory by id) on both engines. */
describe.each(['postgres', 'pglite'] as const)('scrape cache lookup (%s)', (engine) => {
  let db: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await openTestEngine(engine));
  }, 120_000);
  afterAll(() => close());

  const store = async (teamId: string, markdown: string, ageMs: number) =>
    (
      await db.prisma.document.create({
        data: {
          teamId,
          sourceUrl: 'https://example.com/cached',
          url: 'https://example.com/cached',
          urlKey: 'example.com/cached',
          cacheKey: scrapeCacheKey(request()),
          statusCode: 200,
          content: { markdown, metadata: { sourceURL: 'https://example.com/cached', statusCode: 200 } },
          createdAt: new Date(Date.now() - ageMs),
        },
      })
    ).id;

  it('answers the newest acceptable entry with the balance, for concurrent lookups of several teams', async () => {
    const rich = await db.prisma.team.create({ data: { name: `rich-${engine}`, credits: 40 } });
    const poor = await db.prisma.team.create({ data: { name: `poor-${engine}`, credits: 0 } });
    const old = await store(rich.id, 'old', 7_200_000);
    const recent = await store(rich.id, 'recent', 60_000);
    const sut = new ScrapeCache(db);

    const answers = await Promise.all([
      sut.admit(rich.id, request()),
      sut.admit(poor.id, request()),
      sut.admit(rich.id, request({ maxAge: 1_000 })),
      sut.admit(rich.id, request({ minAge: 3_600_000 })),
      sut.admit(rich.id, request({ formats: ['html'] })),
    ]);
    expect(answers[0]).toMatchObject({
      balance: 40,
      hit: { documentId: recent, document: { markdown: 'recent' } },
    });
    expect(answers[0].hit?.cachedAt).toBeInstanceOf(Date);
    expect(answers[1]).toEqual({ balance: 0 });
    expect(answers[2]).toEqual({ balance: 40 });
    expect(answers[3]).toMatchObject({ hit: { documentId: old, document: { markdown: 'old' } } });
    expect(answers[4]).toEqual({ balance: 40 });
    // The document kept in memory is shared by later hits and cannot be changed by one of them.
    expect(Object.isFrozen(answers[0].hit?.document.metadata)).toBe(true);

    // A newer entry answers at once; a deleted one is no longer a hit.
    const newest = await store(rich.id, 'newest', 1_000);
    expect((await sut.lookup(rich.id, request()))?.documentId).toBe(newest);
    await db.prisma.document.deleteMany({ where: { id: { in: [newest, recent] } } });
    expect(await sut.lookup(rich.id, request())).toBeUndefined();
    expect((await sut.lookup(rich.id, request({ maxAge: 10_000_000 })))?.documentId).toBe(old);
  }, 60_000);
});
