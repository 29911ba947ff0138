import Firecrawl from '@mendable/firecrawl-js';

import { BASIC_SITE, type FixtureServer, startBasicSite } from '@quarry/testing';

import { call } from './support/api-client';
import { freePort } from './support/crawl-support';
import { type Platform, startStandalone } from './support/platform';

/**
 * `AUTH_ENABLED=false` ("auth off", docs/compatibility.md#keys-and-no-keys): any or no Authorization header is
 * accepted, every request belongs to one implicit team, and no rate limit applies — so an SDK built
 * with an empty key (which then sends no Authorization header) works end to end.
 */
describe('auth off: no key needed', () => {
  let site: FixtureServer;
  let platform: Platform;
  let publicUrl: string;

  beforeAll(async () => {
    site = await startBasicSite();
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    // One request a minute would refuse the second request if rate limits applied.
    platform = await startStandalone({
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      AUTH_ENABLED: 'false',
      RATE_LIMIT_PER_MINUTE: '1',
    });
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await site?.close();
  });

  it('serves an SDK with an empty key: scrape, batch (with status paging), usage and concurrency', async () => {
    const firecrawl = new Firecrawl({ apiKey: '', apiUrl: publicUrl });
    const document = await firecrawl.scrape(`${site.url}/article`, { formats: ['markdown', 'links'] });
    expect(document.markdown).toContain(BASIC_SITE.articleMarker);
    expect(document.links?.length).toBeGreaterThan(0);

    const batch = await firecrawl.batchScrape([`${site.url}/article`, `${site.url}/`], {
      pollInterval: 1,
      timeout: 120,
    });
    expect(batch).toMatchObject({ status: 'completed', completed: 2 });
    expect(batch.data).toHaveLength(2);

    const usage = await firecrawl.getCreditUsage();
    expect(typeof usage.remainingCredits).toBe('number');
    const concurrency = await firecrawl.getConcurrency();
    expect(typeof concurrency.maxConcurrency).toBe('number');
  });

  it('accepts any Authorization header, or none, as the same implicit team', async () => {
    const none = await call<{ success: boolean; data: { metadata: { scrapeId: string } } }>(
      publicUrl,
      'POST',
      '/v2/scrape',
      {
        body: { url: `${site.url}/article` },
      },
    );
    expect(none.status).toBe(200);
    const bogus = await call<{ success: boolean; data: { markdown: string } }>(
      publicUrl,
      'GET',
      `/v2/scrape/${none.body.data.metadata.scrapeId}`,
      { apiKey: 'not-a-real-key' },
    );
    // The job made without a key is found with a different (meaningless) key: one team.
    expect(bogus.status).toBe(200);
    expect(bogus.body.data.markdown).toContain(BASIC_SITE.articleMarker);
  });

  it('still validates bodies and answers errors in the spec shape', async () => {
    const invalid = await call<{ success: boolean; error: string; code?: string }>(
      publicUrl,
      'POST',
      '/v2/scrape',
      {
        body: { url: 'ftp://example.com/file' },
      },
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ success: false, error: 'Invalid URL' });
  });
});
