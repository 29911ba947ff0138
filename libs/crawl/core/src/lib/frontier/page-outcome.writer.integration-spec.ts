import { randomUUID } from 'node:crypto';

import pino from 'pino';

import type { ScrapeDocument } from '@quarry/contracts';
import type { Database } from '@quarry/platform/database';
import { createTestDatabase, type TestDatabase } from '@quarry/testing';
import { WebhookOutboxRepository } from '@quarry/webhooks';

import { FrontierRepository } from './frontier.repository';
import type { CollectionRow, PageRow } from './frontier.types';
import { type PageOutcome, PageOutcomeWriter } from './page-outcome.writer';

/** Exactly-once storage of page outcomes on real PostgreSQL, with two writers racing like two workers. */
describe('PageOutcomeWriter (PostgreSQL)', () => {
  let testDb: TestDatabase;
  let db: Database;
  let frontier: FrontierRepository;
  const logger = pino({ level: 'silent' });

  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await testDb.open();
    frontier = new FrontierRepository(db, new WebhookOutboxRepository(db));
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  async function seed(
    credits: number,
    pages: number,
  ): Promise<{ collection: CollectionRow; rows: PageRow[] }> {
    const teamId = randomUUID();
    const crawlId = randomUUID();
    await db.sql.query(`INSERT INTO teams (id, name, credits) VALUES ($1, $2, $3)`, [
      teamId,
      `team-${teamId}`,
      credits,
    ]);
    await db.sql.query(`INSERT INTO jobs (id, team_id, kind, status) VALUES ($1, $2, 'crawl', 'active')`, [
      crawlId,
      teamId,
    ]);
    await db.sql.query(
      `INSERT INTO crawls (job_id, team_id, kind, url, options, page_limit, max_concurrency, webhook, kicked_off_at)
       VALUES ($1, $2, 'crawl', 'https://example.com/', '{}', 1000, 8, $3, now())`,
      [
        crawlId,
        teamId,
        JSON.stringify({ url: 'https://hooks.example.com/', headers: {}, metadata: {}, events: ['page'] }),
      ],
    );
    await db.sql.transaction((tx) =>
      frontier.addPagesIn(
        tx,
        crawlId,
        teamId,
        Array.from({ length: pages }, (_, index) => ({
          url: `https://example.com/p${index}`,
          urlKey: `//example.com/p${index}`,
          origin: 'https://example.com',
          depth: 1,
          trapRun: 0,
          rank: index,
          status: 'queued' as const,
        })),
      ),
    );
    await db.sql.query(`UPDATE crawl_pages SET status = 'dispatched' WHERE crawl_id = $1`, [crawlId]);
    const collection = (await frontier.loadCollection(crawlId)) as CollectionRow;
    const ids = await db.sql.query<{ id: string }>(
      `SELECT id FROM crawl_pages WHERE crawl_id = $1 ORDER BY rank`,
      [crawlId],
    );
    const rows = await Promise.all(ids.map((row) => frontier.loadPage(row.id) as Promise<PageRow>));
    return { collection, rows };
  }

  const outcome = (collection: CollectionRow, page: PageRow, linkCount = 3): PageOutcome => {
    const document: ScrapeDocument = {
      markdown: `# ${page.url}`,
      metadata: { sourceURL: page.url, url: page.url, statusCode: 200, title: page.url },
    };
    return {
      page,
      collection,
      document,
      store: true,
      credits: 1,
      discovered: Array.from({ length: linkCount }, (_, index) => ({
        url: `https://example.com/new-${index}`,
        urlKey: `//example.com/new-${index}`,
        origin: 'https://example.com',
        depth: 2,
        trapRun: 0,
        rank: index,
        status: 'queued' as const,
      })),
      event: { type: 'crawl.page', payload: { success: true } },
    };
  };

  it('stores, charges and announces every page once when two writers race on the same pages', async () => {
    const { collection, rows } = await seed(100, 40);
    const a = new PageOutcomeWriter(db, frontier, logger, { maxBatch: 7, lingerMs: 2 });
    const b = new PageOutcomeWriter(db, frontier, logger, { maxBatch: 5, lingerMs: 1 });
    const results = await Promise.all(
      rows.flatMap((page) => [a.submit(outcome(collection, page)), b.submit(outcome(collection, page))]),
    );
    expect(results.filter((result) => result.stored)).toHaveLength(40);
    const [counts] = await db.sql.query<Record<string, string | number>>(
      `SELECT (SELECT count(*) FROM documents WHERE job_id = $1) AS documents,
              (SELECT count(*) FROM credit_ledger WHERE job_id = $1) AS charges,
              (SELECT count(*) FROM webhook_deliveries WHERE job_id = $1) AS events,
              (SELECT count(*) FROM crawl_pages WHERE crawl_id = $1 AND status = 'queued') AS discovered,
              (SELECT count(DISTINCT completed_seq) FROM crawl_pages WHERE crawl_id = $1 AND status = 'completed') AS seqs,
              (SELECT max(completed_seq) FROM crawl_pages WHERE crawl_id = $1) AS max_seq,
              (SELECT completed_count FROM crawls WHERE job_id = $1) AS completed,
              (SELECT frontier_size FROM crawls WHERE job_id = $1) AS frontier,
              (SELECT credits_used FROM jobs WHERE id = $1) AS credits_used,
              (SELECT credits FROM teams WHERE id = $2) AS balance`,
      [collection.id, collection.teamId],
    );
    expect(Object.fromEntries(Object.entries(counts).map(([key, value]) => [key, Number(value)]))).toEqual({
      documents: 40,
      charges: 40,
      events: 40,
      discovered: 3,
      seqs: 40,
      max_seq: 40,
      completed: 40,
      frontier: 43,
      credits_used: 40,
      balance: 60,
    });
    const [event] = await db.sql.query<{ payload: { documentId?: string } }>(
      `SELECT payload FROM webhook_deliveries WHERE job_id = $1 LIMIT 1`,
      [collection.id],
    );
    expect(event.payload.documentId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('falls back to single pages when credits run short, storing what the balance pays for', async () => {
    const { collection, rows } = await seed(3, 6);
    const writer = new PageOutcomeWriter(db, frontier, logger, { maxBatch: 10, lingerMs: 5 });
    const results = await Promise.all(rows.map((page) => writer.submit(outcome(collection, page, 0))));
    expect(results.filter((result) => result.stored)).toHaveLength(3);
    expect(results.filter((result) => !result.stored && result.reason === 'no-credits')).toHaveLength(3);
    const [team] = await db.sql.query<{ credits: number }>(`SELECT credits FROM teams WHERE id = $1`, [
      collection.teamId,
    ]);
    expect(team.credits).toBe(0);
  });

  it('stores nothing for a cancelled crawl', async () => {
    const { collection, rows } = await seed(10, 3);
    await db.sql.query(`UPDATE jobs SET status = 'cancelled' WHERE id = $1`, [collection.id]);
    const writer = new PageOutcomeWriter(db, frontier, logger);
    const results = await Promise.all(rows.map((page) => writer.submit(outcome(collection, page))));
    expect(results.every((result) => !result.stored && result.reason === 'inactive')).toBe(true);
    const [counts] = await db.sql.query<{ documents: string }>(
      `SELECT count(*) AS documents FROM documents WHERE job_id = $1`,
      [collection.id],
    );
    expect(Number(counts.documents)).toBe(0);
  });

  it('writes no page event after the collection ended, also when the page fails while it finishes', async () => {
    const { collection, rows } = await seed(10, 3);
    const failure = { type: 'crawl.page', payload: { success: false, error: 'boom' } };
    const finished = { type: 'crawl.completed', payload: { success: false, error: 'Insufficient credits' } };
    // One page fails while the crawl still runs: its event is written.
    expect(
      await frontier.endPage(rows[0], 'failed', { code: 'SCRAPE_SITE_ERROR', message: 'boom' }, failure),
    ).toBe(true);
    // A page failing while another transaction finishes the crawl: whichever commits first, the
    // crawl's final event is the last event of the job.
    let release!: () => void;
    const finishing = db.sql.transaction(async (tx) => {
      await frontier.finishCollectionIn(
        tx,
        collection,
        'failed',
        { code: 'PAYMENT_REQUIRED', message: 'Insufficient credits' },
        finished,
      );
      await new Promise<void>((resolve) => (release = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const racing = frontier.endPage(
      rows[1],
      'failed',
      { code: 'SCRAPE_SITE_ERROR', message: 'boom' },
      failure,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await finishing;
    expect(await racing).toBe(true);
    // And a page ending after the finish writes no event either.
    expect(
      await frontier.endPage(rows[2], 'failed', { code: 'SCRAPE_SITE_ERROR', message: 'boom' }, failure),
    ).toBe(true);
    const events = await db.sql.query<{ type: string }>(
      `SELECT type FROM webhook_deliveries WHERE job_id = $1 ORDER BY seq`,
      [collection.id],
    );
    expect(events.map((event) => event.type)).toEqual(['crawl.page', 'crawl.completed']);
    const pages = await db.sql.query<{ status: string }>(
      `SELECT status FROM crawl_pages WHERE crawl_id = $1 ORDER BY rank`,
      [collection.id],
    );
    expect(pages.map((page) => page.status)).toEqual(['failed', 'failed', 'failed']);
  });
  it('refuses a browser error page and stores a refused target at no charge', async () => {
    const { collection, rows } = await seed(100, 2);
    const sut = new PageOutcomeWriter(db, frontier, logger, { maxBatch: 4, lingerMs: 1 });
    const errorPage = outcome(collection, rows[0], 0);
    errorPage.document = {
      markdown: '127.0.0.2 is blocked',
      metadata: { sourceURL: rows[0].url, url: 'chrome-error://chromewebdata/', statusCode: 200 },
    };
    await expect(sut.submit(errorPage)).rejects.toMatchObject({ code: 'SCRAPE_SITE_ERROR' });
    const refused = outcome(collection, rows[1], 0);
    refused.document = {
      markdown: '',
      metadata: {
        sourceURL: rows[1].url,
        url: rows[1].url,
        statusCode: 403,
        error:
          'Blocked insecure target URL: http://10.0.0.1/ resolves to a private, loopback, link-local or metadata address',
        creditsUsed: 1,
      },
    };
    expect(await sut.submit(refused)).toMatchObject({ stored: true });
    const documents = await db.sql.query<{ url: string; status_code: number; credits: string | null }>(
      `SELECT url, status_code, content -> 'metadata' ->> 'creditsUsed' AS credits FROM documents WHERE job_id = $1`,
      [collection.id],
    );
    expect(documents).toEqual([{ url: rows[1].url, status_code: 403, credits: '0' }]);
    const [money] = await db.sql.query<{ charges: string; balance: number }>(
      `SELECT (SELECT count(*) FROM credit_ledger WHERE job_id = $1) AS charges, (SELECT credits FROM teams WHERE id = $2) AS balance`,
      [collection.id, collection.teamId],
    );
    expect(money).toEqual({ charges: '0', balance: 100 });
  });
});
