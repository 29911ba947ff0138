import type { CreditsService } from '@quarry/billing';
import {
  batchScrapeRequestSchema,
  type CrawlRequestInput,
  crawlRequestSchema,
  type JobStatus,
  ROBOTS_WARNING,
  type ScrapeDocument,
} from '@quarry/contracts';
import type { JobRecord, JobRepository } from '@quarry/jobs';
import { OfflineProvider } from '@quarry/llm';
import type { MessageBus } from '@quarry/platform/bus';
import { AddressPolicy, GuardedHttpClient, WebhookTargetPolicy } from '@quarry/platform/net';

import type { Dispatcher } from '../frontier/dispatcher';
import type { FrontierRepository } from '../frontier/frontier.repository';
import type { CollectionKind, CollectionRow } from '../frontier/frontier.types';
import { CollectionEvents } from '../webhooks/collection-events';
import type { CollectionCounts, CollectionRepository, NewCollection } from './collection.repository';
import { type Caller, CollectionService } from './collection.service';
import { CrawlPromptInterpreter } from './crawl-prompt.interpreter';

const PUBLIC_URL = 'https://api.quarry.test';
const ID = '3f1c2b9e-8d7a-4c6b-9e5f-1a2b3c4d5e6f';
const MIB = 1024 * 1024;

const caller = (overrides: Partial<Caller> = {}): Caller => ({
  teamId: 'team-1',
  zeroDataRetention: false,
  canOverrideRobots: false,
  ...overrides,
});

const document = (index: number): ScrapeDocument => ({
  markdown: `page ${index}`,
  metadata: {
    sourceURL: `https://site.test/p/${index}`,
    url: `https://site.test/p/${index}`,
    statusCode: 200,
  },
});

interface World {
  status?: JobStatus;
  kind?: CollectionKind;
  url?: string;
  crawlEntireDomain?: boolean;
  stored?: number;
  /** JSON size of each stored document (default: its real size). */
  bytesEach?: number;
  counts?: Partial<CollectionCounts>;
  pageLimit?: number;
  zeroDataRetention?: boolean;
  error?: string;
  balance?: number;
}

/** A CollectionService over in-memory fakes of its repositories, the bus and the ledger. */
function serviceFor(world: World = {}) {
  const kind = world.kind ?? 'crawl';
  const stored = world.stored ?? 0;
  const status = world.status ?? 'completed';
  const created: NewCollection[] = [];
  const published: unknown[] = [];
  const createdAt = new Date('2026-11-20T10:00:00.000Z');
  const finished = !['queued', 'active'].includes(status);
  const job: JobRecord = {
    id: ID,
    teamId: 'team-1',
    kind,
    status,
    input: {},
    result: null,
    error: world.error ? { code: 'SCRAPE_SITE_ERROR', message: world.error } : undefined,
    creditsUsed: stored,
    attempts: 0,
    zeroDataRetention: world.zeroDataRetention ?? false,
    createdAt,
    startedAt: createdAt,
    finishedAt: finished ? new Date(createdAt.getTime() + 12_500) : null,
    expiresAt: new Date(createdAt.getTime() + 24 * 3_600_000),
  };
  const url = world.url ?? 'https://site.test/';
  const collection: CollectionRow = {
    id: ID,
    teamId: 'team-1',
    apiKeyId: null,
    kind,
    url: kind === 'crawl' ? url : null,
    options: {
      crawler:
        kind === 'crawl'
          ? { ...crawlRequestSchema.parse({ url, crawlEntireDomain: world.crawlEntireDomain ?? false }) }
          : undefined,
      request: { formats: [{ type: 'markdown' }] } as CollectionRow['options']['request'],
      wantsRawHtml: false,
      origin: 'api',
    },
    pageLimit: world.pageLimit ?? 10_000,
    maxConcurrency: 2,
    delayMs: 0,
    frontierSize: stored,
    completedCount: stored,
    webhook: null,
    kickedOffAt: createdAt,
    createdAt,
    jobStatus: status,
    zeroDataRetention: world.zeroDataRetention ?? false,
  };
  const documents = world.zeroDataRetention
    ? []
    : Array.from({ length: stored }, (_, index) => document(index + 1));
  const collections = {
    create: async (entry: NewCollection) => void created.push(entry),
    counts: async (): Promise<CollectionCounts> => ({
      inFlight: 0,
      queued: 0,
      failed: 0,
      robotsBlocked: 0,
      ...world.counts,
    }),
    documents: async (_id: string, afterSeq: number, limit: number) =>
      documents.slice(afterSeq, afterSeq + limit).map((entry, index) => ({
        seq: afterSeq + index + 1,
        document: entry,
        bytes: world.bytesEach ?? Buffer.byteLength(JSON.stringify(entry)),
      })),
  };
  const sut = new CollectionService({
    collections: collections as unknown as CollectionRepository,
    frontier: {
      loadCollection: async (id: string) => (id === ID ? collection : undefined),
    } as unknown as FrontierRepository,
    jobs: {
      findForTeam: async (id: string, teamId: string) => (id === ID && teamId === 'team-1' ? job : undefined),
    } as unknown as JobRepository,
    credits: { balance: async () => world.balance ?? 1_000_000 } as unknown as CreditsService,
    dispatcher: { kick: () => undefined, dispatch: async () => ({ dispatched: 0 }) } as unknown as Dispatcher,
    events: new CollectionEvents(),
    prompts: new CrawlPromptInterpreter(new OfflineProvider(4_096, 100_000)),
    bus: {
      publish: async (_topic: string, message: unknown) => void published.push(message),
    } as unknown as MessageBus,
    settings: {
      publicUrl: PUBLIC_URL,
      retentionHours: 24,
      defaultTeamConcurrency: 2,
      addressPolicy: new AddressPolicy(false),
    },
    // DNS at the boundary: hooks.public.test is a public address, hooks.internal.test a private one.
    webhookTargets: new WebhookTargetPolicy(
      new GuardedHttpClient(
        new AddressPolicy(false),
        { userAgent: 'test', maxBytes: 1_000 },
        async (host) => [
          { address: host === 'hooks.internal.test' ? '10.0.0.8' : '93.184.216.34', family: 4 },
        ],
      ),
    ),
  });
  return { sut, created, published };
}

const crawlInput = (input: Partial<CrawlRequestInput> = {}) =>
  crawlRequestSchema.parse({ url: 'https://site.test/', ...input });

describe('CollectionService status paging (docs/crawl.md#status-paging-cancel-errors, our `next` rule)', () => {
  it('pages finished documents with `skip`/`limit` and an absolute `next` only while more exist', async () => {
    const { sut } = serviceFor({ stored: 250 });
    const first = await sut.status(caller(), 'crawl', ID);
    expect(first.data.map((entry) => entry.markdown)).toEqual(
      Array.from({ length: 100 }, (_, index) => `page ${index + 1}`),
    );
    expect(first.next).toBe(`${PUBLIC_URL}/v2/crawl/${ID}?skip=100`);
    const sized = await sut.status(caller(), 'crawl', ID, { skip: 100, limit: 120 });
    expect(sized.data).toHaveLength(120);
    expect(sized.next).toBe(`${PUBLIC_URL}/v2/crawl/${ID}?skip=220&limit=120`);
    const last = await sut.status(caller(), 'crawl', ID, { skip: 220, limit: 120 });
    expect(last.data).toHaveLength(30);
    expect(last.next).toBeUndefined();
    const beyond = await sut.status(caller(), 'crawl', ID, { skip: 900 });
    expect(beyond).toMatchObject({ data: [], completed: 250, total: 250 });
    expect(beyond.next).toBeUndefined();
  });

  it('never sends `next` for a running job with nothing more stored, so auto-pagination cannot loop', async () => {
    const { sut } = serviceFor({ status: 'active', stored: 30, counts: { inFlight: 2, queued: 40 } });
    const all = await sut.status(caller(), 'crawl', ID);
    expect(all).toMatchObject({ status: 'scraping', completed: 30 });
    expect(all.data).toHaveLength(30);
    expect(all.next).toBeUndefined();
    const after = await sut.status(caller(), 'crawl', ID, { skip: 30 });
    expect(after.data).toEqual([]);
    expect(after.next).toBeUndefined();
    const partial = await sut.status(caller(), 'crawl', ID, { limit: 10 });
    expect(partial.next).toBe(`${PUBLIC_URL}/v2/crawl/${ID}?skip=10&limit=10`);
  });

  it('cuts a page at 10 MiB of JSON (never below one document) and points `next` at the rest', async () => {
    const { sut } = serviceFor({ stored: 5, bytesEach: 4 * MIB });
    const first = await sut.status(caller(), 'crawl', ID);
    expect(first.data).toHaveLength(2);
    expect(first.next).toBe(`${PUBLIC_URL}/v2/crawl/${ID}?skip=2`);
    const huge = serviceFor({ stored: 2, bytesEach: 11 * MIB });
    const one = await huge.sut.status(caller(), 'crawl', ID);
    expect(one.data).toHaveLength(1);
    expect(one.next).toBe(`${PUBLIC_URL}/v2/crawl/${ID}?skip=1`);
  });

  it('builds batch links on /v2/batch/scrape and returns no documents under zero data retention', async () => {
    const batch = serviceFor({ kind: 'batch_scrape', stored: 101 });
    expect((await batch.sut.status(caller(), 'batch_scrape', ID)).next).toBe(
      `${PUBLIC_URL}/v2/batch/scrape/${ID}?skip=100`,
    );
    const zdr = serviceFor({ stored: 150, zeroDataRetention: true });
    const status = await zdr.sut.status(caller(), 'crawl', ID);
    expect(status).toMatchObject({ completed: 150, total: 150, data: [] });
    expect(status.next).toBeUndefined();
  });

  it('counts total as stored + in flight + queued within the limit while running, stored once finished', async () => {
    expect(
      await serviceFor({
        status: 'active',
        stored: 10,
        counts: { inFlight: 3, queued: 500 },
        pageLimit: 20,
      }).sut.status(caller(), 'crawl', ID),
    ).toMatchObject({ total: 20, completed: 10 });
    expect(
      await serviceFor({ status: 'active', stored: 10, counts: { inFlight: 3, queued: 4 } }).sut.status(
        caller(),
        'crawl',
        ID,
      ),
    ).toMatchObject({ total: 17 });
    expect(
      await serviceFor({ status: 'cancelled', stored: 10, counts: { queued: 4, failed: 2 } }).sut.status(
        caller(),
        'crawl',
        ID,
      ),
    ).toMatchObject({ total: 10, status: 'cancelled' });
  });

  it('reports timing, expiry and a failed job as success:true with its error (docs/crawl.md#status-paging-cancel-errors)', async () => {
    const { sut } = serviceFor({
      status: 'failed',
      stored: 0,
      url: 'https://site.test/missing',
      error: 'The page answered HTTP 404',
    });
    expect(await sut.status(caller(), 'crawl', ID)).toEqual({
      success: true,
      status: 'failed',
      error: 'The page answered HTTP 404',
      completed: 0,
      total: 0,
      creditsUsed: 0,
      expiresAt: '2026-11-21T10:00:00.000Z',
      createdAt: '2026-11-20T10:00:00.000Z',
      completedAt: '2026-11-20T10:00:12.500Z',
      duration: 12.5,
      data: [],
    });
  });

  it('answers another team and an unknown id alike (404)', async () => {
    const { sut } = serviceFor({ stored: 1 });
    await expect(sut.status(caller({ teamId: 'team-2' }), 'crawl', ID)).rejects.toMatchObject({
      status: 404,
      message: 'Job not found',
    });
    await expect(sut.status(caller(), 'crawl', '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject(
      { status: 404 },
    );
  });
});

describe('CollectionService warnings (docs/crawl.md#status-paging-cancel-errors)', () => {
  const narrow = (count: number) =>
    `Only ${count} result(s) found. For broader coverage, try crawling with crawlEntireDomain=true or start from a higher-level path like https://site.test/`;

  it('suggests a broader crawl when a completed crawl from a non-root path stored at most one page', async () => {
    expect(
      (
        await serviceFor({ url: 'https://site.test/blog/post-1', stored: 1 }).sut.status(
          caller(),
          'crawl',
          ID,
        )
      ).warning,
    ).toBe(narrow(1));
    expect(
      (await serviceFor({ url: 'https://site.test/docs/', stored: 0 }).sut.status(caller(), 'crawl', ID))
        .warning,
    ).toBe(narrow(0));
  });

  it('stays silent from the root, with crawlEntireDomain, with more pages, while running, after failure or cancel, and for batches', async () => {
    const silent: World[] = [
      { url: 'https://site.test/', stored: 1 },
      { url: 'https://site.test/blog', stored: 1, crawlEntireDomain: true },
      { url: 'https://site.test/blog', stored: 2 },
      { url: 'https://site.test/blog', stored: 1, status: 'active' },
      { url: 'https://site.test/blog', stored: 0, status: 'failed', error: 'The page answered HTTP 500' },
      { url: 'https://site.test/blog', stored: 1, status: 'cancelled' },
      { kind: 'batch_scrape', stored: 1 },
    ];
    for (const world of silent) {
      expect(
        (await serviceFor(world).sut.status(caller(), world.kind ?? 'crawl', ID)).warning,
      ).toBeUndefined();
    }
  });

  it('warns about robots.txt, joined with the narrow-crawl warning when both apply', async () => {
    expect(
      (await serviceFor({ stored: 40, counts: { robotsBlocked: 2 } }).sut.status(caller(), 'crawl', ID))
        .warning,
    ).toBe(ROBOTS_WARNING);
    expect(
      (
        await serviceFor({
          url: 'https://site.test/private/',
          stored: 0,
          counts: { robotsBlocked: 1 },
        }).sut.status(caller(), 'crawl', ID)
      ).warning,
    ).toBe(`${ROBOTS_WARNING} ${narrow(0)}`);
  });
});

describe('CollectionService crawl start (docs/crawl.md#crawl-options)', () => {
  it('caps maxConcurrency at the team concurrency', async () => {
    const cases: [Partial<Caller>, number | undefined, number][] = [
      [{ concurrencyLimit: 4 }, 50, 4],
      [{ concurrencyLimit: 4 }, 3, 3],
      [{ concurrencyLimit: 4 }, undefined, 4],
      [{}, 10, 2],
      [{}, undefined, 2],
    ];
    for (const [who, requested, expected] of cases) {
      const { sut, created } = serviceFor();
      await sut.startCrawl(
        caller(who),
        crawlInput(requested === undefined ? {} : { maxConcurrency: requested }),
      );
      expect(created[0].maxConcurrency).toBe(expected);
    }
  });

  it('lowers limit (default 10000) to what the credits pay for, 402 when not even one page', async () => {
    const poor = serviceFor({ balance: 7 });
    await poor.sut.startCrawl(caller(), crawlInput());
    expect(poor.created[0].pageLimit).toBe(7);
    expect(poor.created[0].options.crawler?.limit).toBe(7);
    const zdr = serviceFor({ balance: 7 });
    await zdr.sut.startCrawl(caller(), crawlInput({ zeroDataRetention: true }));
    expect(zdr.created[0].pageLimit).toBe(3); // 2 credits a page under zero data retention
    const rich = serviceFor();
    await rich.sut.startCrawl(caller(), crawlInput());
    expect(rich.created[0].pageLimit).toBe(10_000);
    await expect(serviceFor({ balance: 0 }).sut.startCrawl(caller(), crawlInput())).rejects.toMatchObject({
      status: 402,
    });
  });

  it('needs the robots permission for ignoreRobotsTxt and robotsUserAgent (403)', async () => {
    for (const input of [{ ignoreRobotsTxt: true }, { robotsUserAgent: 'SpecialBot' }]) {
      const { sut, created, published } = serviceFor();
      await expect(sut.startCrawl(caller(), crawlInput(input))).rejects.toMatchObject({
        status: 403,
        message: 'Forbidden',
      });
      expect(created).toHaveLength(0);
      expect(published).toHaveLength(0);
      await sut.startCrawl(caller({ canOverrideRobots: true }), crawlInput(input));
      expect(created).toHaveLength(1);
    }
  });

  it('answers with the public status URL and queues a kickoff', async () => {
    const { sut, published } = serviceFor();
    const started = await sut.startCrawl(caller(), crawlInput());
    expect(started.url).toBe(`${PUBLIC_URL}/v2/crawl/${started.id}`);
    expect(published).toEqual([{ type: 'kickoff', crawlId: started.id, teamId: 'team-1' }]);
  });
});

describe('CollectionService webhook targets', () => {
  it('refuses crawls and batches whose webhook the outbound policy would never deliver to, creating nothing', async () => {
    for (const url of [
      'http://127.0.0.1:9000/hook',
      'http://[::127.0.0.1]/hook',
      'https://hooks.internal.test/hook',
    ]) {
      const { sut, created, published } = serviceFor({ kind: 'crawl' });
      await expect(sut.startCrawl(caller(), crawlInput({ webhook: url }))).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/^Webhook URL refused: .*ALLOW_PRIVATE_NETWORKS=true/),
      });
      await expect(
        sut.startBatch(
          caller(),
          batchScrapeRequestSchema.parse({ urls: ['https://site.test/a'], webhook: { url } }),
        ),
      ).rejects.toMatchObject({ status: 400 });
      expect(created).toEqual([]);
      expect(published).toEqual([]);
    }
  });

  it('accepts a webhook on a public host', async () => {
    const { sut, created } = serviceFor({ kind: 'crawl' });
    await sut.startCrawl(caller(), crawlInput({ webhook: 'https://hooks.public.test/hook' }));
    expect(created).toHaveLength(1);
  });
});
