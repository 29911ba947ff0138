import type { ScrapeRequest, ScrapeRequestInput } from '@quarry/contracts';
import { AddressPolicy, BlockedAddressError, GuardedHttpClient } from '@quarry/platform/net';
import { InlineContentTransformer } from '@quarry/scrape/content';
import { buildDocument, HttpEngine } from '@quarry/scrape/engine';
import {
  SCRAPE_SITE,
  type ScrapeSite,
  startForwardProxy,
  startHttpsFixtureServer,
  startScrapeSite,
} from '@quarry/testing';

import { BrowserPool } from '../pool/browser-pool';
import { BrowserEngine } from './browser.engine';
import { type BrowserEngineKit, startBrowserEngineKit } from './browser-engine.test-kit';
import { ProxyPools } from './proxy-pools';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
jest.setTimeout(60_000);

describe('BrowserEngine on real Chromium', () => {
  let site: ScrapeSite;
  let kit: BrowserEngineKit;
  let pool: BrowserPool;
  let client: GuardedHttpClient;

  const request = (input: Partial<ScrapeRequestInput> & { url: string }): ScrapeRequest => kit.request(input);
  const fetchPage = (input: Partial<ScrapeRequestInput> & { url: string }, timeoutMs = 30_000) =>
    kit.fetchPage(input, timeoutMs);

  beforeAll(async () => {
    site = await startScrapeSite();
    kit = await startBrowserEngineKit({ chromiumPath: CHROMIUM, settleMs: 2_000 });
    ({ pool, client } = kit);
  });

  afterAll(async () => {
    await kit?.close();
    await site?.close();
  });

  it('answers a static page over HTTP without starting the browser', async () => {
    const page = await fetchPage({ url: `${site.url}/static` });
    expect(page.engine).toBe('http');
    expect(page.metadata?.engine).toBe('http');
    expect(page.body.toString()).toContain(SCRAPE_SITE.staticMarker);
  });

  it('falls back to the browser for a page that needs JavaScript and says so in metadata', async () => {
    const page = await fetchPage({ url: `${site.url}/js` });
    expect(page.engine).toBe('browser');
    expect(page.metadata?.engineFallback).toMatch(/http → browser: .*JavaScript/);
    expect(page.text).toContain(SCRAPE_SITE.jsMarker);
  });

  it('encodes the HTTP response body as rawBase64, never the rendered DOM', async () => {
    const rawOf = async (
      input: Partial<ScrapeRequestInput> & { url: string },
      page: Awaited<ReturnType<typeof fetchPage>>,
    ) => {
      const document = await buildDocument(
        page,
        request(input),
        'job',
        new InlineContentTransformer(),
        Date.now() + 10_000,
      );
      return Buffer.from(document.rawBase64 ?? '', 'base64').toString('utf8');
    };
    // A page that needs JavaScript: no fallback to the browser, the bytes the server sent.
    const plain = { url: `${site.url}/js`, formats: ['rawBase64' as const] };
    const viaHttp = await fetchPage(plain);
    expect(viaHttp.engine).toBe('http');
    expect(await rawOf(plain, viaHttp)).toContain('<div id="root"></div>');
    // A browser feature renders the page; rawBase64 is still the response the browser received.
    const rendered = { ...plain, waitFor: 200 };
    const viaBrowser = await fetchPage(rendered);
    expect(viaBrowser.engine).toBe('browser');
    expect(viaBrowser.text).toContain(SCRAPE_SITE.jsMarker);
    expect(viaBrowser.text).not.toContain('<div id="root"></div>');
    const raw = await rawOf(rendered, viaBrowser);
    expect(raw).toContain('<div id="root"></div>');
    expect(raw).toBe(viaHttp.body.toString('utf8'));
  });

  it('refuses a redirect to a private address in the browser', async () => {
    await expect(fetchPage({ url: `${site.url}/redirect-private`, waitFor: 10 })).rejects.toBeInstanceOf(
      BlockedAddressError,
    );
    await expect(fetchPage({ url: `${site.url}/redirect-metadata`, waitFor: 10 })).rejects.toBeInstanceOf(
      BlockedAddressError,
    );
    expect(site.privateSite.hits.size).toBe(0);
  });

  it('answers a page that moved to an address the browser would not load as an error, not as its error page', async () => {
    // An ad-serving path (blockAds): aborted by the browser without a refused target, so the tab shows chrome-error://.
    const to = encodeURIComponent(`${site.url}/ads/banner.html`);
    await expect(fetchPage({ url: `${site.url}/navigate-to?to=${to}`, waitFor: 300 })).rejects.toMatchObject({
      name: 'BrowserErrorPageError',
    });
  });

  it('loads the page but refuses every sub-resource on private addresses', async () => {
    const page = await fetchPage({ url: `${site.url}/subresource-private`, waitFor: 200 });
    expect(page.status).toBe(200);
    for (const probe of [0, 1, 2]) expect(page.text).toContain(`probe-${probe}: refused`);
    expect(page.text).not.toMatch(/probe-\d: reached/);
    expect(site.privateSite.hits.size).toBe(0);
  });

  it.each([
    ['a script while the page loads', '/js-redirect-private'],
    ['a meta refresh', '/meta-refresh-private'],
    ['a meta refresh to the metadata address', '/meta-refresh-metadata'],
    ['a script after load', '/late-redirect-private'],
    ['window.open into the same tab', '/open-self-private'],
  ])(
    'refuses a navigation started by %s as a blocked target, never as the browser error page',
    async (_how, path) => {
      const refused = await fetchPage({ url: `${site.url}${path}`, waitFor: 500 }).then(
        (page) => ({ page: { url: page.url, status: page.status } }),
        (error: unknown) => ({ error }),
      );
      expect(refused).toEqual({ error: expect.any(BlockedAddressError) });
      expect((refused as { error: Error }).error.message).toMatch(/^Blocked insecure target URL: /);
      expect(site.privateSite.hits.size).toBe(0);
    },
  );

  it('reaches the private site when private networks are allowed (the refusals above are the guard, not the fixture)', async () => {
    const open = new AddressPolicy(true);
    const openPool = await BrowserPool.launch({
      executablePath: CHROMIUM,
      concurrency: 1,
      policy: open,
      maxTransferBytes: 16 * 1024 * 1024,
    });
    try {
      const engine = new BrowserEngine({
        http: new HttpEngine(
          new GuardedHttpClient(open, { userAgent: 'QuarryTest/1.0', maxBytes: 5 * 1024 * 1024 }),
        ),
        pool: openPool,
        proxies: new ProxyPools({ basic: [], enhanced: [] }),
        settings: { teamConcurrency: 2, settleMs: 2_000, maxDocumentBytes: 5 * 1024 * 1024 },
      });
      const page = await engine.fetch(request({ url: `${site.url}/subresource-private`, waitFor: 200 }), {
        jobId: 'j',
        signal: AbortSignal.timeout(30_000),
        timeoutMs: 30_000,
      });
      expect(page.text).toContain('probe-0: reached');
      expect(site.privateSite.hits.get('/pixel.png')).toBe(1);
    } finally {
      await openPool.close();
      site.privateSite.hits.clear();
    }
  });

  it('emulates a mobile device, the location time zone and languages, visible to the page', async () => {
    const mobile = await fetchPage({ url: `${site.url}/env`, mobile: true, location: { country: 'DE' } });
    expect(mobile.text).toMatch(/ua=Mozilla\/5\.0 \(iPhone;.*Mobile\//);
    expect(mobile.text).toMatch(/width=393;/);
    expect(mobile.text).toContain('touch=true');
    expect(mobile.text).toContain('tz=Europe/Berlin');
    expect(mobile.text).toContain('locale=de-DE');
    expect(mobile.text).toContain('languages=de-DE|de|en');
    expect(mobile.text).toMatch(/accept-language=de-DE,de;q=0\.9,en;q=0\.8/);
    expect(mobile.metadata?.timezone).toBe('Europe/Berlin');

    const desktop = await fetchPage({
      url: `${site.url}/env`,
      waitFor: 1,
      location: { country: 'JP', languages: ['en-GB'] },
    });
    expect(desktop.text).not.toContain('HeadlessChrome');
    expect(desktop.text).toMatch(/width=1440;/);
    expect(desktop.text).toContain('touch=false');
    expect(desktop.text).toContain('tz=Asia/Tokyo');
    expect(desktop.text).toContain('languages=en-GB');
  });

  it('defaults the location to the US in both engines, and lets the caller set Accept-Language', async () => {
    const rendered = await fetchPage({ url: `${site.url}/env`, waitFor: 1 });
    expect(rendered.engine).toBe('browser');
    expect(rendered.text).toMatch(/accept-language=en-US,en;q=0\.9;/);
    expect(rendered.text).toContain('languages=en-US|en');
    // rawBase64 alone never falls back to the browser: the server-side probe shows the HTTP engine's header.
    const plain = await fetchPage({ url: `${site.url}/env`, formats: ['rawBase64'] });
    expect(plain.engine).toBe('http');
    expect(plain.body.toString()).toMatch(/accept-language=en-US,en;q=0\.9;/);
    const own = await fetchPage({
      url: `${site.url}/env`,
      waitFor: 1,
      headers: { 'Accept-Language': 'fr-CH' },
    });
    expect(own.text).toMatch(/accept-language=fr-CH;/);
  });

  it('sends the request headers to the target', async () => {
    const page = await fetchPage({
      url: `${site.url}/env`,
      waitFor: 1,
      headers: { 'X-Probe': 'probe-value' },
    });
    expect(page.text).toContain('x-probe=probe-value');
  });

  it('drops Host, Content-Length and the other connection headers instead of hanging the page on them', async () => {
    const started = Date.now();
    const page = await fetchPage(
      {
        url: `${site.url}/env`,
        waitFor: 1,
        headers: {
          Host: 'other.example',
          'Content-Length': '12',
          'Keep-Alive': 'timeout=5',
          'X-Probe': 'kept',
        },
      },
      20_000,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(page.engine).toBe('browser');
    expect(page.text).toContain('x-probe=kept');
    expect(page.warnings).toContain(
      'These headers describe the connection and are set by the scraper itself, so they were not sent: Host, Content-Length, Keep-Alive.',
    );
  });

  it('blocks ad frames and removes cookie banners with blockAds, and keeps them without', async () => {
    site.hits.delete('/ads/banner.html');
    const blocked = await fetchPage({ url: `${site.url}/banner`, waitFor: 100 });
    expect(blocked.text).not.toContain(SCRAPE_SITE.bannerMarker);
    expect(site.hits.get('/ads/banner.html') ?? 0).toBe(0);

    const open = await fetchPage({ url: `${site.url}/banner`, waitFor: 100, blockAds: false });
    expect(open.text).toContain(SCRAPE_SITE.bannerMarker);
    expect(site.hits.get('/ads/banner.html')).toBe(1);
  });

  it('dismisses dialogs instead of hanging on them', async () => {
    const page = await fetchPage({ url: `${site.url}/dialog`, waitFor: 1 });
    expect(page.text).toContain('Dialogs');
  });

  it('ends a page whose script never yields at the deadline, and the next page still renders', async () => {
    const started = Date.now();
    await expect(fetchPage({ url: `${site.url}/hang`, waitFor: 1 }, 4_000)).rejects.toMatchObject({
      name: expect.stringMatching(/TimeoutError|AbortError/),
    });
    expect(Date.now() - started).toBeLessThan(9_000);
    const next = await fetchPage({ url: `${site.url}/js` });
    expect(next.text).toContain(SCRAPE_SITE.jsMarker);
  });

  it('stops a page that transfers more than its budget', async () => {
    const small = await BrowserPool.launch({
      executablePath: CHROMIUM,
      concurrency: 1,
      policy: new AddressPolicy(false, ['127.0.0.1']),
      maxTransferBytes: 4 * 1024 * 1024,
    });
    try {
      const engine = new BrowserEngine({
        http: new HttpEngine(client),
        pool: small,
        proxies: new ProxyPools({ basic: [], enhanced: [] }),
        settings: { teamConcurrency: 2, settleMs: 2_000, maxDocumentBytes: 5 * 1024 * 1024 },
      });
      // The capture waits 5 s, so the 64 MB image is past the 4 MB budget by then whatever the load:
      // with a 1 ms wait a loaded machine settled the page before 4 MB had arrived (the context is
      // closed then, so nothing unbounded happened, but the budget was not what stopped it).
      await expect(
        engine.fetch(request({ url: `${site.url}/huge-subresource`, waitFor: 5_000 }), {
          jobId: 'j',
          signal: AbortSignal.timeout(30_000),
          timeoutMs: 30_000,
        }),
      ).rejects.toMatchObject({
        name: 'TransferBudgetError',
      });
    } finally {
      await small.close();
    }
  });

  it('relaunches a killed browser and keeps serving', async () => {
    const pid = pool.processId as number;
    process.kill(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const page = await fetchPage({ url: `${site.url}/js` });
    expect(page.text).toContain(SCRAPE_SITE.jsMarker);
    expect(pool.restarts).toBeGreaterThanOrEqual(1);
    expect(pool.processId).not.toBe(pid);
  });

  it('verifies TLS certificates only when skipTlsVerification is false', async () => {
    const https = await startHttpsFixtureServer(
      '<html><body><main><h1>Secure page</h1><p>tls content word</p></main></body></html>',
    );
    const tlsPolicy = new AddressPolicy(false, ['127.0.0.1']);
    try {
      const lenient = await fetchPage({ url: https.url, waitFor: 1 });
      expect(lenient.text).toContain('tls content word');
      await expect(
        fetchPage({ url: https.url, waitFor: 1, skipTlsVerification: false }),
      ).rejects.toMatchObject({ code: expect.stringMatching(/TLS|CERT/) });
      await expect(fetchPage({ url: https.url, skipTlsVerification: false })).rejects.toMatchObject({
        code: expect.stringMatching(/CERT|SELF_SIGNED|TLS/),
      });
      expect(tlsPolicy.allows('127.0.0.1')).toBe(true);
    } finally {
      await https.close();
    }
  });

  it('retries auto on the enhanced proxy pool when the basic pool refuses, in both engines', async () => {
    const basic = await startForwardProxy({ refuse: true });
    const enhanced = await startForwardProxy();
    try {
      const engine = new BrowserEngine({
        http: new HttpEngine(client),
        pool,
        proxies: new ProxyPools({ basic: [basic.url], enhanced: [enhanced.url] }),
        settings: { teamConcurrency: 2, settleMs: 2_000, maxDocumentBytes: 5 * 1024 * 1024 },
      });
      const context = () => ({ jobId: 'j', signal: AbortSignal.timeout(30_000), timeoutMs: 30_000 });
      const viaHttp = await engine.fetch(request({ url: `${site.url}/static` }), context());
      expect(viaHttp.metadata).toMatchObject({ engine: 'http', proxyUsed: 'stealth' });
      expect(viaHttp.body.toString()).toContain(SCRAPE_SITE.staticMarker);
      const viaBrowser = await engine.fetch(request({ url: `${site.url}/static`, waitFor: 1 }), context());
      expect(viaBrowser.metadata).toMatchObject({ engine: 'browser', proxyUsed: 'stealth' });
      expect(viaBrowser.text).toContain(SCRAPE_SITE.staticMarker);
      expect(basic.hits).toBeGreaterThanOrEqual(2);
      expect(enhanced.hits).toBeGreaterThanOrEqual(2);

      await expect(
        engine.fetch(request({ url: `${site.url}/static`, proxy: 'basic' }), context()),
      ).rejects.toMatchObject({ code: 'PROXY_REFUSED' });
      const basicBrowser = await engine.fetch(
        request({ url: `${site.url}/static`, proxy: 'basic', waitFor: 1 }),
        context(),
      );
      expect(basicBrowser.status).toBe(403);
      expect(basicBrowser.metadata?.proxyUsed).toBe('basic');
    } finally {
      await basic.close();
      await enhanced.close();
    }
  });

  it('takes the screenshot format of the final page with its options', async () => {
    const page = await fetchPage({
      url: `${site.url}/actions`,
      formats: [{ type: 'screenshot', viewport: { width: 640, height: 480 } }],
    });
    const shot = page.artifacts?.screenshot ?? '';
    expect(shot).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(shot.slice(shot.indexOf(',') + 1), 'base64');
    expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual({
      width: 640,
      height: 480,
    });
  });

  it('reads branding from computed styles, CSS variables, logo, favicon and og:image', async () => {
    const page = await fetchPage({ url: `${site.url}/branding`, formats: ['branding'] });
    const branding = page.artifacts?.branding as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- asserted member by member
    expect(branding.colorScheme).toBe('light');
    expect(branding.logo).toBe(`${site.url}/images/logo.svg`);
    expect(branding.colors).toMatchObject({
      primary: '#FF5A1F',
      secondary: '#1F2937',
      accent: '#10B981',
      background: '#FFFFFF',
      textPrimary: '#111827',
      textSecondary: '#6B7280',
      link: '#2563EB',
      error: '#DC2626',
      success: '#16A34A',
      warning: '#F59E0B',
    });
    expect(branding.fonts).toEqual(
      expect.arrayContaining([{ family: 'Inter' }, { family: 'Poppins' }, { family: 'Fira Code' }]),
    );
    expect(branding.typography).toMatchObject({
      fontFamilies: { primary: 'Inter', heading: 'Poppins', code: 'Fira Code' },
      fontSizes: { h1: '48px', h2: '32px', body: '16px' },
      fontWeights: { regular: 400, bold: 700 },
    });
    expect(branding.components.buttonPrimary).toEqual({
      background: '#FF5A1F',
      textColor: '#FFFFFF',
      borderRadius: '8px',
    });
    expect(branding.components.buttonSecondary).toMatchObject({
      textColor: '#1F2937',
      borderColor: '#1F2937',
    });
    expect(branding.images).toEqual({
      logo: `${site.url}/images/logo.svg`,
      favicon: `${site.url}/favicon.ico`,
      ogImage: `${site.url}/images/og.png`,
    });
    expect(branding.spacing.baseUnit).toBe(8);
    expect(branding.personality).toBeNull();
  });
});
