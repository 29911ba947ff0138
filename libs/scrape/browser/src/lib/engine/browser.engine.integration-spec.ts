import { scrapeRequestSchema, type ScrapeRequest, type ScrapeRequestInput } from '@quarry/contracts';
import { AddressPolicy, BlockedAddressError, GuardedHttpClient } from '@quarry/platform/net';
import { HttpEngine } from '@quarry/scrape/engine';
import { SCRAPE_SITE, startScrapeSite, type ScrapeSite } from '@quarry/testing';
import { BrowserPool } from '../pool/browser-pool';
import { BrowserEngine } from './browser.engine';
import { ProxyPools } from './proxy-pools';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

describe('BrowserEngine on real Chromium', () => {
  let site: ScrapeSite;
  let pool: BrowserPool;
  let client: GuardedHttpClient;
  let sut: BrowserEngine;

  const request = (input: Partial<ScrapeRequestInput> & { url: string }): ScrapeRequest => scrapeRequestSchema.parse(input);
  const fetchPage = (input: Partial<ScrapeRequestInput> & { url: string }, timeoutMs = 30_000) =>
    sut.fetch(request(input), { jobId: '00000000-0000-4000-8000-000000000001', signal: AbortSignal.timeout(timeoutMs), timeoutMs });

  beforeAll(async () => {
    site = await startScrapeSite();
    // 127.0.0.1 counts as public; 127.0.0.2 (the "private" site), 10/8 and 169.254/16 stay private.
    const policy = new AddressPolicy(false, ['127.0.0.1']);
    client = new GuardedHttpClient(policy, { userAgent: 'QuarryTest/1.0', maxBytes: 5 * 1024 * 1024 });
    pool = await BrowserPool.launch({ executablePath: CHROMIUM, concurrency: 2, policy, maxTransferBytes: 16 * 1024 * 1024 });
    sut = new BrowserEngine({
      http: new HttpEngine(client),
      pool,
      proxies: new ProxyPools({ basic: [], enhanced: [] }),
      settings: { teamConcurrency: 2, settleMs: 2_000, maxDocumentBytes: 5 * 1024 * 1024 },
    });
  });

  afterAll(async () => {
    await pool?.close();
    await client?.close();
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

  it('refuses a redirect to a private address in the browser', async () => {
    await expect(fetchPage({ url: `${site.url}/redirect-private`, waitFor: 10 })).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(fetchPage({ url: `${site.url}/redirect-metadata`, waitFor: 10 })).rejects.toBeInstanceOf(BlockedAddressError);
    expect(site.privateSite.hits.size).toBe(0);
  });

  it('loads the page but refuses every sub-resource on private addresses', async () => {
    const page = await fetchPage({ url: `${site.url}/subresource-private`, waitFor: 200 });
    expect(page.status).toBe(200);
    expect(page.text).toContain('fetch results: refused,refused,refused');
    expect(site.privateSite.hits.size).toBe(0);
  });
});
