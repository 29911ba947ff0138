import { type ScrapeRequestInput, scrapeRequestSchema } from '@quarry/contracts';
import type { Database } from '@quarry/platform/database';
import { openTestEngine } from '@quarry/testing';

import { scrapeCacheKey } from './cache-key';
import { ENTRY_VIEW_MS, ScrapeCache } from './scrape-cache';

const request = (input: Partial<ScrapeRequestInput> = {}) =>
  scrapeRequestSchema.parse({ url: 'https://example.com/cached', maxAge: 3_600_000, ...input });

/** The lookup (grouped, id and age only, document from memory by id, the entry view) on both engines. */
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

  it('answers the newest acceptable entry, for concurrent lookups of several teams', async () => {
    const rich = await db.prisma.team.create({ data: { name: `rich-${engine}`, credits: 40 } });
    const other = await db.prisma.team.create({ data: { name: `other-${engine}`, credits: 0 } });
    const old = await store(rich.id, 'old', 7_200_000);
    const recent = await store(rich.id, 'recent', 60_000);
    const sut = new ScrapeCache(db);
    const start = Date.now();

    const answers = await Promise.all([
      sut.lookup(rich.id, request()),
      sut.lookup(other.id, request()),
      sut.lookup(rich.id, request({ maxAge: 1_000 })),
      sut.lookup(rich.id, request({ minAge: 3_600_000 })),
      sut.lookup(rich.id, request({ formats: ['html'] })),
    ]);
    expect(answers[0]).toMatchObject({ documentId: recent, document: { markdown: 'recent' } });
    expect(answers[0]?.cachedAt).toBeInstanceOf(Date);
    expect(answers[1]).toBeUndefined();
    expect(answers[2]).toBeUndefined();
    expect(answers[3]).toMatchObject({ documentId: old, document: { markdown: 'old' } });
    expect(answers[4]).toBeUndefined();
    // The document kept in memory is shared by later hits and cannot be changed by one of them.
    expect(Object.isFrozen(answers[0]?.document.metadata)).toBe(true);

    // A newer entry is seen once the entry view is older than ENTRY_VIEW_MS (or at once with `fresh`);
    // until then the previous one answers, still within maxAge.
    const newest = await store(rich.id, 'newest', 1_000);
    expect((await sut.lookup(rich.id, request(), { now: start }))?.documentId).toBe(recent);
    expect((await sut.lookup(rich.id, request(), { fresh: true }))?.documentId).toBe(newest);
    // A deleted entry may still be named by the view within ENTRY_VIEW_MS (the hit's job is then not
    // recorded: FinishedJobWriter answers `gone`); `fresh` reads again and forgets it.
    await db.prisma.document.deleteMany({ where: { id: { in: [newest, recent] } } });
    expect(await sut.lookup(rich.id, request(), { fresh: true })).toBeUndefined();
    expect(await sut.lookup(rich.id, request(), { now: Date.now() + ENTRY_VIEW_MS + 1 })).toBeUndefined();
    expect((await sut.lookup(rich.id, request({ maxAge: 10_000_000 })))?.documentId).toBe(old);
    // The view never answers beyond the request's maxAge.
    expect(await sut.lookup(rich.id, request({ maxAge: 3_600_000 }))).toBeUndefined();
  }, 60_000);
});
