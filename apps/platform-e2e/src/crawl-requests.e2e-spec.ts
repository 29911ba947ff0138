import type Firecrawl from '@mendable/firecrawl-js';

import type { CrawlSite } from '@quarry/testing';

import { call } from './support/api-client';
import { type CrawlCluster, crawledPathOf, useCrawlSuite } from './support/crawl-support';

/** Crawl requests on the cluster of crawl.e2e-spec.ts (same setup): idempotency keys, prompts, validation. */
describe('crawl (SDK, cluster)', () => {
  let site: CrawlSite;
  let platform: CrawlCluster;
  let firecrawl: Firecrawl;

  const pathOf = crawledPathOf;
  const crawl = (path: string, options: Parameters<Firecrawl['crawl']>[1] = {}) =>
    firecrawl.crawl(`${site.url}${path}`, { pollInterval: 1, timeout: 240, ...options });

  const suite = useCrawlSuite();
  beforeAll(() => {
    ({ site, platform, firecrawl } = suite);
  });

  it('honours x-idempotency-key (409 on reuse, 400 when not a UUID)', async () => {
    const key = '7d3c2a4e-5b6f-4a1b-9c8d-0e1f2a3b4c5d';
    const body = { url: `${site.url}/about`, limit: 1, sitemap: 'skip' };
    const first = await call(platform.publicUrl, 'POST', '/v2/crawl', {
      apiKey: platform.apiKey,
      body,
      headers: { 'x-idempotency-key': key },
    });
    expect(first.status).toBe(200);
    const second = await call(platform.publicUrl, 'POST', '/v2/crawl', {
      apiKey: platform.apiKey,
      body,
      headers: { 'x-idempotency-key': key.toUpperCase() },
    });
    expect(second).toMatchObject({
      status: 409,
      body: { success: false, error: 'Idempotency key already used' },
    });
    const invalid = await call(platform.publicUrl, 'POST', '/v2/crawl', {
      apiKey: platform.apiKey,
      body,
      headers: { 'x-idempotency-key': 'abc' },
    });
    expect(invalid).toMatchObject({
      status: 400,
      body: { success: false, error: 'Idempotency key must be a UUID' },
    });
  });

  it('reads crawl options from a prompt without a language model; explicit fields win', async () => {
    const preview = await firecrawl.crawlParamsPreview(
      `${site.url}/`,
      'Crawl only the blog posts, up to 5 pages, and ignore the sitemap',
    );
    // Read against the site's own sections (its start page links and sitemaps): /blog.
    expect(preview).toMatchObject({
      url: `${site.url}/`,
      includePaths: ['^/blog(?:/|$)'],
      limit: 5,
      sitemap: 'skip',
    });
    const job = await crawl('/', {
      prompt: 'only the blog posts, up to 5 pages, ignore the sitemap',
      limit: 3,
    });
    expect(job.completed).toBe(3);
    expect(
      job.data
        .map(pathOf)
        .filter((path) => path !== '/')
        .every((path) => path.startsWith('/blog')),
    ).toBe(true);
    const started = await call<{
      promptGeneratedOptions: Record<string, unknown>;
      finalCrawlerOptions: Record<string, unknown>;
    }>(platform.publicUrl, 'POST', '/v2/crawl', {
      apiKey: platform.apiKey,
      body: { url: `${site.url}/`, prompt: 'exclude the docs and blog sections, 4 pages', limit: 2 },
    });
    expect(started.body.promptGeneratedOptions).toMatchObject({
      excludePaths: ['^/docs(?:/|$)', '^/blog(?:/|$)'],
      limit: 4,
    });
    expect(started.body.finalCrawlerOptions).toMatchObject({
      excludePaths: ['^/docs(?:/|$)', '^/blog(?:/|$)'],
      limit: 2,
      prompt: 'exclude the docs and blog sections, 4 pages',
    });
    expect(
      (
        await call(platform.publicUrl, 'POST', '/v2/crawl/params-preview', {
          apiKey: platform.apiKey,
          body: { url: `${site.url}/`, prompt: '' },
        })
      ).status,
    ).toBe(400);
    // an empty prompt is an invalid prompt, not an absent one (docs/crawl.md#crawl-options)
    for (const prompt of ['', '  ']) {
      expect(
        await call(platform.publicUrl, 'POST', '/v2/crawl', {
          apiKey: platform.apiKey,
          body: { url: `${site.url}/`, prompt },
        }),
      ).toMatchObject({
        status: 400,
        body: { success: false, code: 'BAD_REQUEST', error: 'The prompt must not be empty' },
      });
    }
  });

  it('validates crawl requests with the spec error shape', async () => {
    const badRegex = await call(platform.publicUrl, 'POST', '/v2/crawl', {
      apiKey: platform.apiKey,
      body: { url: `${site.url}/`, includePaths: ['(unclosed'] },
    });
    expect(badRegex.status).toBe(400);
    expect(badRegex.body).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
      error: expect.stringMatching(/^Invalid regular expression/),
    });
    const unknown = await call(platform.publicUrl, 'POST', '/v2/crawl', {
      apiKey: platform.apiKey,
      body: { url: `${site.url}/`, maxDepth: 3 },
    });
    expect(unknown.body).toMatchObject({
      success: false,
      error: expect.stringMatching(/^Unrecognized key in body/),
    });
    const invalidUrl = await call(platform.publicUrl, 'POST', '/v2/crawl', {
      apiKey: platform.apiKey,
      body: { url: 'ftp://example.com' },
    });
    expect(invalidUrl).toMatchObject({ status: 400, body: { error: 'Invalid URL' } });
  });
});
