import Firecrawl, { type Document } from '@mendable/firecrawl-js';

import { CRAWL_SITE, type CrawlSite } from '@quarry/testing';

import { call } from './support/api-client';
import {
  type CrawlCluster,
  createTeamKey,
  eventually,
  type FakeSearxng,
  query,
  useMapSearchSuite,
} from './support/crawl-support';
import { developer, general, images, news, science } from './support/search-results';

describe('map, search and account usage (SDK, cluster)', () => {
  let site: CrawlSite;
  let searxng: FakeSearxng;
  let platform: CrawlCluster;
  let firecrawl: Firecrawl;

  const suite = useMapSearchSuite({ general, news, images, it: developer, science });
  beforeAll(() => {
    ({ site, searxng, platform } = suite);
    firecrawl = new Firecrawl({ apiKey: platform.apiKey, apiUrl: platform.publicUrl });
  });

  describe('map', () => {
    it('unites sitemap, a light crawl and the index; never sitemap-only; titles where known', async () => {
      // a page only the sitemap lists, scraped earlier: the index must know it even when the sitemap is skipped
      await firecrawl.batchScrape([`${site.url}/orphan/7`], { pollInterval: 1, timeout: 60 });
      const full = await firecrawl.map(`${site.url}/`, { limit: 1_000 });
      const urls = full.links.map((link) => link.url);
      expect(new Set(urls).size).toBe(urls.length);
      expect(urls).toEqual(
        expect.arrayContaining([
          `${site.url}/`,
          `${site.url}/about`,
          `${site.url}/docs/page-300`,
          `${site.url}/orphan/20`,
          `${site.url}/blog/post-50`,
        ]),
      );
      expect(full.links.find((link) => link.url === `${site.url}/about`)?.title).toBe('About');
      expect(urls.some((url) => url.includes('/private/'))).toBe(true); // map lists URLs; robots.txt governs fetching
      expect(urls).toContain(`${site.subUrl}/`); // includeSubdomains defaults to true
      expect(urls.some((url) => url.startsWith(site.externalUrl))).toBe(false);

      const skipped = await firecrawl.map(`${site.url}/`, { sitemap: 'skip', limit: 1_000 });
      const skippedUrls = skipped.links.map((link) => link.url);
      expect(skippedUrls).toEqual(
        expect.arrayContaining([`${site.url}/about`, `${site.url}/docs/`, `${site.url}/orphan/7`]),
      );
      expect(skippedUrls).not.toContain(`${site.url}/orphan/8`);

      const noSub = await firecrawl.map(`${site.url}/`, { sitemap: 'skip', includeSubdomains: false });
      expect(noSub.links.some((link) => link.url.startsWith(site.subUrl))).toBe(false);
    });

    it('cuts to limit exactly, ranks by search, keeps query strings on request and times out with 408', async () => {
      const ten = await firecrawl.map(`${site.url}/`, { sitemap: 'only', limit: 10 });
      expect(ten.links).toHaveLength(10);
      const ranked = await firecrawl.map(`${site.url}/`, { search: 'blog post', limit: 5 });
      expect(ranked.links).toHaveLength(5);
      for (const link of ranked.links) expect(link.url).toContain('/blog/');

      const withQuery = await firecrawl.map(`${site.url}/`, {
        sitemap: 'skip',
        ignoreQueryParameters: false,
      });
      expect(withQuery.links.map((link) => link.url)).toContain(`${site.url}/search?q=start`);
      const withoutQuery = await firecrawl.map(`${site.url}/`, { sitemap: 'skip' });
      expect(withoutQuery.links.map((link) => link.url)).toContain(`${site.url}/search`);
      expect(withoutQuery.links.some((link) => link.url.includes('?'))).toBe(false);

      const timedOut = await call(platform.publicUrl, 'POST', '/v2/map', {
        apiKey: platform.apiKey,
        body: { url: `${site.url}/`, timeout: 1 },
      });
      expect(timedOut).toMatchObject({
        status: 408,
        body: {
          success: false,
          code: 'MAP_TIMEOUT',
          error: expect.stringMatching(/^The map operation timed out/),
        },
      });

      const lonely = await call<{ links: unknown[]; warning?: string }>(
        platform.publicUrl,
        'POST',
        '/v2/map',
        { apiKey: platform.apiKey, body: { url: `${site.url}/nothing-here`, sitemap: 'skip' } },
      );
      expect(lonely.body.links.length).toBeLessThanOrEqual(1);
      expect(lonely.body.warning).toBe(
        `Only ${lonely.body.links.length} result(s) found. For broader coverage, try mapping the base domain: ${site.url}`,
      );
      const one = await call<{ warning?: string }>(platform.publicUrl, 'POST', '/v2/map', {
        apiKey: platform.apiKey,
        body: { url: `${site.url}/nothing-here`, sitemap: 'skip', limit: 1 },
      });
      expect(one.body.warning).toBeUndefined();
    });

    it('follows a start URL that moved to another host name and maps the new host (docs/crawl.md#map)', async () => {
      // moved.localhost answers every path with a 301 to the same path on localhost
      const moved = await firecrawl.map(`${site.movedUrl}/`, {
        includeSubdomains: false,
        sitemap: 'skip',
        limit: 1_000,
      });
      const urls = moved.links.map((link) => link.url);
      expect(urls).toEqual(
        expect.arrayContaining([`${site.url}/`, `${site.url}/about`, `${site.url}/docs/`]),
      );
      expect(urls.every((url) => url.startsWith(`${site.url}/`))).toBe(true);
      // the path is kept: filterByPath applies to the redirected start URL
      const blog = await firecrawl.map(`${site.movedUrl}/blog/`, { includeSubdomains: false, limit: 1_000 });
      const blogUrls = blog.links.map((link) => link.url);
      expect(blogUrls).toEqual(expect.arrayContaining([`${site.url}/blog/`, `${site.url}/blog/post-50`]));
      expect(blogUrls.every((url) => url.startsWith(`${site.url}/blog/`))).toBe(true);
      // sitemap "only" follows the move too: the sitemap of the new host, in scope of the new host
      const onlySitemap = await firecrawl.map(`${site.movedUrl}/`, { sitemap: 'only', limit: 1_000 });
      const sitemapUrls = onlySitemap.links.map((link) => link.url);
      expect(sitemapUrls).toEqual(
        expect.arrayContaining([`${site.url}/orphan/3`, `${site.url}/docs/page-300`]),
      );
      expect(sitemapUrls.every((url) => url.startsWith(`${site.url}/`))).toBe(true);
    });

    it('takes the crawler options (docs/crawl.md#map): path patterns, full-URL patterns, discovery depth, entire domain', async () => {
      const map = async (body: Record<string, unknown>) => {
        const response = await call<{ links: { url: string }[] }>(platform.publicUrl, 'POST', '/v2/map', {
          apiKey: platform.apiKey,
          body: { sitemap: 'skip', useIndex: false, limit: 1_000, ...body },
        });
        expect(response.status).toBe(200);
        return response.body.links.map((link) => link.url);
      };
      const blog = await map({
        url: `${site.url}/`,
        includePaths: ['^/blog/'],
        excludePaths: ['^/blog/post-1$'],
      });
      expect(blog).toEqual(expect.arrayContaining([`${site.url}/blog/`, `${site.url}/blog/post-50`]));
      expect(blog).not.toContain(`${site.url}/blog/post-1`);
      expect(blog.every((url) => new URL(url).pathname.startsWith('/blog/'))).toBe(true);
      // depth 1: the start page's links only (the blog index), not the posts it links to
      expect(await map({ url: `${site.url}/`, includePaths: ['^/blog/'], maxDiscoveryDepth: 1 })).toEqual([
        `${site.url}/blog/`,
      ]);
      const about = await map({
        url: `${site.url}/`,
        includePaths: ['^http://localhost:\\d+/about$'],
        regexOnFullURL: true,
      });
      expect(about).toEqual([`${site.url}/about`]);
      const whole = await map({
        url: `${site.url}/blog/`,
        crawlEntireDomain: true,
        includeSubdomains: false,
      });
      expect(whole).toEqual(
        expect.arrayContaining([`${site.url}/blog/post-2`, `${site.url}/docs/`, `${site.url}/about`]),
      );
      const unknown = await call(platform.publicUrl, 'POST', '/v2/map', {
        apiKey: platform.apiKey,
        body: { url: `${site.url}/`, scrapeOptions: {} },
      });
      expect(unknown.status).toBe(400);
    });
  });

  describe('search', () => {
    it('returns provider results in the SDK web shape, following provider pages to the limit', async () => {
      const two = await firecrawl.search('fixture query', { limit: 2 });
      expect(two.web).toEqual([
        { url: general[0].url, title: general[0].title, description: general[0].content, position: 1 },
        { url: general[1].url, title: general[1].title, description: general[1].content, position: 2 },
      ]);
      const before = searxng.requests.length;
      const many = await firecrawl.search('fixture query', { limit: 21 });
      expect(many.web).toHaveLength(21);
      expect(searxng.requests.length - before).toBe(3);
      expect(searxng.requests[searxng.requests.length - 1].get('pageno')).toBe('3');
      // lang and country reach the provider as one locale (defaults en + us)
      expect(searxng.requests[searxng.requests.length - 1].get('language')).toBe('en-US');
      await firecrawl.search('fixture query', { limit: 1, country: 'gb' });
      expect(searxng.requests[searxng.requests.length - 1].get('language')).toBe('en-GB');
      await call(platform.publicUrl, 'POST', '/v2/search', {
        apiKey: platform.apiKey,
        body: { query: 'fixture query', limit: 1, lang: 'de', country: 'at' },
      });
      expect(searxng.requests[searxng.requests.length - 1].get('language')).toBe('de-AT');

      const only = await firecrawl.search('fixture query', {
        limit: 20,
        includeDomains: ['site1.example.com'],
      });
      expect(only.web?.length).toBeGreaterThan(0);
      expect(
        only.web?.every(
          (result) => new URL((result as { url: string }).url).hostname === 'site1.example.com',
        ),
      ).toBe(true);
      const except = await firecrawl.search('fixture query', {
        limit: 20,
        excludeDomains: ['site1.example.com'],
      });
      expect(
        except.web?.some(
          (result) => new URL((result as { url: string }).url).hostname === 'site1.example.com',
        ),
      ).toBe(false);

      const sources = await firecrawl.search('fixture query', { sources: ['news', 'images'], limit: 3 });
      expect(sources.news?.[0]).toMatchObject({
        title: 'Story 1',
        url: news[0].url,
        snippet: 'News snippet 1',
        date: news[0].publishedDate,
        imageUrl: news[0].thumbnail_src,
        position: 1,
      });
      expect(sources.images?.[0]).toMatchObject({
        title: 'Image 1',
        imageUrl: images[0].img_src,
        imageWidth: 800,
        imageHeight: 600,
        url: images[0].url,
        position: 1,
      });
      expect(sources.web).toBeUndefined();

      // categories: one provider query each (its SearXNG category and query filter), results labelled
      const seen = searxng.requests.length;
      const categorized = await firecrawl.search('widgets', { categories: ['github', 'research'], limit: 5 });
      expect(categorized.web).toEqual([
        expect.objectContaining({ url: developer[0].url, category: 'github', position: 1 }),
        expect.objectContaining({ url: developer[1].url, category: 'github', position: 2 }),
        expect.objectContaining({ url: science[0].url, category: 'research', position: 3 }),
      ]);
      const asked = searxng.requests
        .slice(seen)
        .map((params) => `${params.get('categories')}|${params.get('q')}`);
      expect([...new Set(asked)].map((pair) => pair.split('|'))).toEqual([
        ['it', 'widgets site:github.com'],
        ['science', 'widgets'],
      ]);

      const raw = await call<{ creditsUsed: number; id: string }>(platform.publicUrl, 'POST', '/v2/search', {
        apiKey: platform.apiKey,
        body: { query: 'fixture', limit: 11 },
      });
      expect(raw.body.creditsUsed).toBe(4);
      expect(typeof raw.body.id).toBe('string');
    });

    it('searches the team index of stored pages with PostgreSQL full-text search and scrapes results on request', async () => {
      await firecrawl.crawl(`${site.url}/docs/`, {
        limit: 60,
        sitemap: 'skip',
        pollInterval: 1,
        timeout: 120,
      });
      const hits = await firecrawl.search(CRAWL_SITE.searchMarker, { includeDomains: ['localhost'] });
      expect(hits.web?.[0]).toMatchObject({
        url: `${site.url}/docs/page-${CRAWL_SITE.searchMarkerPage}`,
        title: `Doc ${CRAWL_SITE.searchMarkerPage}`,
        position: 1,
      });
      expect(hits.web).toHaveLength(1);
      const ranked = await firecrawl.search(CRAWL_SITE.uniqueWord(17), { includeDomains: ['localhost'] });
      expect((ranked.web?.[0] as { url: string }).url).toBe(`${site.url}/docs/page-17`);

      const scraped = await firecrawl.search(CRAWL_SITE.searchMarker, {
        includeDomains: ['localhost'],
        scrapeOptions: { formats: ['markdown'] },
      });
      const document = scraped.web?.[0] as Document & { url: string; title: string };
      expect(document.markdown).toContain(CRAWL_SITE.searchMarker);
      expect(document.metadata?.sourceURL).toBe(`${site.url}/docs/page-${CRAWL_SITE.searchMarkerPage}`);
      expect(document.title).toBe(`Doc ${CRAWL_SITE.searchMarkerPage}`);

      // creditsUsed = the search charge + the scrapes' charges, exactly what the ledger lost (docs/crawl.md#search)
      const before = (await firecrawl.getCreditUsage()).remainingCredits;
      const charged = await call<{ creditsUsed: number; data: { web: (Document & { url: string })[] } }>(
        platform.publicUrl,
        'POST',
        '/v2/search',
        {
          apiKey: platform.apiKey,
          body: {
            query: CRAWL_SITE.searchMarker,
            includeDomains: ['localhost'],
            scrapeOptions: { formats: ['markdown'] },
          },
        },
      );
      expect(charged.body.data.web).toHaveLength(1);
      expect(charged.body.data.web[0].metadata?.creditsUsed).toBe(1);
      expect(charged.body.creditsUsed).toBe(2 + 1);
      expect(before - (await firecrawl.getCreditUsage()).remainingCredits).toBe(charged.body.creditsUsed);
      const plain = await call<{ creditsUsed: number }>(platform.publicUrl, 'POST', '/v2/search', {
        apiKey: platform.apiKey,
        body: { query: CRAWL_SITE.searchMarker, includeDomains: ['localhost'] },
      });
      expect(plain.body.creditsUsed).toBe(2);

      // another team's pages are not in its index
      const otherKey = await createTeamKey(platform, 'search-other', 100);
      const other = await new Firecrawl({ apiKey: otherKey, apiUrl: platform.publicUrl }).search(
        CRAWL_SITE.searchMarker,
        { includeDomains: ['localhost'] },
      );
      expect(other.web ?? []).toEqual([]);
    });

    it('starts result scrapes without waiting on asyncScraping and serves them by id (docs/crawl.md#search)', async () => {
      type AsyncAnswer = { creditsUsed: number; data: { web: Document[] }; scrapeIds?: { web?: string[] } };
      const pageUrl = `${site.url}/docs/page-${CRAWL_SITE.searchMarkerPage}`;
      const before = (await firecrawl.getCreditUsage()).remainingCredits;
      const started = await call<AsyncAnswer>(platform.publicUrl, 'POST', '/v2/search', {
        apiKey: platform.apiKey,
        body: {
          query: CRAWL_SITE.searchMarker,
          includeDomains: ['localhost'],
          asyncScraping: true,
          // maxAge 0: a fresh scrape through a worker, not the cached copy
          scrapeOptions: { formats: ['markdown'], maxAge: 0 },
        },
      });
      expect(started.status).toBe(200);
      // the answer names the started job and carries no scraped content; only the search is charged
      expect(started.body.scrapeIds?.web).toHaveLength(1);
      expect(started.body.data.web[0]).toMatchObject({ url: pageUrl, position: 1 });
      expect(started.body.data.web[0].markdown).toBeUndefined();
      expect(started.body.creditsUsed).toBe(2);
      const scrapeId = started.body.scrapeIds?.web?.[0] ?? '';
      expect(scrapeId).toMatch(/^[0-9a-f-]{36}$/);

      // reading it waits for the job when it is still running, then answers the document
      const read = await call<{ data: Document }>(platform.publicUrl, 'GET', `/v2/scrape/${scrapeId}`, {
        apiKey: platform.apiKey,
      });
      expect(read.status).toBe(200);
      expect(read.body.data.markdown).toContain(CRAWL_SITE.searchMarker);
      expect(read.body.data.metadata).toMatchObject({ sourceURL: pageUrl, scrapeId, creditsUsed: 1 });
      expect(read.body.data.metadata?.cacheState).not.toBe('hit');
      // the scrape was charged when it ran: the ledger lost the search and that page, nothing more
      expect(before - (await firecrawl.getCreditUsage()).remainingCredits).toBe(2 + 1);

      // another team cannot read it
      const otherKey = await createTeamKey(platform, 'search-async-other', 100);
      const foreign = await call(platform.publicUrl, 'GET', `/v2/scrape/${scrapeId}`, { apiKey: otherKey });
      expect(foreign.status).toBe(404);

      // zero data retention forbids keeping results to read later
      const zdr = await call(platform.publicUrl, 'POST', '/v2/search', {
        apiKey: platform.apiKey,
        body: {
          query: CRAWL_SITE.searchMarker,
          asyncScraping: true,
          enterprise: ['zdr'],
          scrapeOptions: { formats: ['markdown'] },
        },
      });
      expect(zdr).toMatchObject({
        status: 400,
        body: { success: false, code: 'SCRAPE_ZDR_VIOLATION_ERROR' },
      });
    });

    it('answers validation failures with "Invalid request body"', async () => {
      const both = await call(platform.publicUrl, 'POST', '/v2/search', {
        apiKey: platform.apiKey,
        body: { query: 'x', includeDomains: ['a.com'], excludeDomains: ['b.com'] },
      });
      expect(both).toMatchObject({
        status: 400,
        body: {
          success: false,
          code: 'BAD_REQUEST',
          error: 'Invalid request body',
          details: expect.any(Array),
        },
      });
      const limit = await call(platform.publicUrl, 'POST', '/v2/search', {
        apiKey: platform.apiKey,
        body: { query: 'x', limit: 0 },
      });
      expect(limit).toMatchObject({ status: 400, body: { error: 'Invalid request body' } });
    });
  });

  describe('account usage', () => {
    it('reports credits, tokens, history, queue and concurrency from the ledger and the queues', async () => {
      const [team] = await query<{ credits: number }>(
        platform,
        `SELECT t.credits FROM teams t JOIN api_keys k ON k.team_id = t.id ORDER BY k.created_at LIMIT 1`,
      );
      const usage = await firecrawl.getCreditUsage();
      expect(usage.remainingCredits).toBe(team.credits);
      expect(usage.planCredits).toBe(1_000_000);
      expect(Date.parse(String(usage.billingPeriodStart))).toBeLessThan(Date.now());
      expect(Date.parse(String(usage.billingPeriodEnd))).toBeGreaterThan(Date.now());
      expect((await firecrawl.getTokenUsage()).remainingTokens).toBe(team.credits * 15);

      const history = await firecrawl.getCreditUsageHistorical();
      expect(history.periods).toHaveLength(12);
      expect(history.periods[11].creditsUsed).toBe(1_000_000 - team.credits);
      const byKey = await firecrawl.getCreditUsageHistorical(true);
      expect(byKey.periods.reduce((sum, period) => sum + period.creditsUsed, 0)).toBe(
        1_000_000 - team.credits,
      );
      expect(byKey.periods.every((period) => typeof period.apiKey === 'string')).toBe(true);
      // token history counts what language models really used (llm_token_usage), per month
      await query(
        platform,
        `INSERT INTO llm_token_usage (team_id, model, purpose, prompt_tokens, completion_tokens, total_tokens) SELECT t.id, 'm', 'summary', 1000, 234, 1234 FROM teams t JOIN api_keys k ON k.team_id = t.id ORDER BY k.created_at LIMIT 1`,
      );
      const tokens = await firecrawl.getTokenUsageHistorical();
      expect(tokens.periods).toHaveLength(12);
      expect(tokens.periods[11].tokensUsed).toBe(1234);

      const idle = await firecrawl.getQueueStatus();
      expect(idle).toMatchObject({
        success: true,
        jobsInQueue: 0,
        activeJobsInQueue: 0,
        waitingJobsInQueue: 0,
        maxConcurrency: 8,
      });
      expect(Date.parse(String(idle.mostRecentSuccess))).toBeGreaterThan(Date.now() - 600_000);
      expect(await firecrawl.getConcurrency()).toEqual({ concurrency: 0, maxConcurrency: 8 });

      const started = await firecrawl.startCrawl(`${site.url}/docs/`, {
        limit: 40,
        delay: 1,
        sitemap: 'skip',
      });
      const busy = await eventually(async () => {
        const status = await firecrawl.getQueueStatus();
        return status.jobsInQueue > 1 && status.activeJobsInQueue === 1 ? status : undefined;
      });
      expect(busy.waitingJobsInQueue).toBe(busy.jobsInQueue - 1);
      // With `delay: 1` the crawl alternates between one page in flight and none: sample until in flight.
      const inFlight = await eventually(
        async () => {
          const check = await firecrawl.getConcurrency();
          return check.concurrency === 1 ? check : undefined;
        },
        60_000,
        20,
      );
      expect(inFlight).toEqual({ concurrency: 1, maxConcurrency: 8 });
      await firecrawl.cancelCrawl(started.id);
    });
  });
});
