import { batchScrapeRequestSchema } from '../crawl/batch-request.schema';
import { crawlRequestSchema } from '../crawl/crawl-request.schema';
import { AppError } from '../errors/app-error';
import { mapRequestSchema } from '../map/map-request.schema';
import { scrapeRequestSchema } from '../scrape/scrape-request.schema';
import {
  v1BatchScrapeRequestSchema,
  v1CrawlRequestSchema,
  v1MapRequestSchema,
  v1ScrapeRequestSchema,
  v1SearchRequestSchema,
} from './v1-requests.schema';
import {
  toV1CreditUsage,
  toV1Document,
  v1BatchToV2,
  v1CrawlToV2,
  v1MapToV2,
  v1ScrapeToV2,
  v1SearchToV2,
} from './v1-translate';

const URL = 'https://example.com/page';

describe('v1 → v2 translation', () => {
  const scrape = (body: Record<string, unknown>) => {
    const { body: v2, outputs } = v1ScrapeToV2(v1ScrapeRequestSchema.parse({ url: URL, ...body }));
    return { request: scrapeRequestSchema.parse(v2), outputs };
  };

  it('keeps v1 defaults a v2 body does not have: timeout 30000, a scheme for bare URLs', () => {
    expect(scrape({}).request).toMatchObject({ url: URL, timeout: 30_000, formats: [{ type: 'markdown' }] });
    expect(v1ScrapeToV2(v1ScrapeRequestSchema.parse({ url: 'example.com/a' })).body['url']).toBe(
      'http://example.com/a',
    );
  });

  it('maps v1 formats and their side options to format objects', () => {
    const { request, outputs } = scrape({
      formats: ['markdown', 'screenshot@fullPage', 'extract', 'changeTracking'],
      extract: {
        prompt: 'the title',
        schema: { type: 'object', properties: { t: { type: 'string' } } },
        systemPrompt: 'x',
      },
      changeTrackingOptions: { modes: ['git-diff'], tag: null },
    });
    expect(request.formats).toEqual([
      { type: 'markdown' },
      { type: 'screenshot', fullPage: true },
      {
        type: 'json',
        prompt: 'the title',
        schema: { type: 'object', properties: { t: { type: 'string' } } },
      },
      { type: 'changeTracking', modes: ['git-diff'], tag: null },
    ]);
    expect(outputs).toEqual({ extract: true, json: false });
  });

  it('translates parsePDF, the stealth proxy, geolocation and an oversized timeout', () => {
    const { request } = scrape({
      parsePDF: false,
      proxy: 'stealth',
      geolocation: { country: 'us-generic' },
      timeout: 900_000,
    });
    expect(request).toMatchObject({
      parsers: [],
      proxy: 'enhanced',
      location: { country: 'US' },
      timeout: 300_000,
    });
  });

  it('refuses json without options (and options without the format), and the FIRE-1 agent', () => {
    const refusal = (body: Record<string, unknown>) => {
      try {
        scrape(body);
      } catch (error) {
        return error as AppError;
      }
      throw new Error('accepted');
    };
    expect(refusal({ formats: ['json'] })).toMatchObject({
      status: 400,
      message: expect.stringMatching(/corresponding options/),
    });
    expect(refusal({ jsonOptions: { prompt: 'x' } })).toMatchObject({ status: 400 });
    expect(refusal({ agent: { model: 'FIRE-1', prompt: 'click' } })).toMatchObject({
      status: 400,
      message: expect.stringMatching(/FIRE-1/),
    });
  });

  it('translates crawl options: ignoreSitemap, allowBackwardLinks, maxDepth, nested scrape options', () => {
    const request = crawlRequestSchema.parse(
      v1CrawlToV2(
        v1CrawlRequestSchema.parse({
          url: URL,
          ignoreSitemap: true,
          allowBackwardLinks: true,
          maxDepth: 3,
          limit: 5,
          scrapeOptions: { formats: ['markdown', 'links'], proxy: 'stealth' },
          webhook: 'https://hooks.example.com/x',
        }),
      ),
    );
    expect(request).toMatchObject({
      sitemap: 'skip',
      crawlEntireDomain: true,
      maxDiscoveryDepth: 3,
      limit: 5,
    });
    expect(request.scrapeOptions).toMatchObject({
      formats: [{ type: 'markdown' }, { type: 'links' }],
      proxy: 'enhanced',
    });
    expect(request.webhook).toMatchObject({ url: 'https://hooks.example.com/x' });
  });

  it('keeps v1 batch defaults (invalid URLs refused unless asked)', () => {
    const request = batchScrapeRequestSchema.parse(
      v1BatchToV2(v1BatchScrapeRequestSchema.parse({ urls: [URL], formats: ['html'] })).body,
    );
    expect(request).toMatchObject({ urls: [URL], ignoreInvalidURLs: false, formats: [{ type: 'html' }] });
  });

  it('translates map sitemap modes', () => {
    const only = mapRequestSchema.parse(
      v1MapToV2(v1MapRequestSchema.parse({ url: URL, sitemapOnly: true, timeout: 2_500.5 })),
    );
    expect(only).toMatchObject({ sitemap: 'only', timeout: 2_501 });
    expect(
      mapRequestSchema.parse(v1MapToV2(v1MapRequestSchema.parse({ url: URL, ignoreSitemap: true }))).sitemap,
    ).toBe('skip');
  });

  it('searches the web only, scraping results only when formats are named', () => {
    const plain = v1SearchToV2(
      v1SearchRequestSchema.parse({
        query: 'q',
        limit: 5,
        lang: 'en',
        country: 'us',
        location: null,
        scrapeOptions: { formats: [] },
      }),
    );
    expect(plain).toEqual({ query: 'q', limit: 5, lang: 'en', country: 'us', sources: ['web'] });
    const scraped = v1SearchToV2(
      v1SearchRequestSchema.parse({ query: 'q', scrapeOptions: { formats: ['markdown'] } }),
    );
    expect(scraped['scrapeOptions']).toEqual({ formats: ['markdown'] });
  });
});

describe('v2 → v1 answers', () => {
  const document = {
    markdown: '# x',
    json: { t: 'x' },
    changeTracking: {
      previousScrapeAt: null,
      changeStatus: 'changed' as const,
      visibility: 'visible' as const,
      diff: '@@ -1 +1 @@',
    },
    metadata: { sourceURL: URL, url: URL, statusCode: 200 },
  };

  it('puts the json result under the names the request used, and the diff in v1 form', () => {
    expect(toV1Document(document, { extract: true, json: false })).toMatchObject({
      extract: { t: 'x' },
      changeTracking: { diff: { text: '@@ -1 +1 @@' } },
    });
    expect(toV1Document(document, { extract: true, json: false })).not.toHaveProperty('json');
    expect(toV1Document(document)).toMatchObject({ extract: { t: 'x' }, json: { t: 'x' } });
  });

  it('names usage figures in snake case', () => {
    expect(
      toV1CreditUsage({
        success: true,
        data: { remainingCredits: 5, planCredits: 10, billingPeriodStart: 'a', billingPeriodEnd: 'b' },
      }),
    ).toEqual({
      success: true,
      data: { remaining_credits: 5, plan_credits: 10, billing_period_start: 'a', billing_period_end: 'b' },
    });
  });
});
