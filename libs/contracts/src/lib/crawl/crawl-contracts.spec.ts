import { describeValidationError, UNRECOGNIZED_KEY_MESSAGE } from '../errors/error-body';
import { mapRequestSchema } from '../map/map-request.schema';
import { searchRequestSchema } from '../search/search-request.schema';
import { batchScrapeRequestSchema } from './batch-request.schema';
import { crawlParamsPreviewSchema, crawlRequestSchema } from './crawl-request.schema';

function failure(
  schema: { safeParse(value: unknown): { success: boolean; error?: unknown } },
  body: unknown,
) {
  const result = schema.safeParse(body) as {
    success: boolean;
    error?: Parameters<typeof describeValidationError>[0];
  };
  if (result.success || !result.error) throw new Error(`expected failure for ${JSON.stringify(body)}`);
  return describeValidationError(result.error);
}

describe('crawl request (docs/crawl.md#crawl-options)', () => {
  it('applies the documented defaults', () => {
    expect(crawlRequestSchema.parse({ url: 'https://example.com' })).toMatchObject({
      limit: 10_000,
      includePaths: [],
      excludePaths: [],
      crawlEntireDomain: false,
      allowExternalLinks: false,
      allowSubdomains: false,
      ignoreQueryParameters: false,
      regexOnFullURL: false,
      deduplicateSimilarURLs: true,
      ignoreRobotsTxt: false,
      sitemap: 'include',
      zeroDataRetention: false,
      origin: 'api',
      scrapeOptions: { formats: [{ type: 'markdown' }], onlyMainContent: true },
    });
  });

  it('names the error of an invalid regular expression', () => {
    expect(
      failure(crawlRequestSchema, { url: 'https://example.com', includePaths: ['[unclosed'] }).message,
    ).toMatch(/^Invalid regular expression in \[unclosed/);
  });

  it('refuses patterns with nested quantifiers, keeps ordinary ones', () => {
    for (const pattern of ['(a+)+$', '^/(x*y)*z', '(\\d+){2,}']) {
      expect(
        failure(crawlRequestSchema, { url: 'https://example.com', excludePaths: [pattern] }).message,
      ).toMatch(/nests quantifiers/);
    }
    for (const pattern of ['^/blog/.*', '^/docs/(v\\d+)?/api', '^/(en|de)/[a-z-]+$', '/page-\\d{1,3}$']) {
      expect(
        crawlRequestSchema.safeParse({ url: 'https://example.com', includePaths: [pattern] }).success,
      ).toBe(true);
    }
  });

  it('accepts the SDK envelope inside scrapeOptions and rejects unknown keys', () => {
    expect(
      crawlRequestSchema.safeParse({
        url: 'https://example.com',
        scrapeOptions: { origin: 'js-sdk@4.42.0', integration: 'x', toolDetail: 'compact' },
      }).success,
    ).toBe(true);
    expect(failure(crawlRequestSchema, { url: 'https://example.com', maxDepth: 2 }).message).toBe(
      UNRECOGNIZED_KEY_MESSAGE,
    );
  });

  it('normalises webhooks and reserves the signature header', () => {
    const request = crawlRequestSchema.parse({
      url: 'https://example.com',
      webhook: 'https://hooks.example.com/x',
    });
    expect(request.webhook).toEqual({
      url: 'https://hooks.example.com/x',
      headers: {},
      metadata: {},
      events: ['completed', 'failed', 'page', 'started'],
    });
    expect(
      failure(crawlRequestSchema, {
        url: 'https://example.com',
        webhook: { url: 'https://h.example.com', headers: { 'X-Firecrawl-Signature': 'x' } },
      }).message,
    ).toMatch(/reserved/);
  });

  it('refuses an empty or blank prompt (invalid prompt → 400), on crawl and params-preview', () => {
    for (const prompt of ['', '   ']) {
      expect(failure(crawlRequestSchema, { url: 'https://example.com', prompt }).message).toBe(
        'The prompt must not be empty',
      );
      expect(failure(crawlParamsPreviewSchema, { url: 'https://example.com', prompt }).message).toBe(
        'The prompt must not be empty',
      );
    }
    expect(
      failure(crawlRequestSchema, { url: 'https://example.com', prompt: 'x'.repeat(10_001) }).message,
    ).toBe('Bad Request');
    expect(crawlRequestSchema.parse({ url: 'https://example.com', prompt: 'only the blog' }).prompt).toBe(
      'only the blog',
    );
  });

  it('bounds delay, limit and concurrency', () => {
    for (const body of [
      { delay: 0 },
      { delay: 61 },
      { limit: 0 },
      { maxConcurrency: 0 },
      { sitemap: 'sometimes' },
    ]) {
      expect(crawlRequestSchema.safeParse({ url: 'https://example.com', ...body }).success).toBe(false);
    }
    for (const body of [{ delay: 60 }, { delay: 0.25 }, { limit: 1 }, { maxConcurrency: 1 }]) {
      expect(crawlRequestSchema.safeParse({ url: 'https://example.com', ...body }).success).toBe(true);
    }
  });
});

describe('batch, map and search requests', () => {
  it('batch: flattened scrape options, ignoreInvalidURLs true by default, cross-field rules', () => {
    const batch = batchScrapeRequestSchema.parse({
      urls: ['https://example.com', 'nope'],
      formats: ['markdown', 'links'],
    });
    expect(batch).toMatchObject({
      ignoreInvalidURLs: true,
      formats: [{ type: 'markdown' }, { type: 'links' }],
    });
    expect(
      failure(batchScrapeRequestSchema, { urls: ['https://example.com'], waitFor: 40_000, timeout: 60_000 })
        .message,
    ).toBe('waitFor must not exceed half of timeout');
    expect(batchScrapeRequestSchema.safeParse({ urls: [] }).success).toBe(false);
  });

  it('map: documented defaults and limit bounds', () => {
    expect(mapRequestSchema.parse({ url: 'https://example.com' })).toMatchObject({
      sitemap: 'include',
      includeSubdomains: true,
      ignoreQueryParameters: true,
      limit: 5_000,
      filterByPath: true,
      useIndex: true,
    });
    expect(mapRequestSchema.safeParse({ url: 'https://example.com', limit: 100_001 }).success).toBe(false);
    // the crawler options (docs/crawl.md#map), with the crawl's rules
    expect(
      mapRequestSchema.parse({
        url: 'https://example.com',
        includePaths: ['^/blog/'],
        maxDiscoveryDepth: 2,
        crawlEntireDomain: true,
        allowSubdomains: true,
        delay: 1,
      }),
    ).toMatchObject({
      includePaths: ['^/blog/'],
      excludePaths: [],
      regexOnFullURL: false,
      deduplicateSimilarURLs: true,
      limit: 5_000,
    });
    expect(failure(mapRequestSchema, { url: 'https://example.com', includePaths: ['('] }).message).toMatch(
      /^Invalid regular expression in \(/,
    );
    expect(
      failure(mapRequestSchema, { url: 'https://example.com', webhook: 'https://h.example' }).message,
    ).toBe('Unrecognized key in body -- please review the v2 API documentation for request body changes');
  });

  it('search: sources normalised, domain filters exclusive, formats restricted', () => {
    expect(searchRequestSchema.parse({ query: 'q', sources: ['web', { type: 'news' }] })).toMatchObject({
      limit: 10,
      sources: [{ type: 'web' }, { type: 'news' }],
      country: 'us',
      lang: 'en',
    });
    expect(
      failure(searchRequestSchema, { query: 'q', includeDomains: ['a.com'], excludeDomains: ['b.com'] })
        .message,
    ).toBe('includeDomains and excludeDomains cannot both be specified');
    expect(
      failure(searchRequestSchema, { query: 'q', scrapeOptions: { formats: ['rawBase64'] } }).message,
    ).toMatch(/not available in search/);
    expect(searchRequestSchema.parse({ query: 'q', categories: ['docs'] }).categories).toEqual(['developer']);
    expect(searchRequestSchema.safeParse({ query: 'q', limit: 101 }).success).toBe(false);
  });

  it('search: limit 1..100, source objects, developer not combinable, exclusive domain filters (docs/crawl.md#search)', () => {
    for (const limit of [1, 100])
      expect(searchRequestSchema.safeParse({ query: 'q', limit }).success).toBe(true);
    for (const limit of [0, 101, 2.5])
      expect(searchRequestSchema.safeParse({ query: 'q', limit }).success).toBe(false);
    expect(
      searchRequestSchema.parse({
        query: 'q',
        sources: [{ type: 'web', tbs: 'qdr:w', location: 'Berlin' }, { type: 'images' }, 'news'],
      }).sources,
    ).toEqual([{ type: 'web', tbs: 'qdr:w', location: 'Berlin' }, { type: 'images' }, { type: 'news' }]);
    for (const sources of [[{ type: 'video' }], [{ type: 'images', tbs: 'qdr:d' }], ['maps'], []]) {
      expect(searchRequestSchema.safeParse({ query: 'q', sources }).success).toBe(false);
    }
    expect(failure(searchRequestSchema, { query: 'q', categories: ['developer', 'github'] }).message).toBe(
      'The developer category cannot be combined with other categories',
    );
    expect(failure(searchRequestSchema, { query: 'q', categories: [{ type: 'code' }, 'pdf'] }).message).toBe(
      'The developer category cannot be combined with other categories',
    );
    // aliases of developer are still one category
    expect(
      searchRequestSchema.parse({ query: 'q', categories: ['docs', { type: 'repo' }] }).categories,
    ).toEqual(['developer', 'developer']);
    expect(
      searchRequestSchema.parse({ query: 'q', categories: ['github', 'research', 'pdf'] }).categories,
    ).toEqual(['github', 'research', 'pdf']);
    expect(failure(searchRequestSchema, { query: 'q', categories: ['videos'] }).message).toBe(
      'Unknown search category videos',
    );
    expect(
      searchRequestSchema.safeParse({ query: 'q', includeDomains: ['a.com'], excludeDomains: [] }).success,
    ).toBe(true);
    expect(failure(searchRequestSchema, { query: 'q', includeDomains: ['https://a.com/x'] }).message).toBe(
      'Bad Request',
    );
  });
});
