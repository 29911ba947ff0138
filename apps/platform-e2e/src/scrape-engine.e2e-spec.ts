import {
  type ForwardProxy,
  SCRAPE_SITE,
  type ScrapeSite,
  startForwardProxy,
  startHttpsFixtureServer,
  startScrapeSite,
} from '@quarry/testing';

import { type ApiResponse, call } from './support/api-client';
import { type Platform, startCluster } from './support/platform';
import { type Body, ENV, MODES } from './support/scrape-engine-support';
import { createTeamKey, teamCredits } from './support/teams';

/**
 * The scrape engine end to end (support/scrape-engine-support.ts): engines, the outbound guard,
 * options and actions here; formats, cache and index, the SDK, profiles and concurrency in
 * scrape-engine-formats.e2e-spec.ts.
 */
describe.each(MODES)('scrape engine %s', (_mode, start) => {
  let site: ScrapeSite;
  let platform: Platform;
  const scrape = (body: Record<string, unknown>, apiKey = platform.apiKey): Promise<ApiResponse<Body>> =>
    call<Body>(platform.url(), 'POST', '/v2/scrape', { apiKey, body });
  /** Blob URLs carry PUBLIC_URL; the test services listen on random ports, so the path is fetched from the gateway. */
  const fetchBlob = (url: string) => {
    const parsed = new URL(url);
    return fetch(`${platform.url()}${parsed.pathname}${parsed.search}`);
  };

  beforeAll(async () => {
    site = await startScrapeSite();
    platform = await start();
  }, 240_000);

  afterAll(async () => {
    await platform?.stop();
    await site?.close();
  });

  describe('engines', () => {
    it('answers a server-rendered page over HTTP and a JavaScript page with the browser, saying so in metadata', async () => {
      const plain = await scrape({ url: `${site.url}/static`, maxAge: 0 });
      expect(plain.status).toBe(200);
      expect(plain.body.data.markdown).toContain(SCRAPE_SITE.staticMarker);
      expect(plain.body.data.metadata).toMatchObject({
        engine: 'http',
        statusCode: 200,
        cacheState: 'miss',
        proxyUsed: 'basic',
        concurrencyLimited: false,
      });
      expect(plain.body.data.metadata.engineFallback).toBeUndefined();

      const rendered = await scrape({ url: `${site.url}/js`, maxAge: 0 });
      expect(rendered.status).toBe(200);
      expect(rendered.body.data.markdown).toContain(SCRAPE_SITE.jsMarker);
      expect(rendered.body.data.metadata).toMatchObject({ engine: 'browser', title: 'Rendered title' });
      expect(rendered.body.data.metadata.engineFallback).toMatch(/^http → browser: /);
    });

    it('adds a top-level scrape_id when origin contains "website"', async () => {
      const website = await scrape({ url: `${site.url}/static`, origin: 'website-playground', maxAge: 0 });
      expect(website.status).toBe(200);
      expect(website.body.scrape_id).toEqual(expect.any(String));
      expect(website.body.scrape_id).toBe(website.body.data.metadata.scrapeId);
      const api = await scrape({ url: `${site.url}/static`, origin: 'js-sdk@4.42.0' });
      expect(api.status).toBe(200);
      expect(api.body).not.toHaveProperty('scrape_id');
    });

    it('makes mobile and location emulation visible to the page', async () => {
      const response = await scrape({
        url: `${site.url}/env`,
        mobile: true,
        location: { country: 'DE' },
        onlyMainContent: false,
      });
      const markdown: string = response.body.data.markdown;
      expect(markdown).toMatch(/ua=Mozilla\/5\.0 \(iPhone;.*Mobile\//);
      expect(markdown).toContain('width=393');
      expect(markdown).toContain('tz=Europe/Berlin');
      expect(markdown).toContain('languages=de-DE|de|en');
      expect(markdown).toMatch(/accept-language=de-DE,de;q=0\.9,en;q=0\.8/);
      expect(response.body.data.metadata.timezone).toBe('Europe/Berlin');

      const japan = await scrape({
        url: `${site.url}/env`,
        location: { country: 'JP', languages: ['ja-JP'] },
        onlyMainContent: false,
      });
      expect(japan.body.data.markdown).toContain('tz=Asia/Tokyo');
      expect(japan.body.data.markdown).toContain('languages=ja-JP');
      expect(japan.body.data.markdown).toContain('width=1440');
    });
  });

  describe('outbound guard', () => {
    it('refuses a redirect to a private address, over HTTP and in the browser', async () => {
      for (const extra of [{}, { waitFor: 10 }]) {
        const response = await scrape({ url: `${site.url}/redirect-private`, maxAge: 0, ...extra });
        expect(response.status).toBe(200);
        expect(response.body.data.metadata.statusCode).toBe(403);
        expect(response.body.data.metadata.error).toMatch(/^Blocked insecure target URL/);
        const metadata = await scrape({ url: `${site.url}/redirect-metadata`, maxAge: 0, ...extra });
        expect(metadata.body.data.metadata.statusCode).toBe(403);
      }
      expect(site.privateSite.hits.size).toBe(0);
    });

    it('answers a navigation refused after load like a refused redirect: 403, no credit, not cached, not indexed', async () => {
      const team = await createTeamKey(platform, { credits: 100 });
      for (const path of ['/meta-refresh-private', '/late-redirect-private']) {
        // twice: the second scrape is not answered from the cache
        for (let attempt = 0; attempt < 2; attempt += 1) {
          const response = await scrape({ url: `${site.url}${path}`, waitFor: 300 }, team.apiKey);
          expect(response.status).toBe(200);
          expect(response.body.data.metadata).toMatchObject({
            statusCode: 403,
            error: expect.stringMatching(/^Blocked insecure target URL: http:\/\/127\.0\.0\.2:\d+\/secret /),
            url: `${site.url}${path}`,
            creditsUsed: 0,
          });
          // never from the cache: the refusal was not stored as a page
          expect(response.body.data.metadata.cacheState).not.toBe('hit');
          expect(response.body.data.markdown ?? '').not.toContain('blocked');
        }
      }
      expect(await teamCredits(platform, team.name)).toBe(100);
      const search = await call<Body>(platform.url(), 'POST', '/v2/search', {
        apiKey: team.apiKey,
        body: { query: 'blocked Chromium' },
      });
      expect(search.status).toBe(200);
      expect(JSON.stringify(search.body)).not.toMatch(/chrome-error|refresh-private|redirect-private/);
      expect(site.privateSite.hits.size).toBe(0);
    });

    it('renders a page but refuses its sub-resources on private addresses', async () => {
      const response = await scrape({
        url: `${site.url}/subresource-private`,
        waitFor: 300,
        onlyMainContent: false,
        maxAge: 0,
      });
      expect(response.status).toBe(200);
      expect(response.body.data.metadata.statusCode).toBe(200);
      for (const probe of [0, 1, 2]) expect(response.body.data.markdown).toContain(`probe-${probe}: refused`);
      expect(site.privateSite.hits.size).toBe(0);
    });
  });

  describe('options', () => {
    it('blocks ad frames and cookie banners by default and keeps them with blockAds false', async () => {
      site.hits.delete('/ads/banner.html');
      const blocked = await scrape({
        url: `${site.url}/banner`,
        onlyMainContent: false,
        waitFor: 100,
        maxAge: 0,
      });
      expect(blocked.body.data.markdown).toContain('Article behind a banner');
      expect(blocked.body.data.markdown).not.toContain(SCRAPE_SITE.bannerMarker);
      expect(site.hits.get('/ads/banner.html') ?? 0).toBe(0);
      const open = await scrape({
        url: `${site.url}/banner`,
        onlyMainContent: false,
        waitFor: 100,
        blockAds: false,
        maxAge: 0,
      });
      expect(open.body.data.markdown).toContain(SCRAPE_SITE.bannerMarker);
      expect(site.hits.get('/ads/banner.html')).toBe(1);
    });

    it('replaces base64 images in markdown only, keeping their alt text', async () => {
      const response = await scrape({
        url: `${site.url}/base64`,
        formats: ['markdown', 'rawHtml', 'html'],
        maxAge: 0,
      });
      expect(response.body.data.markdown).toContain(`![${SCRAPE_SITE.base64Alt}](<Base64-Image-Removed>)`);
      expect(response.body.data.rawHtml).toContain('data:image/png;base64,');
      expect(response.body.data.html).toContain('data:image/png;base64,');
      const kept = await scrape({ url: `${site.url}/base64`, removeBase64Images: false, maxAge: 0 });
      expect(kept.body.data.markdown).toContain('data:image/png;base64,');
    });

    it('answers 408 Request Timeout when the whole job exceeds timeout, and keeps working after a hostile page', async () => {
      const slow = await scrape({ url: `${site.url}/slow`, timeout: 2_000, maxAge: 0 });
      expect(slow.status).toBe(408);
      expect(slow.body).toMatchObject({ success: false, error: 'Request Timeout', code: 'SCRAPE_TIMEOUT' });
      const hang = await scrape({ url: `${site.url}/hang`, timeout: 3_000, waitFor: 1, maxAge: 0 });
      expect(hang.status).toBe(408);
      const after = await scrape({ url: `${site.url}/js`, maxAge: 0 });
      expect(after.body.data.markdown).toContain(SCRAPE_SITE.jsMarker);
    });

    it('verifies the target certificate only with skipTlsVerification false, over HTTP and in the browser', async () => {
      const https = await startHttpsFixtureServer(
        '<html><body><main><h1>Secure page</h1><p>self signed content word</p></main></body></html>',
      );
      try {
        for (const extra of [{}, { waitFor: 1 }]) {
          const lenient = await scrape({ url: `${https.url}/tls`, maxAge: 0, ...extra });
          expect(lenient.status).toBe(200);
          expect(lenient.body.data.markdown).toContain('self signed content word');
          const strict = await scrape({
            url: `${https.url}/tls`,
            maxAge: 0,
            skipTlsVerification: false,
            ...extra,
          });
          expect(strict.status).toBe(500);
          expect(strict.body).toMatchObject({ success: false, code: 'SCRAPE_SSL_ERROR' });
        }
      } finally {
        await https.close();
      }
    });

    it('sends the request headers to the target from the browser engine', async () => {
      const response = await scrape({
        url: `${site.url}/env`,
        headers: { 'x-probe': 'from-the-caller' },
        waitFor: 1,
        onlyMainContent: false,
      });
      expect(response.status).toBe(200);
      expect(response.body.data.metadata.engine).toBe('browser');
      expect(response.body.data.markdown).toContain('x-probe=from-the-caller');
      // the page ran in the browser: the client-side probe filled in
      expect(response.body.data.markdown).toMatch(/ua=Mozilla\/5\.0/);
    });

    it('drops connection headers (Host, Content-Length…) in both engines, naming them, instead of hanging the browser', async () => {
      for (const extra of [{}, { waitFor: 1 }]) {
        const started = Date.now();
        const response = await scrape({
          url: `${site.url}/env`,
          headers: { Host: 'other.example', 'Content-Length': '12', 'x-probe': 'kept' },
          onlyMainContent: false,
          timeout: 30_000,
          ...extra,
        });
        expect(Date.now() - started).toBeLessThan(15_000);
        expect(response.status).toBe(200);
        expect(response.body.data.markdown).toContain('x-probe=kept');
        expect(response.body.data.warning).toContain('so they were not sent: Host, Content-Length.');
      }
      const invalid = await scrape({ url: `${site.url}/env`, headers: { 'X Bad': 'v' } });
      expect(invalid.status).toBe(400);
      expect(invalid.body.error).toContain('Invalid header name "X Bad"');
    });

    it('takes an action screenshot at the requested viewport', async () => {
      const response = await scrape({
        url: `${site.url}/static`,
        actions: [{ type: 'screenshot', viewport: { width: 640, height: 480 } }, { type: 'screenshot' }],
      });
      expect(response.status).toBe(200);
      const [small, normal] = await Promise.all(
        response.body.data.actions.screenshots.map(async (url: string) =>
          Buffer.from(await (await fetchBlob(url)).arrayBuffer()),
        ),
      );
      const size = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
      expect(small.subarray(1, 4).toString()).toBe('PNG');
      expect(size(small)).toEqual({ width: 640, height: 480 });
      // the viewport is restored after the screenshot
      expect(size(normal)).toEqual({ width: 1440, height: 900 });
    });

    it('returns screenshots, links and images', async () => {
      const response = await scrape({
        url: `${site.url}/branding`,
        formats: ['markdown', 'links', 'images', { type: 'screenshot', fullPage: true }],
        onlyMainContent: false,
        maxAge: 0,
      });
      const data = response.body.data;
      expect(data.links).toContain(`${site.url}/more`);
      expect(data.images).toContain(`${site.url}/images/logo.svg`);
      expect(data.screenshot).toMatch(/\/v2\/blobs\/screenshots\/.+\.png\?expires=\d+&signature=/);
      const expires = Number(new URL(data.screenshot).searchParams.get('expires'));
      expect(expires * 1000 - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
      expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);
      const image = await fetchBlob(data.screenshot);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await image.arrayBuffer());
      expect(png.subarray(1, 4).toString()).toBe('PNG');
    });

    it('keeps screenshots inline and stores nothing under zero data retention', async () => {
      const response = await scrape({
        url: `${site.url}/static`,
        formats: ['markdown', 'screenshot'],
        zeroDataRetention: true,
      });
      expect(response.status).toBe(200);
      expect(response.body.data.screenshot).toMatch(/^data:image\/png;base64,/);
      const again = await call<Body>(
        platform.url(),
        'GET',
        `/v2/scrape/${response.body.data.metadata.scrapeId}`,
        { apiKey: platform.apiKey },
      );
      expect(again.status).toBe(400);
      expect(again.body.code).toBe('SCRAPE_ZDR_VIOLATION_ERROR');
    });
  });

  describe('actions', () => {
    it('runs every action type and returns screenshots, scrapes, JavaScript returns and PDFs in action order', async () => {
      const response = await scrape({
        url: `${site.url}/actions`,
        onlyMainContent: false,
        actions: [
          { type: 'wait', milliseconds: 50 },
          { type: 'wait', selector: '#reveal' },
          { type: 'click', selector: '#reveal' },
          { type: 'click', selector: '.count', all: true },
          { type: 'click', selector: '#search' },
          { type: 'write', text: 'quarry e2e' },
          { type: 'press', key: 'Enter' },
          { type: 'scroll', direction: 'down' },
          { type: 'scroll', direction: 'down', selector: '#box' },
          { type: 'screenshot' },
          { type: 'executeJavascript', script: 'window.clicks' },
          { type: 'scrape' },
          { type: 'executeJavascript', script: 'return document.title' },
          { type: 'pdf', format: 'A5', landscape: false, scale: 1 },
          { type: 'screenshot', fullPage: true, quality: 60 },
        ],
      });
      expect(response.status).toBe(200);
      const data = response.body.data;
      expect(data.markdown).toContain(SCRAPE_SITE.clickMarker);
      expect(data.markdown).toContain('typed:quarry e2e');
      expect(data.markdown).toContain(SCRAPE_SITE.scrollMarker);
      expect(data.actions.javascriptReturns).toEqual([
        { type: 'number', value: 2 },
        { type: 'string', value: 'Actions' },
      ]);
      expect(data.actions.scrapes).toHaveLength(1);
      expect(data.actions.scrapes[0]).toMatchObject({ url: `${site.url}/actions` });
      expect(data.actions.scrapes[0].html).toContain('typed:quarry e2e');
      expect(data.actions.screenshots).toHaveLength(2);
      const [png, jpeg] = await Promise.all(data.actions.screenshots.map((url: string) => fetchBlob(url)));
      expect(png.headers.get('content-type')).toBe('image/png');
      expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
      expect(data.actions.pdfs).toHaveLength(1);
      const pdf = await fetchBlob(data.actions.pdfs[0]);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
      expect(data.metadata.engine).toBe('browser');
    });

    it('reports a failing action in the error shape and validates action shapes', async () => {
      const failing = await scrape({
        url: `${site.url}/actions`,
        actions: [{ type: 'click', selector: '#not-there' }],
      });
      expect(failing.status).toBe(500);
      expect(failing.body).toMatchObject({
        success: false,
        code: 'SCRAPE_ACTION_ERROR',
        error: expect.stringContaining('Action 1 (click)'),
      });
      const invalid = await scrape({
        url: `${site.url}/actions`,
        actions: [{ type: 'wait', milliseconds: 10, selector: '#x' }],
      });
      expect(invalid.status).toBe(400);
      const empty = await scrape({ url: `${site.url}/static`, actions: [] });
      expect(empty.status).toBe(200);
      expect(empty.body.data.actions).toEqual({
        screenshots: [],
        scrapes: [],
        javascriptReturns: [],
        pdfs: [],
      });
    });
  });
});

describe('proxy pools through Kafka', () => {
  let site: ScrapeSite;
  let basic: ForwardProxy;
  let enhanced: ForwardProxy;
  let germany: ForwardProxy;
  let platform: Platform;
  const scrape = (body: Record<string, unknown>): Promise<ApiResponse<Body>> =>
    call<Body>(platform.url(), 'POST', '/v2/scrape', { apiKey: platform.apiKey, body });

  beforeAll(async () => {
    site = await startScrapeSite();
    // The basic pool's exit is blocked (403 to everything); the enhanced pool works.
    basic = await startForwardProxy({ refuse: true });
    enhanced = await startForwardProxy();
    germany = await startForwardProxy();
    platform = await startCluster({
      gateways: 1,
      workers: 1,
      env: {
        ...ENV,
        PROXY_BASIC_URLS: basic.url,
        PROXY_ENHANCED_URLS: enhanced.url,
        PROXY_COUNTRY_URLS: `DE=${germany.url}`,
      },
    });
  }, 240_000);

  afterAll(async () => {
    await platform?.stop();
    await Promise.all([basic?.close(), enhanced?.close(), germany?.close(), site?.close()]);
  });

  it('retries proxy auto on the enhanced pool when the basic pool refuses, over HTTP and in the browser', async () => {
    for (const extra of [{}, { waitFor: 1 }]) {
      const basicBefore = basic.hits;
      const enhancedBefore = enhanced.hits;
      const response = await scrape({ url: `${site.url}/static`, maxAge: 0, ...extra });
      expect(response.status).toBe(200);
      expect(response.body.data.markdown).toContain(SCRAPE_SITE.staticMarker);
      expect(response.body.data.metadata).toMatchObject({
        engine: 'waitFor' in extra ? 'browser' : 'http',
        proxyUsed: 'stealth',
        statusCode: 200,
      });
      expect(basic.hits).toBeGreaterThan(basicBefore);
      expect(enhanced.hits).toBeGreaterThan(enhancedBefore);
    }
    expect(enhanced.requests.some((target) => target.includes(`127.0.0.1:${site.port}`))).toBe(true);

    // proxy basic stays on the basic pool: the refusal is the answer
    const enhancedBefore = enhanced.hits;
    const pinned = await scrape({ url: `${site.url}/static`, maxAge: 0, proxy: 'basic', waitFor: 1 });
    expect(pinned.status).toBe(200);
    expect(pinned.body.data.metadata).toMatchObject({ proxyUsed: 'basic', statusCode: 403 });
    expect(enhanced.hits).toBe(enhancedBefore);
  });

  it('exits through the pool of location.country when one is configured, in place of the basic pool', async () => {
    const basicBefore = basic.hits;
    const enhancedBefore = enhanced.hits;
    const germanyBefore = germany.hits;
    const response = await scrape({
      url: `${site.url}/static`,
      maxAge: 0,
      proxy: 'basic',
      location: { country: 'DE', languages: ['de-DE'] },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.markdown).toContain(SCRAPE_SITE.staticMarker);
    expect(response.body.data.metadata).toMatchObject({ proxyUsed: 'basic', statusCode: 200 });
    expect(germany.hits).toBeGreaterThan(germanyBefore);
    expect(germany.requests.some((target) => target.includes(`127.0.0.1:${site.port}`))).toBe(true);
    expect(basic.hits).toBe(basicBefore);
    expect(enhanced.hits).toBe(enhancedBefore);
    // another country has no pool: the basic pool (which refuses here)
    const france = await scrape({
      url: `${site.url}/static`,
      maxAge: 0,
      proxy: 'basic',
      location: { country: 'FR' },
    });
    expect(france.body.data.metadata).toMatchObject({ statusCode: 403 });
    expect(basic.hits).toBeGreaterThan(basicBefore);
  });
});
