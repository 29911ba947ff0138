import { type ScrapeRequestInput, scrapeRequestSchema } from '@quarry/contracts';

import { canonical, isCacheReadable, isCacheWritable, oldestAcceptable, scrapeCacheKey } from './cache-key';

const parse = (input: Partial<ScrapeRequestInput> = {}) =>
  scrapeRequestSchema.parse({ url: 'https://Example.com/a/?b=2&a=1#frag', ...input });

describe('scrape cache key', () => {
  it('is the same for equivalent URL spellings, format spellings and option order', () => {
    const base = scrapeCacheKey(parse({ formats: ['markdown', 'links'] }));
    expect(
      scrapeCacheKey(
        parse({ url: 'https://example.com/a?a=1&b=2', formats: [{ type: 'links' }, { type: 'markdown' }] }),
      ),
    ).toBe(base);
    expect(
      scrapeCacheKey(
        parse({ formats: ['markdown', 'links'], timeout: 30_000, proxy: 'basic', origin: 'js-sdk@4' }),
      ),
    ).toBe(base);
  });

  it('gives the same key for a URL seen lately, evicted from the memo of URL keys, or too long to keep', () => {
    const keyOf = (url: string) => scrapeCacheKey(parse({ url }));
    const urls = Array.from({ length: 1_100 }, (_, i) => `https://example.com/p/${i}/?z=1&a=2`);
    const first = urls.map(keyOf);
    expect(new Set(first).size).toBe(urls.length);
    expect(urls.map(keyOf)).toEqual(first); // the first hundred were evicted meanwhile
    expect(keyOf('https://EXAMPLE.com/p/7?a=2&z=1')).toBe(first[7]);
    const long = `https://example.com/${'x'.repeat(3_000)}/?b=1&a=2`;
    expect(keyOf(long)).toBe(keyOf(`https://example.com/${'x'.repeat(3_000)}?a=2&b=1`));
  });

  it('keeps the keys of stored entries (values computed before canonical() was rewritten)', () => {
    expect(scrapeCacheKey(parse())).toBe('2cdb636834a8b72149e6bfc71b55b00420ba0c74dcef43ed56f58e8a8977a16f');
    const detailed = scrapeRequestSchema.parse({
      url: 'https://example.com/x',
      formats: [
        'markdown',
        {
          type: 'json',
          prompt: 'p',
          schema: { type: 'object', properties: { b: { type: 'string' }, a: { type: 'number' } } },
        },
        { type: 'screenshot', fullPage: true },
      ],
      headers: { 'X-B': '2', 'x-a': 'é"\\' },
      location: { country: 'DE', languages: ['de', 'en'] },
      includeTags: ['article'],
      actions: [{ type: 'wait', milliseconds: 5 }],
    });
    expect(scrapeCacheKey(detailed)).toBe('04800293551df831614c7acb8cec1841c2fe6a4ffd7abe61bbc398d84058e521');
    expect(canonical({ b: [1, { d: undefined, c: 'x"y', a: null }], a: true, é: 1, Z: 2 })).toBe(
      '{"Z":2,"a":true,"b":[1,{"a":null,"c":"x\\"y"}],"é":1}',
    );
  });

  it('changes with every option that changes the content', () => {
    const base = scrapeCacheKey(parse());
    const variants: Partial<ScrapeRequestInput>[] = [
      { formats: ['html'] },
      { formats: [{ type: 'screenshot', fullPage: true }] },
      { onlyMainContent: false },
      { includeTags: ['article'] },
      { excludeTags: ['nav'] },
      { mobile: true },
      { location: { country: 'DE' } },
      { location: { country: 'US', languages: ['es'] } },
      { removeBase64Images: false },
      { blockAds: false },
      { waitFor: 1000 },
      { headers: { cookie: 'a=1' } },
      { actions: [{ type: 'scroll' }] },
      { profile: { name: 'p' } },
      { parsers: [] },
      { redactPII: true },
    ];
    const keys = variants.map((variant) => scrapeCacheKey(parse(variant)));
    expect(new Set([base, ...keys]).size).toBe(variants.length + 1);
  });

  it('writes only cacheable, successful, non-sensitive results', () => {
    expect(isCacheWritable(parse(), 200)).toBe(true);
    expect(isCacheWritable(parse(), 404)).toBe(false);
    expect(isCacheWritable(parse({ headers: { a: 'b' } }), 200)).toBe(false);
    expect(isCacheWritable(parse({ actions: [{ type: 'scrape' }] }), 200)).toBe(false);
    expect(isCacheWritable(parse({ storeInCache: false }), 200)).toBe(false);
    expect(isCacheWritable(parse({ zeroDataRetention: true }), 200)).toBe(false);
    expect(isCacheWritable(parse({ profile: { name: 'p' } }), 200)).toBe(false);
    expect(isCacheWritable(parse({ formats: ['markdown', 'changeTracking'] }), 200)).toBe(false);
  });

  it('reads the cache unless maxAge is 0 or change tracking compares with the last scrape', () => {
    expect(isCacheReadable(parse())).toBe(true);
    expect(isCacheReadable(parse({ maxAge: 0 }))).toBe(false);
    expect(isCacheReadable(parse({ maxAge: 0, minAge: 1 }))).toBe(true);
    expect(isCacheReadable(parse({ lockdown: true }))).toBe(true);
    expect(isCacheReadable(parse({ formats: ['markdown', 'changeTracking'] }))).toBe(false);
  });

  it('caps the accepted age for screenshots at their URL lifetime', () => {
    const now = Date.now();
    expect(oldestAcceptable(parse(), now).getTime()).toBe(now - 172_800_000);
    expect(oldestAcceptable(parse({ formats: ['screenshot'] }), now).getTime()).toBeGreaterThan(
      now - 24 * 3_600_000,
    );
    expect(oldestAcceptable(parse({ lockdown: true }), now).getTime()).toBe(now - 2 * 365 * 24 * 3_600_000);
  });
});
