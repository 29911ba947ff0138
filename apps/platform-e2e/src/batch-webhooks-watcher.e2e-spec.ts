import { createHmac, randomUUID } from 'node:crypto';

import Firecrawl, { type Document } from '@mendable/firecrawl-js';
import { WebSocket as UndiciWebSocket } from 'undici';

import { type CrawlSite, startCrawlSite } from '@quarry/testing';

import { call } from './support/api-client';
import {
  type CrawlCluster,
  createTeamKey,
  eventually,
  query,
  startCrawlCluster,
  startWebhookReceiver,
  type WebhookReceiver,
} from './support/crawl-support';
import { watchRaw } from './support/watcher-support';

const SECRET = 'webhook-test-secret';

describe('batch scrape, webhooks and watchers (SDK, cluster)', () => {
  let site: CrawlSite;
  let platform: CrawlCluster;
  let firecrawl: Firecrawl;
  let receiver: WebhookReceiver;
  const wsBase = () => platform.publicUrl.replace(/^http/, 'ws');

  beforeAll(async () => {
    site = await startCrawlSite();
    receiver = await startWebhookReceiver();
    platform = await startCrawlCluster({
      workers: 2,
      env: {
        WEBHOOK_SECRET: SECRET,
        WEBHOOK_RETRY_BASE_MS: '200',
        OUTBOUND_ALLOWLIST: '127.0.0.1',
        ALLOW_PRIVATE_NETWORKS: 'false',
      },
    });
    firecrawl = new Firecrawl({ apiKey: platform.apiKey, apiUrl: platform.publicUrl });
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await receiver?.close();
    await site?.close();
  });

  describe('batch scrape', () => {
    it('scrapes every valid URL, lists the invalid ones and keeps sourceURL exactly as sent', async () => {
      const odd = `${site.url}/docs/page-3?pagewanted=all&et_blog`;
      const started = await firecrawl.startBatchScrape(
        [`${site.url}/about`, odd, 'not a url', `${site.url}/missing-page`],
        { options: { formats: ['markdown', 'html'] } },
      );
      expect(started.invalidURLs).toEqual(['not a url']);
      expect(started.url).toBe(`${platform.publicUrl}/v2/batch/scrape/${started.id}`);
      const finished = await eventually(async () => {
        const status = await firecrawl.getBatchScrapeStatus(started.id);
        return status.status === 'completed' ? status : undefined;
      });
      expect(finished.completed).toBe(3);
      expect(finished.total).toBe(3);
      const bySource = new Map(finished.data.map((document) => [document.metadata?.sourceURL, document]));
      expect(bySource.get(odd)?.markdown).toContain('zephyrquill3');
      expect(bySource.get(odd)?.html).toBeDefined();
      // a batch behaves like scrape: a 404 target is a document with its status code
      expect(bySource.get(`${site.url}/missing-page`)?.metadata?.statusCode).toBe(404);
      expect(finished.creditsUsed).toBe(3);
    });

    it('batchScrape() waits for completion; errors lists failed URLs', async () => {
      const job = await firecrawl.batchScrape([`${site.url}/`, 'http://no-such-host.invalid/page'], {
        options: { formats: ['markdown'] },
        pollInterval: 1,
        timeout: 120,
      });
      expect(job.status).toBe('completed');
      expect(job.data.map((document) => document.metadata?.sourceURL)).toEqual([`${site.url}/`]);
      const errors = await firecrawl.getBatchScrapeErrors(job.id);
      expect(errors.errors).toHaveLength(1);
      expect(errors.errors[0]).toMatchObject({
        url: 'http://no-such-host.invalid/page',
        code: 'SCRAPE_DNS_RESOLUTION_ERROR',
      });
      expect(errors.robotsBlocked).toEqual([]);
    });

    it('validates URLs, honours idempotency keys and appends with appendToId', async () => {
      const strict = await call(platform.publicUrl, 'POST', '/v2/batch/scrape', {
        apiKey: platform.apiKey,
        body: { urls: [`${site.url}/`, 'nope'], ignoreInvalidURLs: false },
      });
      expect(strict).toMatchObject({ status: 400, body: { success: false, error: 'Invalid URL' } });
      const none = await call(platform.publicUrl, 'POST', '/v2/batch/scrape', {
        apiKey: platform.apiKey,
        body: { urls: ['nope', 'ftp://x.example.com'] },
      });
      expect(none).toMatchObject({ status: 400, body: { success: false, error: 'No valid URLs provided' } });
      // private targets the deployment refuses are dropped as invalid
      const blocked = await firecrawl.startBatchScrape([`${site.url}/about`, 'http://10.1.2.3/'], {});
      expect(blocked.invalidURLs).toEqual(['http://10.1.2.3/']);

      const idempotencyKey = randomUUID();
      const first = await firecrawl.startBatchScrape([`${site.url}/about`], { idempotencyKey });
      await expect(
        firecrawl.startBatchScrape([`${site.url}/about`], { idempotencyKey }),
      ).rejects.toMatchObject({ status: 409, message: 'Idempotency key already used' });

      await eventually(async () =>
        (await firecrawl.getBatchScrapeStatus(first.id)).status === 'completed' ? true : undefined,
      );
      const appended = await firecrawl.startBatchScrape(
        [`${site.url}/docs/page-9`, `${site.url}/docs/page-10`],
        { appendToId: first.id },
      );
      expect(appended.id).toBe(first.id);
      const merged = await eventually(async () => {
        const status = await firecrawl.getBatchScrapeStatus(first.id);
        return status.status === 'completed' && status.completed === 3 ? status : undefined;
      });
      expect(merged.data.map((document) => document.metadata?.sourceURL).sort()).toEqual(
        [`${site.url}/about`, `${site.url}/docs/page-10`, `${site.url}/docs/page-9`].sort(),
      );
      const foreign = await call(platform.publicUrl, 'POST', '/v2/batch/scrape', {
        apiKey: platform.apiKey,
        body: { urls: [`${site.url}/`], appendToId: randomUUID() },
      });
      expect(foreign.status).toBe(404);
    });

    it('cancels right after start and answers 404/400 for unknown or malformed ids', async () => {
      const urls = Array.from({ length: 30 }, (_, index) => `${site.url}/docs/page-${index + 100}`);
      const started = await firecrawl.startBatchScrape(urls, { maxConcurrency: 1 });
      expect(await firecrawl.cancelBatchScrape(started.id)).toBe(true);
      const status = await firecrawl.getBatchScrapeStatus(started.id);
      expect(status.status).toBe('cancelled');
      expect(status.completed).toBeLessThan(30);
      expect(
        await call(platform.publicUrl, 'DELETE', `/v2/batch/scrape/${randomUUID()}`, {
          apiKey: platform.apiKey,
        }),
      ).toMatchObject({ status: 404, body: { success: false } });
      expect(
        await call(platform.publicUrl, 'GET', '/v2/batch/scrape/None/errors', { apiKey: platform.apiKey }),
      ).toMatchObject({
        status: 400,
        body: { error: 'Invalid job ID format. Job ID must be a valid UUID.' },
      });
    });
  });

  describe('webhooks', () => {
    it('sends started, one page event per page, then completed, in order, signed, with the caller headers and metadata', async () => {
      const job = await firecrawl.crawl(`${site.url}/blog/`, {
        includePaths: ['^/blog/post-\\d$'],
        sitemap: 'skip',
        webhook: {
          url: receiver.url,
          headers: { 'x-test': 'yes' },
          metadata: { run: 'ordered' },
          events: ['started', 'page', 'completed'],
        },
        pollInterval: 1,
        timeout: 120,
      });
      expect(job.status).toBe('completed');
      const events = await eventually(async () => {
        const mine = receiver.received.filter((event) => event.body.id === job.id);
        return mine.some((event) => event.body.type === 'crawl.completed') ? mine : undefined;
      });
      expect(events.map((event) => event.body.type)).toEqual([
        'crawl.started',
        ...Array.from({ length: job.completed }, () => 'crawl.page'),
        'crawl.completed',
      ]);
      for (const event of events) {
        expect(event.headers['x-test']).toBe('yes');
        expect(event.headers['x-firecrawl-signature']).toBe(
          `sha256=${createHmac('sha256', SECRET).update(event.raw).digest('hex')}`,
        );
        expect(event.body).toMatchObject({ success: true, id: job.id, metadata: { run: 'ordered' } });
      }
      expect(new Set(events.map((event) => event.body.webhookId)).size).toBe(events.length);
      const pageUrls = events
        .filter((event) => event.body.type === 'crawl.page')
        .map((event) => (event.body.data[0] as Document).metadata?.sourceURL);
      expect(pageUrls.sort()).toEqual(job.data.map((document) => document.metadata?.sourceURL).sort());
      expect(events[events.length - 1].body.data).toEqual([]);
    });

    it('retries failed deliveries with backoff without breaking the order, and filters events', async () => {
      receiver.failNext(2, 503);
      const started = await firecrawl.startBatchScrape([`${site.url}/about`, `${site.url}/docs/page-5`], {
        webhook: { url: receiver.url, metadata: { run: 'retry' } },
      });
      const events = await eventually(async () => {
        const mine = receiver.received.filter((event) => event.body.id === started.id);
        return mine.some((event) => event.body.type === 'batch_scrape.completed') ? mine : undefined;
      });
      expect(events.map((event) => event.body.type)).toEqual([
        'batch_scrape.started',
        'batch_scrape.page',
        'batch_scrape.page',
        'batch_scrape.completed',
      ]);
      const [started_] = await query<{ attempts: number }>(
        platform,
        `SELECT attempts FROM webhook_deliveries WHERE job_id = $1 AND type = 'batch_scrape.started'`,
        [started.id],
      );
      expect(started_.attempts).toBe(3);

      const onlyCompleted = await firecrawl.batchScrape([`${site.url}/about`], {
        webhook: { url: receiver.url, events: ['completed'] },
        pollInterval: 1,
        timeout: 60,
      });
      const filtered = await eventually(async () => {
        const mine = receiver.received.filter((event) => event.body.id === onlyCompleted.id);
        return mine.length > 0 ? mine : undefined;
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(
        receiver.received
          .filter((event) => event.body.id === onlyCompleted.id)
          .map((event) => event.body.type),
      ).toEqual(['batch_scrape.completed']);
      expect(filtered[0].body.success).toBe(true);
    });

    it('refuses private webhook targets the deployment does not allow, when the job is created', async () => {
      const refused = await firecrawl
        .startBatchScrape([`${site.url}/about`], { webhook: `http://127.0.0.2:${site.port}/hooks` })
        .then(
          () => undefined,
          (error: { status?: number; message?: string }) => error,
        );
      expect(refused?.status).toBe(400);
      expect(refused?.message).toMatch(
        /^Webhook URL refused: 127\.0\.0\.2 is a private, loopback, link-local or metadata address.*ALLOW_PRIVATE_NETWORKS=true.*OUTBOUND_ALLOWLIST/,
      );
      expect(site.hits.get('127.0.0.2 /hooks')).toBeUndefined();
    });
  });

  describe('WebSocket watcher', () => {
    it('streams catchup, document and done frames; echoes the key as subprotocol; closes 1000', async () => {
      const started = await firecrawl.startCrawl(`${site.url}/docs/`, {
        limit: 12,
        sitemap: 'skip',
        maxConcurrency: 2,
      });
      const result = await watchRaw(`${wsBase()}/v2/crawl/${started.id}`, [platform.apiKey]);
      expect(result.protocol).toBe(platform.apiKey);
      expect(result.frames[0].type).toBe('catchup');
      expect(result.frames[result.frames.length - 1]).toMatchObject({
        type: 'done',
        data: { status: 'completed', completed: 12, total: 12 },
      });
      expect(result.code).toBe(1000);
      const streamed = [
        ...(result.frames[0].data?.data ?? []),
        ...result.frames
          .filter((frame) => frame.type === 'document')
          .map((frame) => frame.data as unknown as Document),
      ];
      expect(new Set(streamed.map((document) => document.metadata?.sourceURL)).size).toBe(12);
      expect(streamed).toHaveLength(12);

      // a finished job: catchup with everything, then close
      const again = await watchRaw(`${wsBase()}/v2/crawl/${started.id}`, [platform.apiKey]);
      expect(again.frames).toHaveLength(1);
      expect(again.frames[0]).toMatchObject({
        type: 'catchup',
        data: { status: 'completed', completed: 12 },
      });
      expect(again.code).toBe(1000);

      const unauthorized = await watchRaw(`${wsBase()}/v2/crawl/${started.id}`, ['fc-wrong-key']);
      expect(unauthorized.code).toBe(3000);
      const unknown = await watchRaw(`${wsBase()}/v2/crawl/${randomUUID()}`, [platform.apiKey]);
      expect(unknown.code).toBe(1008);

      // A key of the same team without the scope the HTTP status route requires is refused (3003).
      const scrapeOnly = await createTeamKey(platform, 'default', 1, ['scrape']);
      const crawlOnly = await createTeamKey(platform, 'default', 1, ['crawl']);
      const forbidden = await watchRaw(`${wsBase()}/v2/crawl/${started.id}`, [scrapeOnly]);
      expect(forbidden).toMatchObject({ code: 3003, frames: [] });
      expect(JSON.parse(forbidden.reason)).toEqual({ type: 'error', error: 'Forbidden' });
      const status = await call(platform.url(), 'GET', `/v2/crawl/${started.id}`, { apiKey: scrapeOnly });
      expect(status.status).toBe(403);
      expect((await watchRaw(`${wsBase()}/v2/batch/scrape/${randomUUID()}`, [crawlOnly])).code).toBe(3003);
      expect((await watchRaw(`${wsBase()}/v2/batch/scrape/${randomUUID()}`, [scrapeOnly])).code).toBe(1008);
    });

    it('works with the SDK watcher for crawls and batches over a real WebSocket', async () => {
      const sockets: string[] = [];
      let messages = 0;
      class CountingWebSocket extends UndiciWebSocket {
        constructor(url: string, protocols?: string | string[]) {
          super(url, protocols);
          sockets.push(url);
          this.addEventListener('message', () => (messages += 1));
        }
      }
      (globalThis as { WebSocket?: unknown }).WebSocket = CountingWebSocket;
      try {
        for (const kind of ['crawl', 'batch'] as const) {
          const started =
            kind === 'crawl'
              ? await firecrawl.startCrawl(`${site.url}/blog/`, {
                  includePaths: ['^/blog/post-\\d$'],
                  sitemap: 'skip',
                  maxConcurrency: 1,
                })
              : await firecrawl.startBatchScrape(
                  Array.from({ length: 6 }, (_, index) => `${site.url}/docs/page-${index + 20}`),
                  { maxConcurrency: 1 },
                );
          const watcher = firecrawl.watcher(started.id, { kind, pollInterval: 1, timeout: 120 });
          const documents: Document[] = [];
          let done: { status: string } | undefined;
          watcher.on('document', (document: Document) => documents.push(document));
          watcher.on('done', (state: { status: string }) => (done = state));
          await watcher.start();
          expect(done?.status).toBe('completed');
          expect(documents).toHaveLength(kind === 'crawl' ? 10 : 6);
          expect(sockets.pop()).toBe(
            `${wsBase()}/v2/${kind === 'crawl' ? 'crawl' : 'batch/scrape'}/${started.id}`,
          );
        }
        expect(messages).toBeGreaterThan(2);
      } finally {
        delete (globalThis as { WebSocket?: unknown }).WebSocket;
      }
    });
  });

  describe('a crawl whose start URL fails (kickoff failure)', () => {
    it('ends failed: status body per docs/crawl.md#status-paging-cancel-errors, crawl.failed webhook with success:false, watcher catchup per docs/crawl.md#websocket-watcher', async () => {
      const job = await firecrawl.crawl(`${site.url}/missing-page`, {
        sitemap: 'skip',
        webhook: { url: receiver.url, metadata: { run: 'kickoff-failure' } },
        pollInterval: 1,
        timeout: 60,
      });
      expect(job.status).toBe('failed');
      const status = await call<Record<string, unknown>>(platform.publicUrl, 'GET', `/v2/crawl/${job.id}`, {
        apiKey: platform.apiKey,
      });
      expect(status.status).toBe(200);
      expect(status.body).toMatchObject({
        success: true,
        status: 'failed',
        error: expect.stringMatching(/^The page answered HTTP 404/),
        completed: 0,
        total: 0,
        creditsUsed: 0,
        data: [],
      });
      expect(Date.parse(String(status.body['expiresAt']))).toBeGreaterThan(Date.now());
      expect(status.body['next']).toBeUndefined();
      expect(status.body['warning']).toBeUndefined();
      const error = String(status.body['error']);

      const events = await eventually(async () => {
        const mine = receiver.received.filter((event) => event.body.id === job.id);
        return mine.some((event) => event.body.type === 'crawl.failed') ? mine : undefined;
      });
      expect(events.map((event) => event.body.type)).toEqual(['crawl.started', 'crawl.page', 'crawl.failed']);
      expect(events[1].body).toMatchObject({ success: false, error, data: [] });
      expect(events[2].body).toMatchObject({
        success: false,
        type: 'crawl.failed',
        error,
        data: [],
        metadata: { run: 'kickoff-failure' },
      });
      expect(events[2].headers['x-firecrawl-signature']).toBe(
        `sha256=${createHmac('sha256', SECRET).update(events[2].raw).digest('hex')}`,
      );

      const watched = await watchRaw(`${wsBase()}/v2/crawl/${job.id}`, [platform.apiKey]);
      expect(watched.frames).toHaveLength(1);
      expect(watched.frames[0]).toEqual({
        type: 'catchup',
        data: expect.objectContaining({
          success: false,
          error,
          status: 'failed',
          total: 0,
          completed: 0,
          creditsUsed: 0,
          expiresAt: status.body['expiresAt'],
          data: [],
        }),
      });
      expect(watched.code).toBe(1000);
    });
  });

  describe('zero data retention', () => {
    it('crawl: documents travel only in webhooks, nothing is stored, each page costs 1 + 1 credits', async () => {
      const job = await firecrawl.crawl(`${site.url}/blog/`, {
        includePaths: ['^/blog/post-\\d$'],
        sitemap: 'skip',
        zeroDataRetention: true,
        webhook: { url: receiver.url, metadata: { run: 'zdr' }, events: ['page', 'completed'] },
        pollInterval: 1,
        timeout: 120,
      });
      expect(job).toMatchObject({ status: 'completed', completed: 10, total: 10, creditsUsed: 20, data: [] });
      const paged = await call<{ data: unknown[]; next?: string; completed: number }>(
        platform.publicUrl,
        'GET',
        `/v2/crawl/${job.id}?limit=2`,
        { apiKey: platform.apiKey },
      );
      expect(paged.body).toMatchObject({ completed: 10, data: [] });
      expect(paged.body.next).toBeUndefined();

      const [stored] = await query<{
        documents: string;
        charges: string;
        charged: string;
        input: unknown;
        zdr: boolean;
      }>(
        platform,
        `SELECT (SELECT count(*) FROM documents WHERE job_id = $1) AS documents,
                (SELECT count(*) FROM credit_ledger WHERE job_id = $1) AS charges,
                (SELECT -sum(amount) FROM credit_ledger WHERE job_id = $1) AS charged,
                j.input, j.zero_data_retention AS zdr
         FROM jobs j WHERE j.id = $1`,
        [job.id],
      );
      expect([Number(stored.documents), Number(stored.charges), Number(stored.charged)]).toEqual([0, 10, 20]);
      expect(stored).toMatchObject({ input: null, zdr: true });

      const events = await eventually(async () => {
        const mine = receiver.received.filter((event) => event.body.id === job.id);
        return mine.some((event) => event.body.type === 'crawl.completed') ? mine : undefined;
      });
      const pages = events.filter((event) => event.body.type === 'crawl.page');
      expect(pages).toHaveLength(10);
      const sources = pages.map((event) => {
        const document = event.body.data[0] as Document;
        expect((document.markdown ?? '').length).toBeGreaterThan(0);
        expect(document.metadata?.creditsUsed).toBe(2);
        return document.metadata?.sourceURL;
      });
      const post3 = pages.find(
        (event) => (event.body.data[0] as Document).metadata?.sourceURL === `${site.url}/blog/post-3`,
      );
      expect((post3?.body.data[0] as Document).markdown).toContain('Blog post 3.');
      expect(sources.sort()).toEqual(
        [
          `${site.url}/blog/`,
          ...Array.from({ length: 9 }, (_, i) => `${site.url}/blog/post-${i + 1}`),
        ].sort(),
      );
      // the outbox dropped each document once it was delivered
      const outbox = await query<{ status: string; has_document: boolean }>(
        platform,
        `SELECT status, payload ? 'document' AS has_document FROM webhook_deliveries WHERE job_id = $1`,
        [job.id],
      );
      expect(outbox).toHaveLength(11);
      expect(outbox.every((row) => row.status === 'delivered' && !row.has_document)).toBe(true);
    });

    it('batch: no documents stored or returned, billed like the crawl', async () => {
      const job = await firecrawl.batchScrape([`${site.url}/about`, `${site.url}/docs/page-11`], {
        zeroDataRetention: true,
        pollInterval: 1,
        timeout: 60,
      });
      expect(job).toMatchObject({ status: 'completed', completed: 2, total: 2, creditsUsed: 4, data: [] });
      const [stored] = await query<{ documents: string; charged: string }>(
        platform,
        `SELECT (SELECT count(*) FROM documents WHERE job_id = $1) AS documents,
                (SELECT -sum(amount) FROM credit_ledger WHERE job_id = $1) AS charged`,
        [job.id],
      );
      expect([Number(stored.documents), Number(stored.charged)]).toEqual([0, 4]);
    });
  });
});
