import Firecrawl from '@mendable/firecrawl-js';

import { CRAWL_SITE, type CrawlSite, startCrawlSite } from '@quarry/testing';

import { freePort } from './support/crawl-support';
import { type Platform, startStandalone } from './support/platform';

/** The same crawl features in one process (`make start`): embedded PGlite and the in-memory bus. */
describe('crawl, batch, map, search in one-process mode (PGlite, memory bus)', () => {
  let site: CrawlSite;
  let platform: Platform;
  let firecrawl: Firecrawl;
  let publicUrl: string;

  beforeAll(async () => {
    site = await startCrawlSite();
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    platform = await startStandalone({
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      TEAM_CONCURRENCY_LIMIT: '4',
    });
    firecrawl = new Firecrawl({ apiKey: platform.apiKey, apiUrl: publicUrl });
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await site?.close();
  });

  it('crawls with sitemaps, robots.txt and exact limits; pages status; batches; maps; searches its index', async () => {
    const crawl = await firecrawl.crawl(`${site.url}/`, { limit: 120, pollInterval: 1, timeout: 240 });
    expect(crawl.status).toBe('completed');
    expect(crawl.completed).toBe(120);
    expect(crawl.data).toHaveLength(120);
    expect(new Set(crawl.data.map((document) => document.metadata?.sourceURL)).size).toBe(120);
    expect((await firecrawl.getCrawlStatus(crawl.id, { autoPaginate: false })).next).toBe(
      `${publicUrl}/v2/crawl/${crawl.id}?skip=100`,
    );
    expect((await firecrawl.getCrawlErrors(crawl.id)).robotsBlocked).toEqual([`${site.url}/private/secret`]);

    const batch = await firecrawl.batchScrape(
      [`${site.url}/docs/page-${CRAWL_SITE.searchMarkerPage}`, `${site.url}/about`],
      { pollInterval: 1, timeout: 120 },
    );
    expect(batch).toMatchObject({ status: 'completed', completed: 2 });

    const map = await firecrawl.map(`${site.url}/`, { sitemap: 'only', limit: 10 });
    expect(map.links).toHaveLength(10);

    const search = await firecrawl.search(CRAWL_SITE.searchMarker, { limit: 5 });
    expect((search.web?.[0] as { url: string }).url).toBe(
      `${site.url}/docs/page-${CRAWL_SITE.searchMarkerPage}`,
    );
    expect((await firecrawl.getCreditUsage()).remainingCredits).toBe(1_000_000 - 120 - 2 - 1 - 2);
  });
});
