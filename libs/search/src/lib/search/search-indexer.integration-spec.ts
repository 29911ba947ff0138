import { randomUUID } from 'node:crypto';

import type { Database } from '@quarry/platform/database';
import { openTestEngine } from '@quarry/testing';

import { DocumentIndexRepository } from './document-index.repository';
import { SearchIndexer } from './search-indexer';

const quiet = { warn: () => undefined };

async function storeDocument(db: Database, teamId: string, title: string, markdown: string): Promise<string> {
  const id = randomUUID();
  const url = `https://example.com/${id}`;
  await db.sql.query(
    `INSERT INTO documents (id, team_id, source_url, url, url_key, status_code, title, content)
     VALUES ($1, $2, $3, $3, $3, 200, $4, $5::jsonb)`,
    [id, teamId, url, title, JSON.stringify({ markdown, metadata: { title } })],
  );
  return id;
}

async function pending(db: Database): Promise<number> {
  const rows = await db.sql.query<{ n: string }>(`SELECT count(*) AS n FROM documents WHERE search IS NULL`);
  return Number(rows[0].n);
}

describe.each(['postgres', 'pglite'] as const)('SearchIndexer on %s', (engine) => {
  let db: Database;
  let close: () => Promise<void>;
  let teamA: string;
  let teamB: string;

  beforeAll(async () => {
    ({ db, close } = await openTestEngine(engine));
  }, 120_000);
  afterAll(async () => close?.());

  beforeEach(async () => {
    teamA = randomUUID();
    teamB = randomUUID();
    await db.sql.query(`INSERT INTO teams (id, name) VALUES ($1, $2), ($3, $4)`, [
      teamA,
      `a-${teamA}`,
      teamB,
      `b-${teamB}`,
    ]);
  });

  it('stores documents without their vector, and a search indexes its team first and finds them', async () => {
    const indexer = new SearchIndexer(db, quiet);
    const index = new DocumentIndexRepository(db, indexer);
    await storeDocument(db, teamA, 'Harbour ferries', 'The ferries to the outer islands leave every hour.');
    await storeDocument(db, teamB, 'Ferry timetable', 'Ferries of another team.');
    expect(await pending(db)).toBeGreaterThanOrEqual(2);

    const hits = await index.search(teamA, 'ferries islands', { limit: 5 });
    expect(hits.map((hit) => hit.title)).toEqual(['Harbour ferries']);
    // Only the searching team's documents were indexed on the way.
    const rows = await db.sql.query<{ team_id: string; indexed: boolean }>(
      `SELECT team_id, search IS NOT NULL AS indexed FROM documents WHERE team_id IN ($1, $2)`,
      [teamA, teamB],
    );
    expect(rows.find((row) => row.team_id === teamA)?.indexed).toBe(true);
    expect(rows.find((row) => row.team_id === teamB)?.indexed).toBe(false);
  });

  it('a background round indexes pending documents of every team, in batches', async () => {
    const indexer = new SearchIndexer(db, quiet, {
      batch: 2,
      intervalMs: 1_000,
      busyDocsPerSecond: 1_000,
      maxLagMs: 60_000,
    });
    for (let i = 0; i < 3; i++)
      await storeDocument(db, teamB, `Tide table ${i}`, `High water at ${i} o'clock.`);
    let indexed = 0;
    for (let round = 0; round < 10 && (await pending(db)) > 0; round++) indexed += await indexer.round();
    expect(indexed).toBeGreaterThanOrEqual(3);
    expect(await pending(db)).toBe(0);
    const hits = await new DocumentIndexRepository(db, indexer).search(teamB, 'tide', { limit: 10 });
    expect(hits).toHaveLength(3);
  });

  it('yields to a busy ingestion until the oldest pending document has waited too long', async () => {
    const busy = new SearchIndexer(db, quiet, {
      batch: 50,
      intervalMs: 1_000,
      busyDocsPerSecond: 0,
      maxLagMs: 60_000,
    });
    await storeDocument(db, teamA, 'Fresh page', 'Just stored.');
    expect(await busy.round()).toBe(0);
    expect(await pending(db)).toBeGreaterThan(0);
    const lagging = new SearchIndexer(db, quiet, {
      batch: 50,
      intervalMs: 1_000,
      busyDocsPerSecond: 0,
      maxLagMs: 0,
    });
    expect(await lagging.round()).toBeGreaterThan(0);
    expect(await pending(db)).toBe(0);
  });

  it('runs its rounds in the background once started, and stops', async () => {
    const indexer = new SearchIndexer(db, quiet, {
      batch: 50,
      intervalMs: 50,
      busyDocsPerSecond: 1_000,
      maxLagMs: 60_000,
    });
    await storeDocument(db, teamA, 'Lighthouse', 'The lighthouse keeper logs the weather.');
    indexer.start();
    try {
      const deadline = Date.now() + 10_000;
      while ((await pending(db)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await pending(db)).toBe(0);
    } finally {
      await indexer.stop();
    }
  });
});
