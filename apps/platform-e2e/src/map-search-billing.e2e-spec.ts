import Firecrawl from '@mendable/firecrawl-js';

import type { CrawlSite } from '@quarry/testing';

import { call } from './support/api-client';
import {
  type CrawlCluster,
  createTeamKey,
  eventually,
  query,
  useMapSearchSuite,
} from './support/crawl-support';
import { developer, general, images, news, science } from './support/search-results';

/** Billing on the cluster of map-search-usage.e2e-spec.ts (same setup). */
describe('map, search and account usage (SDK, cluster)', () => {
  let site: CrawlSite;
  let platform: CrawlCluster;

  const suite = useMapSearchSuite({ general, news, images, it: developer, science });
  beforeAll(() => {
    ({ site, platform } = suite);
  });

  describe('billing', () => {
    it('lowers a crawl limit to the remaining credits, then answers 402 once they are gone', async () => {
      const key = await createTeamKey(platform, 'poor-team', 5);
      const poor = new Firecrawl({ apiKey: key, apiUrl: platform.publicUrl });
      const job = await poor.crawl(`${site.url}/docs/`, {
        limit: 100,
        sitemap: 'skip',
        pollInterval: 1,
        timeout: 120,
      });
      expect(job).toMatchObject({ status: 'completed', completed: 5, total: 5, creditsUsed: 5 });
      expect((await poor.getCreditUsage()).remainingCredits).toBe(0);
      await expect(poor.startCrawl(`${site.url}/docs/`, {})).rejects.toMatchObject({
        status: 402,
        message: 'Payment Required: Insufficient credits',
      });
      await expect(poor.startBatchScrape([`${site.url}/about`], {})).rejects.toMatchObject({ status: 402 });
      expect(
        await call(platform.publicUrl, 'POST', '/v2/map', { apiKey: key, body: { url: site.url } }),
      ).toMatchObject({ status: 402 });
    });

    it('pre-checks at least limit credits and the most a search can cost: 402 rather than fewer results, nothing charged', async () => {
      const key = await createTeamKey(platform, 'search-budget', 12);
      const budget = new Firecrawl({ apiKey: key, apiUrl: platform.publicUrl });
      // limit 10 needs 10 credits at hand (docs/crawl.md#search) and costs 2
      const small = await call<{ creditsUsed: number; data: { web: unknown[] } }>(
        platform.publicUrl,
        'POST',
        '/v2/search',
        {
          apiKey: key,
          body: { query: 'fixture query' },
        },
      );
      expect(small.status).toBe(200);
      expect(small.body.data.web).toHaveLength(10);
      expect(small.body.creditsUsed).toBe(2);
      expect((await budget.getCreditUsage()).remainingCredits).toBe(10);
      for (const body of [
        { query: 'fixture query', limit: 11 }, // fewer than `limit` credits left
        { query: 'fixture query', limit: 100 }, // up to 100 results: 20 credits
        // up to 20 results (4 credits) and 10 scrapes (10 credits)
        {
          query: 'fixture query',
          limit: 10,
          sources: ['web', 'news'],
          scrapeOptions: { formats: ['markdown'] },
        },
      ]) {
        expect(await call(platform.publicUrl, 'POST', '/v2/search', { apiKey: key, body })).toMatchObject({
          status: 402,
          body: { success: false, error: 'Payment Required: Insufficient credits' },
        });
      }
      expect((await budget.getCreditUsage()).remainingCredits).toBe(10);
    });

    it('stops a crawl as failed with a clear error when credits run out, never charging past zero', async () => {
      const key = await createTeamKey(platform, 'tight-team', 12);
      const tight = new Firecrawl({ apiKey: key, apiUrl: platform.publicUrl });
      const [a, b] = await Promise.all([
        tight.startCrawl(`${site.url}/docs/`, { limit: 10, sitemap: 'skip', maxConcurrency: 1 }),
        tight.startCrawl(`${site.url}/blog/`, { limit: 10, sitemap: 'skip', maxConcurrency: 1 }),
      ]);
      const finished = await Promise.all(
        [a.id, b.id].map((id) =>
          eventually(async () => {
            const status = await tight.getCrawlStatus(id);
            return status.status === 'scraping' ? undefined : status;
          }, 120_000),
        ),
      );
      const raw = await Promise.all(
        [a.id, b.id].map((id) =>
          call<{ status: string; error?: string; success: boolean }>(
            platform.publicUrl,
            'GET',
            `/v2/crawl/${id}`,
            { apiKey: key },
          ),
        ),
      );
      const failed = raw.filter((response) => response.body.status === 'failed');
      expect(failed.length).toBeGreaterThanOrEqual(1);
      for (const response of failed)
        expect(response.body).toMatchObject({
          success: true,
          error: expect.stringMatching(/^Insufficient credits/),
        });
      expect(finished.reduce((sum, status) => sum + status.completed, 0)).toBe(12);
      const [team] = await query<{ credits: number }>(
        platform,
        `SELECT credits FROM teams WHERE name = 'tight-team'`,
      );
      expect(team.credits).toBe(0);
    });
  });
});
