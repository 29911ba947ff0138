import puppeteer, { type Browser } from 'puppeteer-core';

import { AddressPolicy } from '@quarry/platform/net';
import { type FixtureServer, startFixtureServer } from '@quarry/testing';

import { HostResolver } from './host-resolver';
import { RequestGuard } from './request-guard';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
jest.setTimeout(60_000);

/** Request interception on real Chromium: every request is settled, whatever Chromium refuses. */
describe('RequestGuard on real Chromium', () => {
  let browser: Browser;
  let site: FixtureServer;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/echo': (request, response) =>
        response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(`<html><body><p id="probe">x-probe=${request.headers['x-probe'] ?? 'none'}</p></body></html>`),
    });
    browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true });
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  const guarded = (headers: Record<string, string>) =>
    new RequestGuard({
      resolver: new HostResolver(new AddressPolicy(false, ['127.0.0.1'])),
      blockAds: true,
      headers,
      targetHost: '127.0.0.1',
    });

  it.each([
    ['an unsafe header (Set-Cookie)', { 'set-cookie': 'a=b', 'x-probe': 'p' }],
    ['an invalid header name', { 'x-bad name': 'v', 'x-probe': 'p' }],
    ['a header value with a line break', { 'x-probe': 'a\r\nb' }],
  ])(
    'settles a request Chromium refuses to send with %s: it goes without the headers at once',
    async (_what, headers) => {
      const page = await browser.newPage();
      try {
        const sut = guarded(headers);
        await sut.attach(page);
        const started = Date.now();
        const response = await page.goto(`${site.url}/echo`, { waitUntil: 'load', timeout: 20_000 });
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(response?.status()).toBe(200);
        expect(await page.$eval('#probe', (element) => element.textContent)).toBe('x-probe=none');
        expect(sut.headersRefused).toBe(true);
      } finally {
        await page.close();
      }
    },
  );

  it('sends acceptable headers to the target host', async () => {
    const page = await browser.newPage();
    try {
      const sut = guarded({ 'x-probe': 'sent' });
      await sut.attach(page);
      await page.goto(`${site.url}/echo`, { waitUntil: 'load', timeout: 20_000 });
      expect(await page.$eval('#probe', (element) => element.textContent)).toBe('x-probe=sent');
      expect(sut.headersRefused).toBe(false);
    } finally {
      await page.close();
    }
  });
});
