import Firecrawl from '@mendable/firecrawl-js';
import {
  SCRAPE_SITE,
  startForwardProxy,
  startHttpsFixtureServer,
  startScrapeSite,
  type ForwardProxy,
  type ScrapeSite,
} from '@quarry/testing';
import { call, type ApiResponse } from './support/api-client';
import { startCluster, startStandalone, type Platform } from './support/platform';
import { createTeamKey, holdBrowserSlot, teamCredits } from './support/teams';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted member by member */
type Body = Record<string, any>;

/**
 * The scrape engine end to end, on real Chromium and fixture pages on 127.0.0.1, through Kafka
 * (gateway and two workers as separate processes) and in one-process mode. 127.0.0.1 is allowed as
 * if public (OUTBOUND_ALLOWLIST); 127.0.0.2, 10/8 and 169.254/16 stay private and must be refused.
 */
const ENV = {
  ALLOW_PRIVATE_NETWORKS: 'false',
  OUTBOUND_ALLOWLIST: '127.0.0.1',
  BROWSER_CONCURRENCY: '2',
  TEAM_CONCURRENCY_LIMIT: '4',
  BROWSER_SETTLE_MS: '1500',
};

const MODES: [string, () => Promise<Platform>][] = [
  ['through Kafka (gateway + 2 workers)', () => startCluster({ gateways: 1, workers: 2, env: ENV })],
  ['in one process', () => startStandalone(ENV)],
];

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

  describe('formats', () => {
    it('extracts products with variants from JSON-LD, and null where there is none', async () => {
      const response = await scrape({ url: `${site.url}/product`, formats: ['product'], maxAge: 0 });
      const product = response.body.data.product;
      expect(product).toMatchObject({
        title: 'Trail Runner 2',
        brand: 'Peakfoot',
        category: 'Shoes > Trail',
        url: `${site.url}/product`,
      });
      expect(product.variants).toEqual([
        expect.objectContaining({
          sku: 'TR2-RED-42',
          values: { color: 'Red', size: '42' },
          price: expect.objectContaining({ amount: 89.9, currency: 'EUR' }),
          sale: { originalPrice: expect.objectContaining({ amount: 119.9 }) },
          availability: { inStock: true, text: 'In stock' },
          images: [{ url: `${site.url}/img/red.jpg` }],
        }),
        expect.objectContaining({
          sku: 'TR2-BLU-43',
          availability: { inStock: false, text: 'Out of stock' },
        }),
      ]);
      const none = await scrape({
        url: `${site.url}/static`,
        formats: ['markdown', 'product', 'menu'],
        maxAge: 0,
      });
      expect(none.body.data.product).toBeNull();
      expect(none.body.data.menu).toBeNull();
    });

    it('extracts menus from schema.org data and from the page layout', async () => {
      const structured = await scrape({ url: `${site.url}/menu`, formats: ['menu'], maxAge: 0 });
      expect(structured.body.data.menu).toMatchObject({
        isMenu: true,
        merchant: { name: 'Trattoria Roma', type: 'Restaurant' },
        currency: 'EUR',
      });
      expect(structured.body.data.menu.sections.map((section: Body) => section.name)).toEqual([
        'Antipasti',
        'Pasta',
      ]);
      expect(structured.body.data.menu.sections[0].items[0]).toMatchObject({
        name: 'Bruschetta',
        price: { amount: 7.5, currency: 'EUR' },
        dietary: ['vegan'],
      });
      const layout = await scrape({ url: `${site.url}/menu-dom`, formats: ['menu'], maxAge: 0 });
      expect(layout.body.data.menu.currency).toBe('GBP');
      expect(layout.body.data.menu.sections.map((section: Body) => section.items.length)).toEqual([2, 2]);
    });

    it('reads branding in the browser', async () => {
      const response = await scrape({ url: `${site.url}/branding`, formats: ['branding'], maxAge: 0 });
      expect(response.body.data.branding).toMatchObject({
        colorScheme: 'light',
        logo: `${site.url}/images/logo.svg`,
        colors: { primary: '#FF5A1F', background: '#FFFFFF', link: '#2563EB' },
        images: { favicon: `${site.url}/favicon.ico`, ogImage: `${site.url}/images/og.png` },
      });
      expect(response.body.data.metadata.engine).toBe('browser');
    });

    it('tracks changes per team, URL and tag: new, same, changed with a diff, json values, removed', async () => {
      const url = `${site.url}/changing`;
      const schema = {
        type: 'object',
        properties: { price: { type: 'number' }, name: { type: 'string' }, mood: { type: 'string' } },
      };
      const format = { type: 'changeTracking', modes: ['git-diff', 'json'], schema, tag: null };
      const withPrice = (price: number, text: string) =>
        `<h1>Lamp</h1><p>${text}</p><script type="application/ld+json">{"@type":"Product","name":"Lamp","offers":{"price":"${price}","priceCurrency":"EUR"}}</script>`;
      site.changing.body = withPrice(10, 'The first version of this page.');
      site.changing.status = 200;
      const first = await scrape({ url, formats: ['markdown', format] });
      expect(first.body.data.changeTracking).toMatchObject({
        changeStatus: 'new',
        previousScrapeAt: null,
        visibility: 'visible',
        diff: null,
        json: null,
      });

      const same = await scrape({ url, formats: ['markdown', format] });
      expect(same.body.data.changeTracking).toMatchObject({ changeStatus: 'same', diff: null });
      expect(Date.parse(same.body.data.changeTracking.previousScrapeAt)).toBeGreaterThan(
        Date.now() - 120_000,
      );

      site.changing.body = withPrice(12, 'The second version of this page.');
      const changed = await scrape({ url, formats: ['markdown', format] });
      const tracking = changed.body.data.changeTracking;
      expect(tracking.changeStatus).toBe('changed');
      expect(tracking.diff).toContain('-The first version of this page.');
      expect(tracking.diff).toContain('+The second version of this page.');
      expect(tracking.diff).toMatch(/^diff --git a\//);
      expect(tracking.json).toEqual({
        price: { previous: 10, current: 12 },
        name: { previous: 'Lamp', current: 'Lamp' },
      });
      expect(changed.body.data.warning).toMatch(/mood could not be read .* language model/);

      const taggedA = await scrape({ url, formats: ['markdown', { type: 'changeTracking', tag: 'A' }] });
      const taggedB = await scrape({ url, formats: ['markdown', { type: 'changeTracking', tag: 'B' }] });
      const taggedAgain = await scrape({ url, formats: ['markdown', { type: 'changeTracking', tag: 'A' }] });
      expect(
        [taggedA, taggedB, taggedAgain].map((response) => response.body.data.changeTracking.changeStatus),
      ).toEqual(['new', 'new', 'same']);

      const otherTeam = await createTeamKey(platform);
      const isolated = await scrape({ url, formats: ['markdown', format] }, otherTeam.apiKey);
      expect(isolated.body.data.changeTracking.changeStatus).toBe('new');

      site.changing.status = 404;
      const removed = await scrape({ url, formats: ['markdown', format] });
      expect(removed.body.data.changeTracking.changeStatus).toBe('removed');
      site.changing.status = 200;
      const back = await scrape({ url, formats: ['markdown', format] });
      expect(back.body.data.changeTracking.changeStatus).toBe('new');
    });
  });

  describe('cache and index', () => {
    it('answers a repeated scrape from the cache at the gateway, without contacting the target', async () => {
      const url = `${site.url}/static?cache=${Date.now()}`;
      const first = await scrape({ url });
      expect(first.body.data.metadata.cacheState).toBe('miss');
      const hitsBefore = site.hits.get('/static');
      const started = Date.now();
      const second = await scrape({ url });
      const elapsed = Date.now() - started;
      expect(second.status).toBe(200);
      expect(second.body.data.metadata).toMatchObject({ cacheState: 'hit', sourceURL: url, creditsUsed: 1 });
      expect(Date.parse(second.body.data.metadata.cachedAt)).toBeLessThanOrEqual(Date.now());
      expect(second.body.data.metadata.scrapeId).not.toBe(first.body.data.metadata.scrapeId);
      expect(second.body.data.markdown).toBe(first.body.data.markdown);
      expect(site.hits.get('/static')).toBe(hitsBefore);
      expect(elapsed).toBeLessThan(1_000);
      const byId = await call<Body>(
        platform.url(),
        'GET',
        `/v2/scrape/${second.body.data.metadata.scrapeId}`,
        { apiKey: platform.apiKey },
      );
      expect(byId.body.data.metadata.cacheState).toBe('hit');

      // options that change the content are part of the key; maxAge 0 always scrapes
      const otherOptions = await scrape({ url, onlyMainContent: false });
      expect(otherOptions.body.data.metadata.cacheState).toBe('miss');
      const fresh = await scrape({ url, maxAge: 0 });
      expect(fresh.body.data.metadata.cacheState).toBe('miss');
      // another team never sees this team's cache
      const otherTeam = await createTeamKey(platform);
      const isolated = await scrape({ url }, otherTeam.apiKey);
      expect(isolated.body.data.metadata.cacheState).toBe('miss');
    });

    it('never stores requests with headers, actions or storeInCache false', async () => {
      const url = `${site.url}/static?sensitive=${Date.now()}`;
      await scrape({ url, headers: { 'x-probe': 'secret' } });
      await scrape({ url, storeInCache: false });
      const probe = await scrape({ url, minAge: 1 });
      expect(probe.status).toBe(404);
      expect(probe.body).toMatchObject({ success: false, code: 'SCRAPE_NO_CACHED_DATA' });

      // actions force storeInCache off: the same request twice reaches the target twice
      const withActions = {
        url: `${site.url}/static?actions=${Date.now()}`,
        actions: [{ type: 'wait', milliseconds: 1 }],
      };
      const first = await scrape(withActions);
      const hitsBetween = site.hits.get('/static') ?? 0;
      const second = await scrape(withActions);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.body.data.metadata.cacheState).toBe('miss');
      expect(site.hits.get('/static') ?? 0).toBeGreaterThan(hitsBetween);
      const stored = await scrape({ url: withActions.url, minAge: 1 });
      expect(stored.status).toBe(404);
    });

    it('answers minAge from the cache only: 404 SCRAPE_NO_CACHED_DATA on a miss', async () => {
      const url = `${site.url}/static?minage=${Date.now()}`;
      const hitsBefore = site.hits.get('/static') ?? 0;
      const miss = await scrape({ url, minAge: 1 });
      expect(miss.status).toBe(404);
      expect(miss.body).toMatchObject({ success: false, code: 'SCRAPE_NO_CACHED_DATA' });
      expect(site.hits.get('/static') ?? 0).toBe(hitsBefore);
      await scrape({ url });
      const hit = await scrape({ url, minAge: 1 });
      expect(hit.body.data.metadata.cacheState).toBe('hit');
      const tooYoung = await scrape({ url, minAge: 3_600_000 });
      expect(tooYoung.status).toBe(404);
    });

    it('answers lockdown from the cache only, never contacting the target, billing 5 on a hit and 1 on a miss', async () => {
      const url = `${site.url}/static?lockdown=${Date.now()}`;
      const hitsBefore = site.hits.get('/static') ?? 0;
      const creditsBefore = await teamCredits(platform);
      const miss = await scrape({ url, lockdown: true });
      expect(miss.status).toBe(404);
      expect(miss.body).toMatchObject({ success: false, code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
      expect(site.hits.get('/static') ?? 0).toBe(hitsBefore);
      expect(await teamCredits(platform)).toBe(creditsBefore - 1);

      await scrape({ url });
      const afterScrape = await teamCredits(platform);
      const hit = await scrape({ url, lockdown: true });
      expect(hit.status).toBe(200);
      expect(hit.body.data.metadata).toMatchObject({ cacheState: 'hit', creditsUsed: 5 });
      expect(await teamCredits(platform)).toBe(afterScrape - 5);
      expect(site.hits.get('/static')).toBe(hitsBefore + 1);
    });
    it('combines lockdown with minAge and with changeTracking, from the cache only', async () => {
      const url = `${site.url}/static?lockdown-minage=${Date.now()}`;
      const miss = await scrape({ url, lockdown: true, minAge: 1 });
      expect(miss.status).toBe(404);
      expect(miss.body).toMatchObject({ success: false, code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
      await scrape({ url });
      const hitsBefore = site.hits.get('/static') ?? 0;
      const tooYoung = await scrape({ url, lockdown: true, minAge: 3_600_000 });
      expect(tooYoung.status).toBe(404);
      expect(tooYoung.body.code).toBe('SCRAPE_LOCKDOWN_CACHE_MISS');
      const hit = await scrape({ url, lockdown: true, minAge: 1 });
      expect(hit.status).toBe(200);
      expect(hit.body.data.metadata).toMatchObject({ cacheState: 'hit', creditsUsed: 5 });

      const tracked = `${site.url}/static?lockdown-tracking=${Date.now()}`;
      const formats = ['markdown', { type: 'changeTracking', modes: ['git-diff'] }];
      const first = await scrape({ url: tracked, formats });
      expect(first.body.data.changeTracking.changeStatus).toBe('new');
      await scrape({ url: tracked });
      const fromCache = await scrape({ url: tracked, formats, lockdown: true });
      expect(fromCache.status).toBe(200);
      expect(fromCache.body.data.metadata.cacheState).toBe('hit');
      expect(fromCache.body.data.changeTracking).toEqual({
        previousScrapeAt: expect.any(String),
        changeStatus: 'same',
        visibility: 'visible',
        diff: null,
      });
      expect(site.hits.get('/static')).toBe(hitsBefore + 2);
    });
  });

  describe('official SDK', () => {
    it('scrapes with actions, a screenshot and change tracking through @mendable/firecrawl-js, and raises the cache-only 404s', async () => {
      const sdk = new Firecrawl({ apiKey: platform.apiKey, apiUrl: platform.url() });
      const document = await sdk.scrape(`${site.url}/actions`, {
        formats: ['markdown', 'screenshot', { type: 'changeTracking', modes: ['git-diff'] }],
        actions: [
          { type: 'click', selector: '#reveal' },
          { type: 'executeJavascript', script: 'document.title' },
        ],
        onlyMainContent: false,
      });
      expect(document.markdown).toContain(SCRAPE_SITE.clickMarker);
      expect(document.actions?.javascriptReturns).toEqual([{ type: 'string', value: 'Actions' }]);
      expect(document.screenshot).toContain('/v2/blobs/screenshots/');
      expect(document.changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null });
      expect(document.metadata?.engine).toBe('browser');

      await expect(
        sdk.scrape(`${site.url}/static?sdk-lockdown=${Date.now()}`, { lockdown: true }),
      ).rejects.toMatchObject({ status: 404, code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
      await expect(
        sdk.scrape(`${site.url}/static?sdk-minage=${Date.now()}`, { minAge: 1 }),
      ).rejects.toMatchObject({ status: 404, code: 'SCRAPE_NO_CACHED_DATA' });
    });
  });

  describe('profiles and concurrency', () => {
    it('keeps cookies and localStorage in a named profile; contexts are otherwise isolated', async () => {
      const name = `shop-${Date.now()}`;
      const saved = await scrape({ url: `${site.url}/cookies/set`, profile: { name } });
      expect(saved.status).toBe(200);
      const loaded = await scrape({
        url: `${site.url}/cookies/show`,
        profile: { name, saveChanges: false },
        onlyMainContent: false,
      });
      expect(loaded.body.data.markdown).toContain('cookie=session=profile-cookie-value');
      expect(loaded.body.data.markdown).toContain('storage=stored-in-local-storage');
      const anonymous = await scrape({
        url: `${site.url}/cookies/show`,
        waitFor: 1,
        onlyMainContent: false,
        maxAge: 0,
      });
      expect(anonymous.body.data.markdown).toContain('cookie=none');
      expect(anonymous.body.data.markdown).toContain('storage=none');
      const otherTeam = await createTeamKey(platform);
      const foreign = await scrape(
        { url: `${site.url}/cookies/show`, profile: { name, saveChanges: false }, onlyMainContent: false },
        otherTeam.apiKey,
      );
      expect(foreign.body.data.markdown).toContain('cookie=none');
    });

    it('allows one saving session per profile at a time (409)', async () => {
      const name = `busy-${Date.now()}`;
      const first = scrape({ url: `${site.url}/static`, profile: { name }, waitFor: 2_500 });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const second = await scrape({ url: `${site.url}/static`, profile: { name } });
      expect(second.status).toBe(409);
      expect(second.body).toEqual({
        success: false,
        error: 'Conflict',
        code: 'SCRAPE_PROFILE_LOCKED',
        details: { message: expect.stringContaining(`Profile "${name}" is being saved by another session`) },
      });
      const reader = await scrape({ url: `${site.url}/static`, profile: { name, saveChanges: false } });
      expect(reader.status).toBe(200);
      expect((await first).status).toBe(200);
      const after = await scrape({ url: `${site.url}/static`, profile: { name } });
      expect(after.status).toBe(200);
    });

    it('queues browser scrapes over the team limit and reports it, or answers 429 when the wait would exceed the timeout', async () => {
      const team = await createTeamKey(platform, { concurrency: 1 });
      const slowBody = { url: `${site.url}/static`, waitFor: 2_000, maxAge: 0 };
      let a: ApiResponse<Body>;
      let b: ApiResponse<Body>;
      if (platform.database) {
        // Through Kafka, a worker takes its next job only once its current fetch is done, so two
        // requests may meet on one worker one after the other: the slot is held as another worker would.
        const release = await holdBrowserSlot(platform, team.name, 60_000);
        setTimeout(() => void release(), 2_500);
        a = await scrape({ ...slowBody, waitFor: 1 }, team.apiKey);
        b = await scrape({ ...slowBody, waitFor: 1 }, team.apiKey);
      } else {
        [a, b] = await Promise.all([scrape(slowBody, team.apiKey), scrape(slowBody, team.apiKey)]);
      }
      expect([a.status, b.status]).toEqual([200, 200]);
      const limited = [a, b]
        .map((response) => response.body.data.metadata)
        .filter((metadata) => metadata.concurrencyLimited);
      expect(limited).toHaveLength(1);
      expect(limited[0].concurrencyQueueDurationMs).toBeGreaterThan(1_000);
      const free = [a, b]
        .map((response) => response.body.data.metadata)
        .find((metadata) => !metadata.concurrencyLimited);
      expect(free.concurrencyQueueDurationMs).toBeUndefined();

      const long = platform.database
        ? holdBrowserSlot(platform, team.name, 10_000).then(async (release) => ({ release }))
        : scrape({ url: `${site.url}/static`, waitFor: 5_000, timeout: 20_000, maxAge: 0 }, team.apiKey).then(
            (response) => ({ response }),
          );
      await new Promise((resolve) => setTimeout(resolve, 800));
      // The rejected job would save a profile: it never opened it, and its end frees the lock.
      const lockName = `rejected-${Date.now()}`;
      const rejected = await scrape(
        { url: `${site.url}/static`, waitFor: 1, timeout: 2_000, maxAge: 0, profile: { name: lockName } },
        team.apiKey,
      );
      expect(rejected.status).toBe(429);
      expect(rejected.body).toMatchObject({ success: false, error: 'Concurrency limit reached' });
      // The worker's Retry-After reaches the client through the job event.
      expect(rejected.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      const held = await long;
      if ('release' in held) await held.release();
      else expect(held.response.status).toBe(200);
      const saver = await scrape(
        { url: `${site.url}/static`, profile: { name: lockName }, maxAge: 0 },
        team.apiKey,
      );
      expect(saver.status).toBe(200);
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
