import Firecrawl from '@mendable/firecrawl-js';

import type { Platform } from '../support/platform';
import { CLIENT_SITE, type ClientSite, startClientSite } from './support/client-site';
import { startClientPlatform } from './support/clients';

/**
 * The Firecrawl JS SDK 4.42 (the project's devDependency) on what the other client suites do not
 * reach: its scrape auto-resume on a 408 `processing_continues`, the parser string shorthand of its
 * own "scrape with all options" test, and job/next URLs naming the host it called.
 */
describe('Firecrawl JS SDK: auto-resume, parser shorthand, request-host URLs', () => {
  let site: ClientSite;
  let platform: Platform;
  let firecrawl: Firecrawl;

  beforeAll(async () => {
    site = await startClientSite();
    // One scrape at a time: a second scrape waits in the queue while the first reads the slow page.
    platform = await startClientPlatform({ WORKER_CONCURRENCY: '1' });
    firecrawl = new Firecrawl({ apiKey: platform.apiKey, apiUrl: platform.url() });
  }, 300_000);

  afterAll(async () => {
    await platform?.stop();
    await site?.close();
  });

  it('a scrape that times out while queued answers 408 processing_continues; the SDK resumes and gets the page', async () => {
    const slow = firecrawl.scrape(site.at('/slow'), { timeout: 40_000, maxAge: 0 });
    await new Promise((resolve) => setTimeout(resolve, 500));

    const raw = await fetch(`${platform.url()}/v2/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${platform.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: site.at('/docs/one'), timeout: 2_000 }),
    });
    expect(raw.status).toBe(408);
    expect(await raw.json()).toEqual({
      success: false,
      error: 'Request Timeout',
      code: 'SCRAPE_TIMEOUT',
      details: { state: 'processing_continues', retryAfterSeconds: 5 },
      retry_after_seconds: 5,
    });
    expect(raw.headers.get('retry-after')).toBe('5');

    const started = Date.now();
    const document = await firecrawl.scrape(site.at('/about'), { timeout: 2_000 });
    expect(document.markdown).toContain('About');
    // At least one resume happened (the first attempt timed out in the queue, the SDK waited Retry-After).
    expect(Date.now() - started).toBeGreaterThan(5_000);
    expect((await slow).markdown).toContain('Late');

    // The job that timed out in the queue went on and its page is in the cache now.
    const cached = await firecrawl.scrape(site.at('/docs/one'), { timeout: 2_000 });
    expect(cached.metadata?.cacheState).toBe('hit');
  });

  it('accepts parsers: ["pdf"] (its "scrape with all options" test) and a lower-case country', async () => {
    const document = await firecrawl.scrape(site.at('/report.pdf'), {
      formats: ['markdown'],
      parsers: ['pdf'] as never,
      location: { country: 'us', languages: ['en'] },
    });
    expect(document.markdown).toContain(CLIENT_SITE.pdfTitle);
  });

  it('crawl job URLs and next links name the host the SDK called; pagination follows them', async () => {
    const started = await firecrawl.startCrawl(site.at('/'), { limit: 4 });
    expect(started.url.startsWith(`${platform.url()}/v2/crawl/`)).toBe(true);
    const job = await firecrawl.crawl(site.at('/'), { limit: 4, pollInterval: 1, timeout: 120 });
    expect(job.status).toBe('completed');
    const page = await fetch(`${platform.url()}/v2/crawl/${job.id}?limit=1`, {
      headers: {
        authorization: `Bearer ${platform.apiKey}`,
        'x-forwarded-host': 'quarry.example.org',
        'x-forwarded-proto': 'https',
      },
    }).then((response) => response.json() as Promise<{ next?: string }>);
    expect(page.next).toBe(`https://quarry.example.org/v2/crawl/${job.id}?skip=1&limit=1`);
    const all = await firecrawl.getCrawlStatus(job.id, { autoPaginate: true });
    expect(all.data.length).toBe(job.data.length);
  });

  it('GET /v0/health/readiness and /v2/parse/formats', async () => {
    const readiness = await fetch(`${platform.url()}/v0/health/readiness`);
    expect(readiness.status).toBe(200);
    expect(await readiness.json()).toEqual({ status: 'ok' });
    const formats = await fetch(`${platform.url()}/v2/parse/formats`, {
      headers: { authorization: `Bearer ${platform.apiKey}` },
    });
    expect(formats.headers.get('cache-control')).toBe('private, max-age=3600');
    const body = (await formats.json()) as { data: { formats: { format: string; available: boolean }[] } };
    expect(body.data.formats.find((format) => format.format === 'png')?.available).toBe(true);
  });
});
