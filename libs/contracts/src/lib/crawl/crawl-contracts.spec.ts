import { describeValidationError, UNRECOGNIZED_KEY_MESSAGE } from '../errors/error-body';
import { mapRequestSchema } from '../map/map-request.schema';
import { searchRequestSchema } from '../search/search-request.schema';
import { batchScrapeRequestSchema } from './batch-request.schema';
import { crawlRequestSchema } from './crawl-request.schema';

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

describe('crawl request (compat §8.1)', () => {
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
});
