import { randomUUID } from 'node:crypto';

import pino from 'pino';

import { type CrawlRequestInput, crawlRequestSchema, type CrawlTaskMessage } from '@quarry/contracts';
import { SuspectGate } from '@quarry/jobs';
import { MemoryBus } from '@quarry/platform/bus';
import type { Database } from '@quarry/platform/database';
import { AddressPolicy, GuardedHttpClient } from '@quarry/platform/net';
import { PlatformMetrics } from '@quarry/platform/observability';
import { HttpEngine, PipelineExtensions, ScrapePipeline } from '@quarry/scrape/engine';
import {
  createTestDatabase,
  type FixtureHandler,
  type FixtureServer,
  html,
  startFixtureServer,
  type TestDatabase,
} from '@quarry/testing';
import { WebhookOutboxRepository } from '@quarry/webhooks';

import { CollectionRepository } from '../collection/collection.repository';
import { pageTemplate, stripEnvelope } from '../collection/collection-rules.util';
import { DispatchQueueRepository } from '../frontier/dispatch-queue.repository';
import { Dispatcher } from '../frontier/dispatcher';
import { FrontierRepository } from '../frontier/frontier.repository';
import { PageOutcomeWriter } from '../frontier/page-outcome.writer';
import { RobotsService } from '../robots/robots.service';
import { RobotsFetcher } from '../robots/robots-fetcher';
import { SitemapFetcher } from '../sitemap/sitemap-fetcher';
import { CrawlScope } from '../url/crawl-scope';
import { CollectionEvents } from '../webhooks/collection-events';
import { CollectionPlans } from './collection-plan';
import { CrawlTaskHandler } from './crawl-task.handler';

jest.setTimeout(60_000);

const MAX_ATTEMPTS = 3;
const text =
  (body: () => string, type: string): FixtureHandler =>
  (_request, response) =>
    void response.writeHead(200, { 'content-type': type }).end(body());
const urlset = (urls: string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
    .map((url) => `<url><loc>${url}</loc></url>`)
    .join('')}</urlset>`;

/**
 * The crawl worker's handler of `crawl.tasks` on real PostgreSQL, frontier, outcome writer, robots and
 * sitemap readers, dispatcher, scrape pipeline (HTTP engine), in-memory bus and a 127.0.0.1 fixture site.
 */
describe('CrawlTaskHandler (PostgreSQL, fixture site)', () => {
  let testDb: TestDatabase;
  let db: Database;
  let site: FixtureServer;
  let bus: MemoryBus;
  let frontier: FrontierRepository;
  let collections: CollectionRepository;
  let dispatcher: Dispatcher;
  let pipeline: ScrapePipeline;
  let client: GuardedHttpClient;
  let sut: CrawlTaskHandler;
  const logger = pino({ level: 'silent' });
  const metrics = new PlatformMetrics({ service: 'crawl-task-handler-test', defaultMetrics: false });
  const published: CrawlTaskMessage[] = [];
  const teamId = randomUUID();

  /** A handler over the shared parts; `scrapes` replaces the pipeline. */
  const handlerWith = (scrapes: ScrapePipeline): CrawlTaskHandler => {
    const events = new CollectionEvents();
    return new CrawlTaskHandler({
      frontier,
      outcomes: new PageOutcomeWriter(db, frontier, logger, { maxBatch: 8, lingerMs: 1 }),
      plans: new CollectionPlans(frontier, {
        robotsUserAgent: 'QuarryBot',
        trapMaxRun: 5,
        maxFrontier: 10_000,
      }),
      dispatcher,
      robots: new RobotsService(frontier, new RobotsFetcher(client, 5_000), logger),
      sitemaps: new SitemapFetcher(client),
      pipeline: scrapes,
      events,
      metrics,
      logger,
      sitemapTimeoutMs: 10_000,
      maxAttempts: MAX_ATTEMPTS,
      pageLeaseMs: 60_000,
      gate: new SuspectGate(),
    });
  };

  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await testDb.open();
    const page = (title: string, body: string) =>
      html(
        `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`,
      );
    site = await startFixtureServer({
      '/robots.txt': text(
        () => `User-agent: *\nDisallow: /private\nSitemap: ${site.url}/sitemap-docs.xml\n`,
        'text/plain',
      ),
      '/sitemap.xml': text(
        () => urlset([`${site.url}/docs/a`, `${site.url}/private/listed`, 'http://elsewhere.invalid/page']),
        'application/xml',
      ),
      '/sitemap-docs.xml': text(() => urlset([`${site.url}/docs/b`]), 'application/xml'),
      '/': page(
        'Home',
        `<p>Welcome to the handler fixture.</p><a href="/about">About</a> <a href="/docs/a">Docs</a>
         <a href="/private/secret">Private</a> <a href="http://elsewhere.invalid/">Partner</a>
         <a href="mailto:team@example.com">Mail</a> <a href="/about#team">About again</a>`,
      ),
      '/about': page('About', '<p>About the fixture.</p>'),
      '/docs/a': page('Doc A', '<p>First doc.</p>'),
      '/poison': page('Poison', '<p>Never fetched.</p>'),
      '/gone-crawl': page('Cancelled', '<p>Never fetched.</p>'),
      '/private/late': page('Private', '<p>Never fetched.</p>'),
      // answers after the page's time budget (1 s) has run out
      '/slow': (_request, response) => {
        const timer = setTimeout(() => response.end('late'), 3_000);
        response.on('close', () => clearTimeout(timer));
      },
    });
    bus = new MemoryBus(logger);
    await bus.start();
    await bus.subscribe<CrawlTaskMessage>(
      'crawlTasks',
      { group: 'recorder', concurrency: 16 },
      async (message) => {
        published.push(message.value);
      },
    );
    const outbox = new WebhookOutboxRepository(db);
    frontier = new FrontierRepository(db, outbox);
    collections = new CollectionRepository(db, frontier, outbox);
    const events = new CollectionEvents();
    dispatcher = new Dispatcher(frontier, new DispatchQueueRepository(db), events, bus, logger, {
      defaultTeamConcurrency: 50,
    });
    client = new GuardedHttpClient(new AddressPolicy(false, ['127.0.0.1']), {
      userAgent: 'QuarryBot',
      maxBytes: 5_000_000,
    });
    pipeline = new ScrapePipeline(new HttpEngine(client), new PipelineExtensions());
    sut = handlerWith(pipeline);
    await db.sql.query(`INSERT INTO teams (id, name, credits) VALUES ($1, $2, 1000)`, [
      teamId,
      `t-${teamId}`,
    ]);
  });

  afterAll(async () => {
    dispatcher?.stop();
    await dispatcher?.idle();
    await bus?.stop();
    await site?.close();
    await db?.close();
    await testDb?.drop();
  });

  // --- builders ---------------------------------------------------------------------------------

  /** A crawl of the site's root as POST /v2/crawl stores it; `paths` are queued at depth 1 and the crawl is kicked off. */
  async function newCrawl(
    input: Omit<CrawlRequestInput, 'url'> = {},
    options: { maxConcurrency?: number; paths?: string[] } = {},
  ): Promise<string> {
    const request = crawlRequestSchema.parse({ url: `${site.url}/`, ...input });
    const {
      url,
      prompt: _prompt,
      webhook: _webhook,
      scrapeOptions,
      zeroDataRetention: _zdr,
      origin,
      integration: _integration,
      ...crawler
    } = request;
    const id = randomUUID();
    const scope = new CrawlScope(url, crawler, 5);
    const pages = (options.paths ?? []).map((path, rank) => {
      const decision = scope.sitemapUrl(`${site.url}${path}`);
      if (!decision.accepted) throw new Error(`${path} is outside the crawl`);
      return { ...decision.candidate, depth: 1, rank, status: 'queued' as const };
    });
    await collections.create({
      id,
      teamId,
      kind: 'crawl',
      url,
      input: request,
      options: {
        crawler,
        request: pageTemplate(url, { ...stripEnvelope(scrapeOptions), origin }),
        wantsRawHtml: false,
        origin,
      },
      pageLimit: crawler.limit,
      maxConcurrency: options.maxConcurrency ?? 4,
      delayMs: 0,
      webhook: { url: 'https://hooks.example.com/quarry', headers: {}, metadata: {}, events: ['page'] },
      zeroDataRetention: false,
      expiresAt: new Date(Date.now() + 3_600_000),
      pages,
    });
    if (options.paths) await frontier.transaction((tx) => frontier.markKickedOffIn(tx, id));
    return id;
  }

  /** The frontier by path: status, depth, error code and runs counted. */
  async function frontierOf(
    crawlId: string,
  ): Promise<Record<string, { status: string; depth: number; code: string | null; starts: number }>> {
    const rows = await db.sql.query<{
      url: string;
      status: string;
      depth: number;
      error_code: string | null;
      starts: number;
    }>(`SELECT url, status, depth, error_code, starts FROM crawl_pages WHERE crawl_id = $1`, [crawlId]);
    return Object.fromEntries(
      rows.map((row) => [
        row.url.replace(site.url, ''),
        { status: row.status, depth: row.depth, code: row.error_code, starts: row.starts },
      ]),
    );
  }

  const statusesOf = async (crawlId: string) =>
    Object.fromEntries(Object.entries(await frontierOf(crawlId)).map(([path, row]) => [path, row.status]));

  /** What the crawl stored, charged and announced. */
  async function ledgerOf(crawlId: string) {
    const [row] = await db.sql.query<Record<string, string | number | null>>(
      `SELECT (SELECT count(*) FROM documents WHERE job_id = $1) AS documents,
              (SELECT count(*) FROM credit_ledger WHERE job_id = $1) AS charges,
              (SELECT coalesce(-sum(amount), 0) FROM credit_ledger WHERE job_id = $1) AS charged,
              (SELECT count(*) FROM webhook_deliveries WHERE job_id = $1 AND type = 'crawl.page') AS page_events,
              (SELECT credits_used FROM jobs WHERE id = $1) AS credits_used,
              (SELECT completed_count FROM crawls WHERE job_id = $1) AS completed,
              (SELECT status FROM jobs WHERE id = $1) AS status`,
      [crawlId],
    );
    return {
      documents: Number(row['documents']),
      charges: Number(row['charges']),
      charged: Number(row['charged']),
      pageEvents: Number(row['page_events']),
      creditsUsed: Number(row['credits_used']),
      completed: Number(row['completed']),
      status: String(row['status']),
    };
  }

  const balance = async () =>
    (await db.sql.query<{ credits: number }>(`SELECT credits FROM teams WHERE id = $1`, [teamId]))[0].credits;

  /** The page message the dispatcher published on `crawl.tasks` for one path of the crawl. */
  async function messageFor(crawlId: string, path: string): Promise<CrawlTaskMessage> {
    await dispatcher.idle();
    const [row] = await db.sql.query<{ id: string }>(
      `SELECT id FROM crawl_pages WHERE crawl_id = $1 AND url = $2`,
      [crawlId, `${site.url}${path}`],
    );
    const find = () => published.find((message) => message.type === 'page' && message.pageId === row?.id);
    for (let i = 0; i < 200 && !find(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    const message = find();
    if (!message) throw new Error(`no page message was published for ${path}`);
    return message;
  }

  const kickoff = (crawlId: string): CrawlTaskMessage => ({ type: 'kickoff', crawlId, teamId });

  /** A crawl without sitemaps, kicked off, whose start page the worker has scraped. */
  async function scrapedStart(): Promise<{ crawlId: string; message: CrawlTaskMessage }> {
    const crawlId = await newCrawl({ sitemap: 'skip' }, { maxConcurrency: 1 });
    await sut.handle(kickoff(crawlId));
    const message = await messageFor(crawlId, '/');
    await sut.handle(message);
    await dispatcher.idle();
    return { crawlId, message };
  }

  // --- kickoff ----------------------------------------------------------------------------------

  it('kickoff puts the start URL and the in-scope sitemap URLs into the frontier and dispatches the start URL first', async () => {
    const crawlId = await newCrawl({}, { maxConcurrency: 1 });
    await sut.handle(kickoff(crawlId));
    await dispatcher.idle();
    expect(await frontierOf(crawlId)).toEqual({
      '/': { status: 'dispatched', depth: 0, code: null, starts: 0 },
      '/docs/a': { status: 'queued', depth: 0, code: null, starts: 0 },
      // listed by the sitemap robots.txt names
      '/docs/b': { status: 'queued', depth: 0, code: null, starts: 0 },
      '/private/listed': { status: 'robots_blocked', depth: 0, code: null, starts: 0 },
    });
    const [crawl] = await db.sql.query<{ kicked_off_at: Date | null; frontier_size: number }>(
      `SELECT kicked_off_at, frontier_size FROM crawls WHERE job_id = $1`,
      [crawlId],
    );
    expect(crawl.kicked_off_at).toBeInstanceOf(Date);
    expect(crawl.frontier_size).toBe(4);
    expect(await messageFor(crawlId, '/')).toMatchObject({ type: 'page', crawlId, teamId });

    // A redelivered kickoff adds nothing and reads no sitemap again.
    const sitemapReads = site.hits.get('/sitemap.xml');
    await sut.handle(kickoff(crawlId));
    await dispatcher.idle();
    expect(site.hits.get('/sitemap.xml')).toBe(sitemapReads);
    expect(Object.keys(await frontierOf(crawlId))).toHaveLength(4);
  });

  it('kickoff with sitemap "skip" reads no sitemap: only the start URL enters the frontier', async () => {
    const crawlId = await newCrawl({ sitemap: 'skip' }, { maxConcurrency: 1 });
    const sitemapReads = site.hits.get('/sitemap.xml');
    await sut.handle(kickoff(crawlId));
    await dispatcher.idle();
    expect(await statusesOf(crawlId)).toEqual({ '/': 'dispatched' });
    expect(site.hits.get('/sitemap.xml')).toBe(sitemapReads);
    const [crawl] = await db.sql.query<{ kicked_off_at: Date | null }>(
      `SELECT kicked_off_at FROM crawls WHERE job_id = $1`,
      [crawlId],
    );
    expect(crawl.kicked_off_at).toBeInstanceOf(Date);
  });

  // --- pages ------------------------------------------------------------------------------------

  it('scrapes a page: stores its document, discovers its links into the frontier and charges it once', async () => {
    const before = await balance();
    const { crawlId } = await scrapedStart();
    expect(await frontierOf(crawlId)).toEqual({
      '/': { status: 'completed', depth: 0, code: null, starts: 1 },
      // discovery order, breadth first: the first link is dispatched next (maxConcurrency 1)
      '/about': { status: 'dispatched', depth: 1, code: null, starts: 0 },
      '/docs/a': { status: 'queued', depth: 1, code: null, starts: 0 },
      // robots.txt of the origin is known: recorded, never queued
      '/private/secret': { status: 'robots_blocked', depth: 1, code: null, starts: 0 },
    });
    const documents = await db.sql.query<{
      url: string;
      status_code: number;
      content: { markdown?: string; rawHtml?: string; metadata: { creditsUsed?: number } };
    }>(`SELECT url, status_code, content FROM documents WHERE job_id = $1`, [crawlId]);
    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatchObject({ url: `${site.url}/`, status_code: 200 });
    expect(documents[0].content.markdown).toContain('Welcome to the handler fixture.');
    // rawHtml was fetched for link discovery only
    expect(documents[0].content.rawHtml).toBeUndefined();
    expect(documents[0].content.metadata.creditsUsed).toBe(1);
    expect(await ledgerOf(crawlId)).toEqual({
      documents: 1,
      charges: 1,
      charged: 1,
      pageEvents: 1,
      creditsUsed: 1,
      completed: 1,
      status: 'active',
    });
    expect(await balance()).toBe(before - 1);
  });

  it('a redelivered page message (no longer dispatched) fetches, stores, charges and announces nothing twice', async () => {
    const { crawlId, message } = await scrapedStart();
    const fetches = site.hits.get('/');
    const stored = await ledgerOf(crawlId);
    const paid = await balance();
    const frontierBefore = await frontierOf(crawlId);

    await sut.handle(message);
    await dispatcher.idle();

    expect(site.hits.get('/')).toBe(fetches);
    expect(await ledgerOf(crawlId)).toEqual(stored);
    expect(stored).toMatchObject({ documents: 1, charges: 1, pageEvents: 1 });
    expect(await balance()).toBe(paid);
    expect(await frontierOf(crawlId)).toEqual(frontierBefore);
  });

  it('a page robots.txt refuses ends robots_blocked, unfetched and uncharged', async () => {
    // queued before its origin's rules were known (e.g. found on another origin)
    const crawlId = await newCrawl({ sitemap: 'skip' }, { paths: ['/private/late'] });
    await dispatcher.dispatch(crawlId);
    await sut.handle(await messageFor(crawlId, '/private/late'));
    expect((await frontierOf(crawlId))['/private/late']).toMatchObject({ status: 'robots_blocked' });
    expect(site.hits.get('/private/late')).toBeUndefined();
    expect(await ledgerOf(crawlId)).toMatchObject({ documents: 0, charges: 0, creditsUsed: 0 });
  });

  it('a page whose scrape fails with an AppError ends failed with its code, and the crawl goes on', async () => {
    const crawlId = await newCrawl(
      { sitemap: 'skip', scrapeOptions: { timeout: 1_000 } },
      { paths: ['/slow', '/about'] },
    );
    await dispatcher.dispatch(crawlId);
    const before = await balance();

    await sut.handle(await messageFor(crawlId, '/slow'));
    expect((await frontierOf(crawlId))['/slow']).toMatchObject({ status: 'failed', code: 'SCRAPE_TIMEOUT' });
    const [event] = await db.sql.query<{ payload: { success: boolean; error?: string } }>(
      `SELECT payload FROM webhook_deliveries WHERE job_id = $1 AND type = 'crawl.page'`,
      [crawlId],
    );
    expect(event.payload).toMatchObject({ success: false });
    expect(await ledgerOf(crawlId)).toMatchObject({ documents: 0, charges: 0, status: 'queued' });
    expect(await balance()).toBe(before);

    await sut.handle(await messageFor(crawlId, '/about'));
    await dispatcher.idle();
    expect(await statusesOf(crawlId)).toEqual({ '/slow': 'failed', '/about': 'completed' });
    // nothing left: the dispatcher ends the crawl, which stored one page
    expect(await ledgerOf(crawlId)).toMatchObject({
      documents: 1,
      charges: 1,
      completed: 1,
      status: 'completed',
    });
  });

  it('an infrastructure error releases the page and rethrows: no attempt counted, the redelivery completes it', async () => {
    const extensions = new PipelineExtensions();
    // the browser service (an engine selector) is unreachable: not the page's fault
    extensions.selectors.push(() => {
      throw new Error('browser service unreachable');
    });
    const broken = handlerWith(new ScrapePipeline(new HttpEngine(client), extensions));
    const crawlId = await newCrawl({ sitemap: 'skip' }, { paths: ['/docs/a'] });
    await dispatcher.dispatch(crawlId);
    const message = await messageFor(crawlId, '/docs/a');
    const fetches = site.hits.get('/docs/a') ?? 0;

    await expect(broken.handle(message)).rejects.toThrow('browser service unreachable');
    expect((await frontierOf(crawlId))['/docs/a']).toEqual({
      status: 'dispatched',
      depth: 1,
      code: null,
      starts: 0,
    });
    expect(site.hits.get('/docs/a') ?? 0).toBe(fetches);
    expect(await ledgerOf(crawlId)).toMatchObject({ documents: 0, charges: 0 });

    // the bus redelivers; a healthy worker runs it as its first counted attempt
    await sut.handle(message);
    expect((await frontierOf(crawlId))['/docs/a']).toMatchObject({ status: 'completed', starts: 1 });
    expect(await ledgerOf(crawlId)).toMatchObject({ documents: 1, charges: 1 });
  });

  it(`a page started ${MAX_ATTEMPTS} times without an outcome is quarantined and never run again`, async () => {
    const crawlId = await newCrawl({ sitemap: 'skip' }, { paths: ['/poison'] });
    await dispatcher.dispatch(crawlId);
    const message = await messageFor(crawlId, '/poison');
    // every earlier run ended with its worker dying
    await db.sql.query(`UPDATE crawl_pages SET starts = $2 WHERE crawl_id = $1`, [crawlId, MAX_ATTEMPTS]);

    await sut.handle(message);
    await sut.handle(message);
    await dispatcher.idle();

    expect((await frontierOf(crawlId))['/poison']).toEqual({
      status: 'failed',
      depth: 1,
      code: 'SCRAPE_RETRY_LIMIT',
      starts: MAX_ATTEMPTS,
    });
    const [page] = await db.sql.query<{ error: string }>(
      `SELECT error FROM crawl_pages WHERE crawl_id = $1`,
      [crawlId],
    );
    expect(page.error).toMatch(/^Quarantined after 3 attempts/);
    expect(site.hits.get('/poison')).toBeUndefined();
    expect(await ledgerOf(crawlId)).toMatchObject({ documents: 0, charges: 0 });
  });

  it('a page out of starts whose latest run began within the lease is held by that run: not run, not quarantined', async () => {
    const crawlId = await newCrawl({ sitemap: 'skip' }, { paths: ['/busy'] });
    await dispatcher.dispatch(crawlId);
    const message = await messageFor(crawlId, '/busy');
    const sql = `UPDATE crawl_pages SET starts = $2, started_at = now() WHERE crawl_id = $1`;
    await db.sql.query(sql, [crawlId, MAX_ATTEMPTS]);
    await sut.handle(message);
    expect(await statusesOf(crawlId)).toEqual({ '/busy': 'dispatched' });
    expect(site.hits.get('/busy')).toBeUndefined();
  });

  it('a page of a cancelled crawl is skipped, unfetched and uncharged', async () => {
    const crawlId = await newCrawl({ sitemap: 'skip' }, { paths: ['/gone-crawl'] });
    await dispatcher.dispatch(crawlId);
    const message = await messageFor(crawlId, '/gone-crawl');
    expect(await collections.cancel(crawlId)).toBe(true);

    await sut.handle(message);

    expect(await statusesOf(crawlId)).toEqual({ '/gone-crawl': 'skipped' });
    expect(site.hits.get('/gone-crawl')).toBeUndefined();
    expect(await ledgerOf(crawlId)).toMatchObject({ documents: 0, charges: 0, status: 'cancelled' });
  });
});
