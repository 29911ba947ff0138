import { LIMITS } from '../common/limits';
import { describeValidationError, UNRECOGNIZED_KEY_MESSAGE } from '../errors/error-body';
import { scrapeRequestSchema as sut } from './scrape-request.schema';

const URL = 'https://example.com/page?pagewanted=all&et_blog';

function ok(body: Record<string, unknown>) {
  const result = sut.safeParse({ url: URL, ...body });
  if (!result.success) throw new Error(JSON.stringify(result.error.issues));
  return result.data;
}

function failure(body: Record<string, unknown>) {
  const result = sut.safeParse(body);
  if (result.success) throw new Error(`expected failure for ${JSON.stringify(body)}`);
  return describeValidationError(result.error);
}

describe('scrape request contract (docs/scraping.md#options)', () => {
  it('applies every documented default', () => {
    const request = ok({});
    expect(request).toMatchObject({
      url: URL,
      formats: [{ type: 'markdown' }],
      onlyMainContent: true,
      onlyCleanContent: false,
      maxAge: LIMITS.defaultMaxAgeMs,
      waitFor: 0,
      mobile: false,
      skipTlsVerification: true,
      timeout: 60_000,
      removeBase64Images: true,
      blockAds: true,
      proxy: 'auto',
      storeInCache: true,
      lockdown: false,
      redactPII: false,
      zeroDataRetention: false,
      origin: 'api',
    });
    expect(request.minAge).toBeUndefined();
    expect(request.parsers).toBeUndefined();
  });

  it('keeps the URL exactly as sent', () => {
    expect(ok({}).url).toBe(URL);
  });

  it.each([
    undefined,
    '',
    'example.com',
    'ftp://example.com/a',
    'http://',
    'https://intranet/x',
    'javascript:alert(1)',
    42,
  ])('rejects url %p with "Invalid URL"', (url) => {
    const described = failure({ url });
    expect(described.message).toBe('Invalid URL');
    expect(described.isInvalidUrl).toBe(true);
  });

  it.each([
    'http://127.0.0.1:8080/',
    'https://[::1]/',
    'http://localhost:3000/a',
    'https://sub.example.co.uk/a?b=c#d',
    'HTTPS://EXAMPLE.COM',
  ])('accepts url %s', (url) => expect(sut.safeParse({ url }).success).toBe(true));

  it('rejects unknown keys with the documented message and details', () => {
    const described = failure({ url: URL, notAField: true });
    expect(described.message).toBe(UNRECOGNIZED_KEY_MESSAGE);
    expect(described.details[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['notAField'] });
  });

  it.each([
    [{ location: { country: 'US', foo: 1 } }, ['location']],
    [{ actions: [{ type: 'wait', milliseconds: 10, extra: 1 }] }, ['actions', 0]],
    [
      { actions: [{ type: 'screenshot', viewport: { width: 10, height: 10, depth: 1 } }] },
      ['actions', 0, 'viewport'],
    ],
    [{ formats: [{ type: 'screenshot', fullPage: true, zoom: 2 }] }, ['formats', 0]],
    [{ formats: [{ type: 'json', prompt: 'x', bogus: 1 }] }, ['formats', 0]],
    [{ profile: { name: 'p', foo: 1 } }, ['profile']],
    [{ redactPII: { mode: 'fast', foo: 1 } }, ['redactPII']],
    [{ parsers: [{ type: 'pdf', extra: true }] }, ['parsers', 0]],
    [{ parsers: [{ type: 'image', mode: 'ocr' }] }, ['parsers', 0]],
  ])('rejects an unknown nested key %j with the same message', (body, path) => {
    const described = failure({ url: URL, ...body });
    expect(described.message).toBe(UNRECOGNIZED_KEY_MESSAGE);
    expect(described.details).toEqual([expect.objectContaining({ code: 'unrecognized_keys', path })]);
  });

  it('puts an unknown nested key before an invalid URL', () => {
    expect(failure({ url: 'not a url', location: { foo: 1 } }).message).toBe(UNRECOGNIZED_KEY_MESSAGE);
  });

  it('accepts origin, integration and the SDK extras', () => {
    expect(
      ok({ origin: 'js-sdk@4.42.0', integration: '_custom', domainTools: true, toolDetail: { a: 1 } }),
    ).not.toHaveProperty('domainTools');
  });

  describe('timeout and waitFor', () => {
    it.each([999, 300_001, 1.5, '60000'])('rejects timeout %p', (timeout) =>
      expect(sut.safeParse({ url: URL, timeout }).success).toBe(false),
    );
    it.each([1_000, 300_000])('accepts timeout %p', (timeout) =>
      expect(ok({ timeout }).timeout).toBe(timeout),
    );
    it('requires waitFor to be at most half of timeout', () => {
      expect(failure({ url: URL, timeout: 10_000, waitFor: 5_001 }).message).toBe(
        'waitFor must not exceed half of timeout',
      );
      expect(ok({ timeout: 10_000, waitFor: 5_000 }).waitFor).toBe(5_000);
    });
    it('caps waitFor at 60 s and forbids negatives', () => {
      expect(sut.safeParse({ url: URL, timeout: 300_000, waitFor: 60_001 }).success).toBe(false);
      expect(sut.safeParse({ url: URL, waitFor: -1 }).success).toBe(false);
    });
  });

  describe('formats', () => {
    it('normalises string and object forms to the same shape', () => {
      expect(ok({ formats: ['markdown', 'html', 'links'] }).formats).toEqual(
        ok({ formats: [{ type: 'markdown' }, { type: 'html' }, { type: 'links' }] }).formats,
      );
    });
    it('rejects an unknown format type', () =>
      expect(sut.safeParse({ url: URL, formats: ['pdfText'] }).success).toBe(false));
    it('requires rawBase64 to be the only format', () => {
      expect(failure({ url: URL, formats: ['rawBase64', 'markdown'] }).message).toMatch(
        /rawBase64 must be the only/,
      );
      expect(ok({ formats: ['rawBase64'] }).formats).toEqual([{ type: 'rawBase64' }]);
    });
    it('requires markdown with changeTracking and fills its defaults', () => {
      expect(failure({ url: URL, formats: ['changeTracking'] }).message).toMatch(
        /requires the markdown format/,
      );
      expect(ok({ formats: ['markdown', 'changeTracking'] }).formats[1]).toEqual({
        type: 'changeTracking',
        modes: [],
        tag: null,
      });
    });
    it('allows one screenshot with bounded viewport and quality', () => {
      expect(
        failure({ url: URL, formats: ['screenshot', { type: 'screenshot', fullPage: true }] }).message,
      ).toMatch(/one screenshot/);
      expect(
        sut.safeParse({
          url: URL,
          formats: [{ type: 'screenshot', viewport: { width: 7_681, height: 100 } }],
        }).success,
      ).toBe(false);
      expect(
        sut.safeParse({
          url: URL,
          formats: [{ type: 'screenshot', viewport: { width: 100, height: 4_321 } }],
        }).success,
      ).toBe(false);
      expect(sut.safeParse({ url: URL, formats: [{ type: 'screenshot', quality: 0 }] }).success).toBe(false);
      expect(
        ok({ formats: [{ type: 'screenshot', quality: 100, viewport: { width: 7_680, height: 4_320 } }] })
          .formats[0],
      ).toMatchObject({ fullPage: false });
    });
    it('needs the object form for json and bounds prompts', () => {
      expect(failure({ url: URL, formats: ['json'] }).message).toMatch(/json format needs options/);
      expect(
        ok({ formats: [{ type: 'json', schema: { type: 'object', properties: { a: { type: 'string' } } } }] })
          .formats[0].type,
      ).toBe('json');
      expect(
        sut.safeParse({ url: URL, formats: [{ type: 'json', prompt: 'x'.repeat(10_001) }] }).success,
      ).toBe(false);
      expect(
        sut.safeParse({
          url: URL,
          formats: [{ type: 'json', schema: { type: 'object', additionalProperties: true } }],
        }).success,
      ).toBe(false);
    });

    it('needs a schema or a prompt for json and deterministicJson', () => {
      for (const type of ['json', 'deterministicJson']) {
        const described = failure({ url: URL, formats: [{ type }] });
        expect(described.message).toBe(`The ${type} format needs a schema or a prompt`);
        expect(described.details).toEqual([
          expect.objectContaining({ code: 'custom', path: ['formats', 0] }),
        ]);
        expect(failure({ url: URL, formats: [{ type, prompt: '  ' }] }).message).toBe(
          `The ${type} format needs a schema or a prompt`,
        );
        expect(ok({ formats: [{ type, prompt: 'the price' }] }).formats[0].type).toBe(type);
        expect(
          ok({ formats: [{ type, schema: { type: 'object', properties: { a: { type: 'string' } } } }] })
            .formats[0].type,
        ).toBe(type);
      }
    });
    it('bounds question and highlights to 1..10000 characters', () => {
      for (const format of [
        { type: 'question', question: '' },
        { type: 'question', question: 'x'.repeat(10_001) },
        { type: 'highlights', query: '' },
        { type: 'highlights', query: 'x'.repeat(10_001) },
      ]) {
        expect(sut.safeParse({ url: URL, formats: [format] }).success).toBe(false);
      }
      expect(
        ok({
          formats: [
            { type: 'question', question: 'Who?' },
            { type: 'highlights', query: 'pricing' },
          ],
        }).formats,
      ).toHaveLength(2);
    });
    it('forbids combining json and deterministicJson', () => {
      expect(
        sut.safeParse({
          url: URL,
          formats: [
            { type: 'json', prompt: 'a' },
            { type: 'deterministicJson', prompt: 'b' },
          ],
        }).success,
      ).toBe(false);
    });
  });

  describe('actions (docs/scraping.md#actions)', () => {
    it('accepts all nine types with defaults', () => {
      const actions = ok({
        actions: [
          { type: 'wait', milliseconds: 10 },
          { type: 'wait', selector: '#x' },
          { type: 'screenshot' },
          { type: 'click', selector: 'button' },
          { type: 'write', text: 'hello' },
          { type: 'press', key: 'Enter' },
          { type: 'scroll' },
          { type: 'scrape' },
          { type: 'executeJavascript', script: 'return 1' },
          { type: 'pdf' },
        ],
      }).actions;
      expect(actions?.[2]).toEqual({ type: 'screenshot', fullPage: false });
      expect(actions?.[3]).toEqual({ type: 'click', selector: 'button', all: false });
      expect(actions?.[6]).toEqual({ type: 'scroll', direction: 'down' });
      expect(actions?.[9]).toEqual({ type: 'pdf', format: 'Letter', landscape: false, scale: 1 });
    });
    it('accepts the selector of a write action (the reference MCP server sends it; the element is focused first)', () => {
      expect(ok({ actions: [{ type: 'write', selector: '#q', text: 'hi' }] }).actions).toEqual([
        { type: 'write', selector: '#q', text: 'hi' },
      ]);
      expect(
        sut.safeParse({ url: URL, actions: [{ type: 'write', selector: '', text: 'hi' }] }).success,
      ).toBe(false);
    });
    it.each([
      [{ type: 'wait' }],
      [{ type: 'wait', milliseconds: 0 }],
      [{ type: 'wait', milliseconds: 10, selector: '#a' }],
      [{ type: 'wait', milliseconds: 10, extra: 1 }],
      [{ type: 'click' }],
      [{ type: 'write' }],
      [{ type: 'write', text: 'x', target: '#q' }],
      [{ type: 'press' }],
      [{ type: 'scroll', direction: 'left' }],
      [{ type: 'screenshot', quality: 101 }],
      [{ type: 'screenshot', viewport: { width: 100 } }],
      [{ type: 'pdf', format: 'B5' }],
      [{ type: 'executeJavascript' }],
      [{ type: 'hover', selector: 'a' }],
    ])('rejects %j', (action) => expect(sut.safeParse({ url: URL, actions: [action] }).success).toBe(false));
    it('allows at most 50 actions and 60 s of total waiting', () => {
      expect(
        sut.safeParse({ url: URL, actions: Array.from({ length: 51 }, () => ({ type: 'scrape' })) }).success,
      ).toBe(false);
      expect(
        failure({ url: URL, waitFor: 10_000, actions: [{ type: 'wait', milliseconds: 50_001 }] }).message,
      ).toMatch(/Total wait/);
      expect(
        ok({
          actions: [
            { type: 'wait', milliseconds: 59_000 },
            { type: 'wait', selector: 'a' },
          ],
        }).actions,
      ).toHaveLength(2);
    });
  });

  describe('parsers (docs/documents.md#pdf-parsing)', () => {
    it('accepts the object form with defaults', () => {
      expect(ok({ parsers: [{ type: 'pdf' }] }).parsers).toEqual([
        { type: 'pdf', mode: 'auto', pages: false, blocks: false, pageMarkers: false },
      ]);
      expect(
        ok({ parsers: [{ type: 'pdf', mode: 'fast', maxPages: 10_000, pages: true }] }).parsers?.[0],
      ).toMatchObject({ mode: 'fast', maxPages: 10_000 });
      expect(ok({ parsers: [] }).parsers).toEqual([]);
    });
    it('accepts the string shorthand and the image parser the reference clients send', () => {
      // docs/compatibility.md: the reference service accepts them, and the JS SDK's own tests send "pdf".
      expect(ok({ parsers: ['pdf', 'image'] }).parsers).toEqual([
        { type: 'pdf', mode: 'auto', pages: false, blocks: false, pageMarkers: false },
        { type: 'image' },
      ]);
      expect(ok({ parsers: [{ type: 'image' }] }).parsers).toEqual([{ type: 'image' }]);
    });
    it.each([
      ['pdf:fast'],
      ['PDF'],
      ['docx'],
      [{ type: 'pdf', mode: 'turbo' }],
      [{ type: 'pdf', maxPages: 0 }],
      [{ type: 'pdf', maxPages: 10_001 }],
      [{ type: 'pdf', maxPages: -3 }],
      [{ type: 'pdf', pages: 'yes' }],
      [{ type: 'pdf', blocks: 1 }],
      [{ type: 'pdf', pageMarkers: null }],
    ])('rejects %j with 400 Bad Request and details', (parser) => {
      const described = failure({ url: URL, parsers: [parser] });
      expect(described.message).toBe('Bad Request');
      expect(described.details.length).toBeGreaterThan(0);
    });
  });

  describe('location, profile, proxy, redactPII', () => {
    it('validates the country pattern, normalises lower case and defaults it to US', () => {
      expect(ok({ location: {} }).location).toEqual({ country: 'US' });
      expect(ok({ location: { country: 'DE', languages: ['de-DE', 'en'] } }).location?.languages).toEqual([
        'de-DE',
        'en',
      ]);
      // The reference upper-cases the code, and its clients send "us", "de" (docs/compatibility.md).
      expect(ok({ location: { country: 'us' } }).location?.country).toBe('US');
      expect(ok({ location: { country: 'de' } }).location?.country).toBe('DE');
      for (const country of ['USA', 'us-generic', '12', ''])
        expect(sut.safeParse({ url: URL, location: { country } }).success).toBe(false);
    });
    it('bounds the profile name to 1..128 and defaults saveChanges', () => {
      expect(ok({ profile: { name: 'a' } }).profile).toEqual({ name: 'a', saveChanges: true });
      expect(sut.safeParse({ url: URL, profile: { name: '' } }).success).toBe(false);
      expect(sut.safeParse({ url: URL, profile: { name: 'x'.repeat(129) } }).success).toBe(false);
      expect(sut.safeParse({ url: URL, profile: { name: 'a', extra: 1 } }).success).toBe(false);
    });
    it('accepts basic, enhanced and auto proxies only', () => {
      for (const proxy of ['basic', 'enhanced', 'auto']) expect(ok({ proxy }).proxy).toBe(proxy);
      expect(sut.safeParse({ url: URL, proxy: 'stealth' }).success).toBe(false);
    });
    it('accepts redactPII as boolean or options object', () => {
      expect(ok({ redactPII: true }).redactPII).toBe(true);
      expect(ok({ redactPII: { entities: ['EMAIL'] } }).redactPII).toEqual({
        mode: 'accurate',
        entities: ['EMAIL'],
        replaceStyle: 'tag',
      });
      for (const redactPII of ['yes', 1, { entities: ['SSN'] }, { replaceStyle: 'blur' }]) {
        expect(sut.safeParse({ url: URL, redactPII }).success).toBe(false);
      }
    });
  });

  describe('headers', () => {
    it('refuses a header that cannot be sent, naming it', () => {
      expect(failure({ url: URL, headers: { 'X Bad': 'v' } })).toMatchObject({
        message:
          'Invalid header name "X Bad": a header name is a token (letters, digits and !#$%&\'*+-.^_`|~)',
        details: [{ path: ['headers', 'X Bad'] }],
      });
      expect(failure({ url: URL, headers: { ':authority': 'example.com' } }).message).toContain(
        '":authority"',
      );
      expect(failure({ url: URL, headers: { 'X-Split': 'a\r\nInjected: yes' } }).message).toBe(
        'Invalid value of header "X-Split": line breaks and NUL characters are not allowed',
      );
    });
    it('accepts connection headers (the engines drop them) and ordinary ones', () => {
      expect(
        ok({ headers: { Host: 'a.example', 'Content-Length': '1', Cookie: 'a=b', 'X-Empty': '' } }).headers,
      ).toEqual({
        Host: 'a.example',
        'Content-Length': '1',
        Cookie: 'a=b',
        'X-Empty': '',
      });
    });
  });

  describe('cache options', () => {
    it('forces storeInCache off with actions or headers', () => {
      expect(ok({ headers: { cookie: 'a=b' } }).storeInCache).toBe(false);
      expect(ok({ actions: [{ type: 'scrape' }] }).storeInCache).toBe(false);
      expect(ok({ actions: [] }).storeInCache).toBe(true);
    });
    it('makes lockdown zero data retention with a two-year maxAge', () => {
      const request = ok({ lockdown: true });
      expect(request.zeroDataRetention).toBe(true);
      expect(request.maxAge).toBe(LIMITS.lockdownMaxAgeMs);
      expect(ok({ lockdown: true, maxAge: 5 }).maxAge).toBe(5);
    });
    it('accepts minAge and changeTracking with lockdown (cache only, zero data retention)', () => {
      expect(ok({ lockdown: true, minAge: 60_000 })).toMatchObject({
        lockdown: true,
        minAge: 60_000,
        zeroDataRetention: true,
      });
      const tracked = ok({
        lockdown: true,
        formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }],
      });
      expect(tracked).toMatchObject({ lockdown: true, zeroDataRetention: true, storeInCache: false });
    });
    it('accepts minAge and maxAge as non-negative integers', () => {
      expect(ok({ minAge: 1, maxAge: 0 })).toMatchObject({ minAge: 1, maxAge: 0 });
      expect(sut.safeParse({ url: URL, minAge: -1 }).success).toBe(false);
      expect(sut.safeParse({ url: URL, maxAge: 1.5 }).success).toBe(false);
    });
  });
});
