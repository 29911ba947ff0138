import Firecrawl, { type Document } from '@mendable/firecrawl-js';

import { CRAWL_SITE, type CrawlSite } from '@quarry/testing';

import { call } from './support/api-client';
import {
  type CrawlCluster,
  crawledPathOf,
  createTeamKey,
  eventually,
  query,
  useCrawlSuite,
} from './support/crawl-support';

/** Crawls of the fixture site with the unmodified SDK against gateway + workers on Kafka and PostgreSQL. */
describe('crawl (SDK, cluster)', () => {
  let site: CrawlSite;
  let platform: CrawlCluster;
  let firecrawl: Firecrawl;
  let fullCrawlId: string;
  let fullCrawlCompleted: number;

  const pathOf = crawledPathOf;
  const crawl = (path: string, options: Parameters<Firecrawl['crawl']>[1] = {}) =>
    firecrawl.crawl(`${site.url}${path}`, { pollInterval: 1, timeout: 240, ...options });

  const suite = useCrawlSuite();
  beforeAll(() => {
    ({ site, platform, firecrawl } = suite);
  });

  it('crawls several hundred pages once each: sitemap index with gzip sitemaps, robots.txt, traps bounded, no subdomain or external pages', async () => {
    const job = await crawl('/', { limit: 1_000, scrapeOptions: { formats: ['markdown', 'links'] } });
    fullCrawlId = job.id;
    fullCrawlCompleted = job.completed;
    expect(job.status).toBe('completed');
    const paths = job.data.map(pathOf);
    expect(new Set(paths).size).toBe(paths.length);
    expect(job.data.length).toBe(job.completed);
    expect(job.total).toBe(job.completed);
    // every real page, including the orphans only the gzip sitemap lists
    for (const path of site.mainPages()) expect(paths).toContain(path);
    // traps are bounded (CRAWL_TRAP_MAX_RUN=5): the calendar grows both ways, the query-string pagination one way
    const calendar = paths.filter((path) => path.startsWith('/calendar/'));
    const search = paths.filter((path) => path.startsWith('/search'));
    expect(calendar.length).toBe(11);
    expect(search.length).toBe(7);
    expect(paths.length).toBe(site.mainPages().length + calendar.length + search.length);
    // nothing of the subdomain, the external host or the robots-disallowed section
    expect(
      paths.some(
        (path) =>
          path.startsWith('sub.localhost') || path.startsWith('127.0.0.1') || path.startsWith('/private'),
      ),
    ).toBe(false);
    expect(site.hits.get('localhost /private/secret')).toBeUndefined();
    expect(site.hits.get('localhost /robots.txt')).toBe(1);
    // markdown for every page; the documents are the pages they claim to be
    for (const document of job.data) expect((document.markdown ?? '').length).toBeGreaterThan(0);
    const doc42 = job.data.find(
      (document) => pathOf(document) === `/docs/page-${CRAWL_SITE.searchMarkerPage}`,
    );
    expect(doc42?.markdown).toContain(CRAWL_SITE.searchMarker);
    expect(Array.isArray(doc42?.links)).toBe(true);
    expect(doc42?.metadata?.statusCode).toBe(200);
    expect(doc42?.metadata?.creditsUsed).toBe(1);

    const errors = await firecrawl.getCrawlErrors(job.id);
    expect(errors.robotsBlocked).toEqual([`${site.url}/private/secret`]);
    const byUrl = new Map(errors.errors.map((error) => [error.url, error]));
    expect(byUrl.get(`${site.url}/missing-page`)?.error).toMatch(/HTTP 404/);
    expect(byUrl.get(`${site.url}/offsite`)?.error).toMatch(/outside the crawl/);
    expect(
      errors.errors.every((error) => typeof error.id === 'string' && typeof error.timestamp === 'string'),
    ).toBe(true);

    // one document, one ledger charge and one credit per stored page
    const [row] = await query<{
      pages: string;
      documents: string;
      charges: string;
      charged: string;
      credits_used: number;
    }>(
      platform,
      `SELECT (SELECT count(*) FROM crawl_pages WHERE crawl_id = $1 AND status = 'completed') AS pages,
              (SELECT count(*) FROM documents WHERE job_id = $1) AS documents,
              (SELECT count(*) FROM credit_ledger WHERE job_id = $1) AS charges,
              (SELECT -sum(amount) FROM credit_ledger WHERE job_id = $1) AS charged,
              (SELECT credits_used FROM jobs WHERE id = $1) AS credits_used`,
      [job.id],
    );
    expect(Number(row.pages)).toBe(job.completed);
    expect(Number(row.documents)).toBe(job.completed);
    expect(Number(row.charges)).toBe(job.completed);
    expect(Number(row.charged)).toBe(job.completed);
    expect(row.credits_used).toBe(job.completed);
    expect(job.creditsUsed).toBe(job.completed);
  });

  it('pages status with skip/limit and an absolute `next` from PUBLIC_URL only while more documents exist', async () => {
    const first = await call<{ success: boolean; data: Document[]; next?: string; completed: number }>(
      platform.publicUrl,
      'GET',
      `/v2/crawl/${fullCrawlId}?limit=150`,
      { apiKey: platform.apiKey },
    );
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(150);
    expect(first.body.next).toBe(`${platform.publicUrl}/v2/crawl/${fullCrawlId}?skip=150&limit=150`);
    const last = await call<{ data: Document[]; next?: string }>(
      platform.publicUrl,
      'GET',
      `/v2/crawl/${fullCrawlId}?skip=300&limit=150`,
      { apiKey: platform.apiKey },
    );
    expect(last.body.data).toHaveLength(fullCrawlCompleted - 300);
    expect(last.body.next).toBeUndefined();
    const beyond = await call<{ data: Document[]; next?: string }>(
      platform.publicUrl,
      'GET',
      `/v2/crawl/${fullCrawlId}?skip=5000`,
      { apiKey: platform.apiKey },
    );
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.next).toBeUndefined();
    const bad = await call(platform.publicUrl, 'GET', `/v2/crawl/${fullCrawlId}?skip=-1`, {
      apiKey: platform.apiKey,
    });
    expect(bad.status).toBe(400);

    // the SDK follows `next` and honours its pagination limits
    const manual = await firecrawl.getCrawlStatus(fullCrawlId, { autoPaginate: false });
    expect(manual.data).toHaveLength(100);
    expect(manual.next).toBe(`${platform.publicUrl}/v2/crawl/${fullCrawlId}?skip=100`);
    const all = await firecrawl.getCrawlStatus(fullCrawlId);
    expect(all.data).toHaveLength(fullCrawlCompleted);
    expect(new Set(all.data.map(pathOf)).size).toBe(fullCrawlCompleted);
    // documents come in finish order: the dense per-crawl sequence 1..N the outcome transactions assign
    const finishOrder = await query<{ url: string; completed_seq: number }>(
      platform,
      `SELECT url, completed_seq FROM crawl_pages WHERE crawl_id = $1 AND status = 'completed' ORDER BY completed_seq`,
      [fullCrawlId],
    );
    expect(finishOrder.map((row) => Number(row.completed_seq))).toEqual(
      Array.from({ length: fullCrawlCompleted }, (_, index) => index + 1),
    );
    expect(all.data.map((document) => document.metadata?.sourceURL)).toEqual(
      finishOrder.map((row) => row.url),
    );
    expect((await firecrawl.getCrawlStatus(fullCrawlId, { maxResults: 120 })).data).toHaveLength(120);
    expect((await firecrawl.getCrawlStatus(fullCrawlId, { maxPages: 1 })).data).toHaveLength(200);
    // maxWaitTime (seconds) is checked before each `next` page: one already past keeps the first page only
    expect((await firecrawl.getCrawlStatus(fullCrawlId, { maxWaitTime: -1 })).data).toHaveLength(100);
    expect((await firecrawl.getCrawlStatus(fullCrawlId, { maxWaitTime: 120 })).data).toHaveLength(
      fullCrawlCompleted,
    );
    const status = await firecrawl.getCrawlStatus(fullCrawlId, { autoPaginate: false });
    expect(status).toMatchObject({
      id: fullCrawlId,
      status: 'completed',
      completed: fullCrawlCompleted,
      total: fullCrawlCompleted,
    });
  });

  it('stores exactly `limit` pages when more exist', async () => {
    const job = await crawl('/docs/', { limit: 10, sitemap: 'skip' });
    expect(job.status).toBe('completed');
    expect(job.completed).toBe(10);
    expect(job.data).toHaveLength(10);
    expect(job.total).toBe(10);
    expect(job.creditsUsed).toBe(10);
  });

  it('follows includePaths, excludePaths, maxDiscoveryDepth and the sitemap modes', async () => {
    const included = await crawl('/blog/', { includePaths: ['^/blog/post-\\d$'], sitemap: 'skip' });
    expect(included.data.map(pathOf).sort()).toEqual(
      ['/blog/', ...Array.from({ length: 9 }, (_, i) => `/blog/post-${i + 1}`)].sort(),
    );

    const excluded = await crawl('/', {
      excludePaths: ['^/(docs|blog|calendar|search|orphan)'],
      sitemap: 'skip',
    });
    expect(
      excluded.data.map(pathOf).filter((path) => /^\/(docs|blog|calendar|search|orphan)/.test(path)),
    ).toEqual([]);
    expect(excluded.data.map(pathOf)).toEqual(expect.arrayContaining(['/', '/about']));

    const shallow = await crawl('/', { maxDiscoveryDepth: 1, sitemap: 'skip' });
    const shallowPaths = shallow.data.map(pathOf);
    expect(shallowPaths).toEqual(
      expect.arrayContaining(['/', '/docs/', '/blog/', '/about', '/calendar/2024/01', '/search?q=start']),
    );
    expect(shallowPaths.filter((path) => /^\/(docs\/page|blog\/post)/.test(path))).toEqual([]);

    const sitemapOnly = await crawl('/', { sitemap: 'only', limit: 1_000 });
    const onlyPaths = sitemapOnly.data.map(pathOf);
    expect(onlyPaths).toHaveLength(1 + CRAWL_SITE.docs + CRAWL_SITE.posts + CRAWL_SITE.orphans);
    const mapped = await firecrawl.map(`${site.url}/`, { sitemap: 'only', limit: 1_000 });
    const mappedUrls = new Set(mapped.links.map((link) => link.url));
    for (const document of sitemapOnly.data) {
      const url = String(document.metadata?.sourceURL);
      if (url !== `${site.url}/`) expect(mappedUrls.has(url)).toBe(true);
    }

    const noSitemap = await crawl('/', { sitemap: 'skip', limit: 1_000 });
    expect(noSitemap.data.map(pathOf).filter((path) => path.startsWith('/orphan/'))).toEqual([]);
  });

  it('crosses to subdomains and external sites only when allowed', async () => {
    const options = {
      excludePaths: ['^/(docs/page|blog/post|calendar|search|orphan)'],
      sitemap: 'skip' as const,
    };
    const closed = await crawl('/', options);
    expect(closed.data.map(pathOf).filter((path) => !path.startsWith('/'))).toEqual([]);
    const subdomains = await crawl('/', { ...options, allowSubdomains: true });
    expect(
      subdomains.data
        .map(pathOf)
        .filter((path) => path.startsWith('sub.localhost'))
        .sort(),
    ).toEqual(
      [
        'sub.localhost/',
        ...Array.from({ length: CRAWL_SITE.subPages }, (_, i) => `sub.localhost/sub/${i + 1}`),
      ].sort(),
    );
    const external = await crawl('/', { ...options, allowExternalLinks: true });
    expect(external.data.map(pathOf)).toContain('127.0.0.1/external/');
    // `/offsite` redirects to the external landing page, which `/external/` also links to: stored once,
    // under whichever URL reached it first
    const landing = external.data.filter(
      (document) => document.metadata?.url === `${site.externalUrl}/external/landing`,
    );
    expect(landing).toHaveLength(1);
  });

  it('scopes by start path unless crawlEntireDomain, warning with the exact text when a path crawl finds one page', async () => {
    const narrow = await crawl('/blog/post-3', { sitemap: 'skip' });
    expect(narrow.data.map(pathOf)).toEqual(['/blog/post-3']);
    const status = await call<{ warning?: string }>(platform.publicUrl, 'GET', `/v2/crawl/${narrow.id}`, {
      apiKey: platform.apiKey,
    });
    expect(status.body.warning).toBe(
      `Only 1 result(s) found. For broader coverage, try crawling with crawlEntireDomain=true or start from a higher-level path like ${site.url}/`,
    );

    const entire = await crawl('/blog/post-3', {
      sitemap: 'skip',
      crawlEntireDomain: true,
      maxDiscoveryDepth: 1,
    });
    expect(entire.data.map(pathOf).sort()).toEqual(
      ['/', '/about', '/blog/', '/blog/post-3', '/docs/'].sort(),
    );

    // the checklist case: the whole domain is allowed, the pattern keeps only the start page
    const only = await crawl('/blog', { crawlEntireDomain: true, includePaths: ['^/blog$'] });
    expect(only.data.map(pathOf)).toEqual(['/blog']);
    const onlyStatus = await call<{ warning?: string }>(platform.publicUrl, 'GET', `/v2/crawl/${only.id}`, {
      apiKey: platform.apiKey,
    });
    expect(onlyStatus.body.warning).toBeUndefined();
  });

  it('matches include patterns on the full URL with regexOnFullURL', async () => {
    const pattern = `^http://localhost:${site.port}/blog/post-1\\d$`;
    const full = await crawl('/blog/', { includePaths: [pattern], regexOnFullURL: true, sitemap: 'skip' });
    expect(full.data.map(pathOf).sort()).toEqual(
      ['/blog/', ...Array.from({ length: 10 }, (_, i) => `/blog/post-${i + 10}`)].sort(),
    );
    const onPath = await crawl('/blog/', { includePaths: [pattern], sitemap: 'skip' });
    expect(onPath.data.map(pathOf)).toEqual(['/blog/']);
  });

  it('keeps a crawl started on a subdomain on that host unless allowSubdomains', async () => {
    const subPaths = [
      'sub.localhost/',
      ...Array.from({ length: CRAWL_SITE.subPages }, (_, i) => `sub.localhost/sub/${i + 1}`),
    ];
    const closed = await firecrawl.crawl(`${site.subUrl}/`, {
      sitemap: 'skip',
      pollInterval: 1,
      timeout: 120,
    });
    expect(closed.data.map(pathOf).sort()).toEqual([...subPaths].sort());
    const open = await firecrawl.crawl(`${site.subUrl}/`, {
      sitemap: 'skip',
      allowSubdomains: true,
      excludePaths: ['^/(docs|blog|calendar|search|orphan|old-page|offsite|missing-page)'],
      pollInterval: 1,
      timeout: 120,
    });
    const openPaths = open.data.map(pathOf);
    expect(openPaths).toEqual(expect.arrayContaining([...subPaths, '/', '/about']));
    expect(openPaths.some((path) => path.startsWith('127.0.0.1'))).toBe(false);
  });

  it('lets only keys with the robots permission override robots.txt (403 otherwise)', async () => {
    const limited = await createTeamKey(platform, 'no-robots-team', 100, ['crawl']);
    for (const option of [{ ignoreRobotsTxt: true }, { robotsUserAgent: 'SpecialBot' }]) {
      expect(
        await call(platform.publicUrl, 'POST', '/v2/crawl', {
          apiKey: limited,
          body: { url: `${site.url}/private/`, sitemap: 'skip', ...option },
        }),
      ).toMatchObject({ status: 403, body: { success: false, error: 'Forbidden' } });
    }
    const plain = await new Firecrawl({ apiKey: limited, apiUrl: platform.publicUrl }).crawl(
      `${site.url}/private/`,
      {
        sitemap: 'skip',
        pollInterval: 1,
        timeout: 60,
      },
    );
    expect(plain.data).toEqual([]);
    const blocked = await new Firecrawl({ apiKey: limited, apiUrl: platform.publicUrl }).getCrawlErrors(
      plain.id,
    );
    expect(blocked.robotsBlocked).toEqual([`${site.url}/private/`]);

    // the SDK does not send ignoreRobotsTxt (only robotsUserAgent): a raw request with the full key
    const before = site.hits.get('localhost /private/') ?? 0;
    const started = await call<{ id: string }>(platform.publicUrl, 'POST', '/v2/crawl', {
      apiKey: platform.apiKey,
      body: { url: `${site.url}/private/`, sitemap: 'skip', ignoreRobotsTxt: true },
    });
    expect(started.status).toBe(200);
    const ignored = await eventually(async () => {
      const status = await firecrawl.getCrawlStatus(started.body.id);
      return status.status === 'scraping' ? undefined : status;
    });
    expect(ignored.status).toBe('completed');
    expect(ignored.data.map(pathOf)).toEqual(['/private/']);
    expect(site.hits.get('localhost /private/') ?? 0).toBeGreaterThan(before);
    expect((await firecrawl.getCrawlErrors(started.body.id)).robotsBlocked).toEqual([]);
  });

  it('honours robotsUserAgent and records robots-blocked pages with the warning', async () => {
    const job = await crawl('/docs/', {
      robotsUserAgent: 'SpecialBot',
      includePaths: ['^/docs/page-\\d$'],
      sitemap: 'skip',
    });
    expect(job.data.map(pathOf)).not.toContain('/docs/page-7');
    expect(job.data.map(pathOf)).toContain('/docs/page-6');
    const errors = await firecrawl.getCrawlErrors(job.id);
    expect(errors.robotsBlocked).toEqual([`${site.url}/docs/page-7`]);
    const status = await call<{ warning?: string }>(platform.publicUrl, 'GET', `/v2/crawl/${job.id}`, {
      apiKey: platform.apiKey,
    });
    expect(status.body.warning).toContain('robots.txt file prevented this');
  });

  it('waits `delay` seconds between requests to a host', async () => {
    const startedAt = Date.now();
    const job = await crawl('/docs/', { delay: 1, limit: 4, sitemap: 'skip' });
    expect(job.completed).toBe(4);
    const pageRequests = site.log.filter(
      (entry) => entry.at >= startedAt && entry.host === 'localhost' && entry.path.startsWith('/docs/'),
    );
    expect(pageRequests).toHaveLength(4);
    for (let index = 1; index < pageRequests.length; index += 1)
      expect(pageRequests[index].at - pageRequests[index - 1].at).toBeGreaterThanOrEqual(950);
    const status = await call<{ createdAt: string; completedAt: string; duration: number }>(
      platform.publicUrl,
      'GET',
      `/v2/crawl/${job.id}`,
      { apiKey: platform.apiKey },
    );
    const span = (Date.parse(status.body.completedAt) - Date.parse(status.body.createdAt)) / 1000;
    expect(Math.abs(span - status.body.duration)).toBeLessThanOrEqual(1);
    expect(status.body.duration).toBeGreaterThanOrEqual(3);
  });

  it('lists active crawls, cancels at once (409 once finished) and checks ids', async () => {
    const started = await firecrawl.startCrawl(`${site.url}/docs/`, { delay: 2, limit: 50, sitemap: 'skip' });
    expect(started.url).toBe(`${platform.publicUrl}/v2/crawl/${started.id}`);
    const active = await firecrawl.getActiveCrawls();
    const listed = active.crawls.find((entry) => entry.id === started.id);
    expect(listed?.url).toBe(`${site.url}/docs/`);
    const raw = await call<{ crawls: { id: string; created_at: string }[] }>(
      platform.publicUrl,
      'GET',
      '/v2/crawl/ongoing',
      { apiKey: platform.apiKey },
    );
    expect(raw.body.crawls.find((entry) => entry.id === started.id)?.created_at).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
    );

    expect(await firecrawl.cancelCrawl(started.id)).toBe(true);
    expect((await firecrawl.getCrawlStatus(started.id)).status).toBe('cancelled');
    const again = await call(platform.publicUrl, 'DELETE', `/v2/crawl/${started.id}`, {
      apiKey: platform.apiKey,
    });
    expect(again).toMatchObject({
      status: 409,
      body: { success: false, error: 'Crawl is already completed' },
    });
    expect((await firecrawl.getActiveCrawls()).crawls.some((entry) => entry.id === started.id)).toBe(false);

    for (const path of ['/v2/crawl/None', '/v2/crawl/not-a-uuid/errors']) {
      expect(await call(platform.publicUrl, 'GET', path, { apiKey: platform.apiKey })).toMatchObject({
        status: 400,
        body: { success: false, error: 'Invalid job ID format. Job ID must be a valid UUID.' },
      });
    }
    expect(
      (await call(platform.publicUrl, 'DELETE', '/v2/crawl/None', { apiKey: platform.apiKey })).status,
    ).toBe(400);
    await expect(firecrawl.getCrawlErrors('invalid-job-id-12345')).rejects.toThrow();
    expect(
      await call(platform.publicUrl, 'GET', '/v2/crawl/00000000-0000-4000-8000-000000000000', {
        apiKey: platform.apiKey,
      }),
    ).toMatchObject({
      status: 404,
      body: { success: false, error: 'Job not found' },
    });
    // another team's crawl is reported exactly like an unknown one
    const otherKey = await createTeamKey(platform, 'other-team', 100);
    for (const [method, path] of [
      ['GET', `/v2/crawl/${fullCrawlId}`],
      ['GET', `/v2/crawl/${fullCrawlId}/errors`],
      ['DELETE', `/v2/crawl/${started.id}`],
    ]) {
      expect(await call(platform.publicUrl, method, path, { apiKey: otherKey })).toMatchObject({
        status: 404,
        body: { success: false, error: 'Job not found' },
      });
    }
    expect(
      (await new Firecrawl({ apiKey: otherKey, apiUrl: platform.publicUrl }).getActiveCrawls()).crawls,
    ).toEqual([]);
  });
});
