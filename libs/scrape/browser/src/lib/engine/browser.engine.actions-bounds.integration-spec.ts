import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

import type { ScrapeRequestInput } from '@quarry/contracts';
import { SCRAPE_SITE, type ScrapeSite, startScrapeSite } from '@quarry/testing';

import { type BrowserEngineKit, startBrowserEngineKit } from './browser-engine.test-kit';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
jest.setTimeout(60_000);

// The actions and the page bounds of the BrowserEngine, on the setup of browser.engine.integration-spec.ts.
describe('BrowserEngine on real Chromium', () => {
  let site: ScrapeSite;
  let kit: BrowserEngineKit;

  const fetchPage = (input: Partial<ScrapeRequestInput> & { url: string }, timeoutMs = 30_000) =>
    kit.fetchPage(input, timeoutMs);

  beforeAll(async () => {
    site = await startScrapeSite();
    kit = await startBrowserEngineKit({ chromiumPath: CHROMIUM, settleMs: 2_000 });
  });

  afterAll(async () => {
    await kit?.close();
    await site?.close();
  });

  describe('actions', () => {
    const dataOf = (url: string) => Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
    const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

    it('runs all nine action types in order and returns their results in action order', async () => {
      const page = await fetchPage({
        url: `${site.url}/actions`,
        actions: [
          { type: 'wait', milliseconds: 50 },
          { type: 'wait', selector: '#reveal' },
          { type: 'click', selector: '#reveal' },
          { type: 'click', selector: '.count', all: true },
          { type: 'click', selector: '.missing', all: true },
          { type: 'click', selector: '#search' },
          { type: 'write', text: 'hello quarry' },
          { type: 'press', key: 'Enter' },
          { type: 'scroll', direction: 'down' },
          { type: 'scroll', selector: '#box' },
          { type: 'screenshot', fullPage: true },
          { type: 'screenshot', quality: 40, viewport: { width: 800, height: 600 } },
          { type: 'executeJavascript', script: 'window.clicks' },
          {
            type: 'executeJavascript',
            script: 'return { box: window.boxScrolled > 0, title: document.title }',
          },
          { type: 'executeJavascript', script: 'null' },
          { type: 'executeJavascript', script: 'await new Promise((r) => setTimeout(r, 10)); [1, "two"]' },
          { type: 'scrape' },
          { type: 'pdf', format: 'A4', landscape: true, scale: 0.8 },
        ],
      });
      expect(page.engine).toBe('browser');
      expect(page.text).toContain(SCRAPE_SITE.clickMarker);
      expect(page.text).toContain('typed:hello quarry');
      expect(page.text).toContain(SCRAPE_SITE.scrollMarker);
      const actions = page.artifacts?.actions;
      expect(actions?.javascriptReturns).toEqual([
        { type: 'number', value: 2 },
        { type: 'object', value: { box: true, title: 'Actions' } },
        { type: 'null', value: null },
        { type: 'array', value: [1, 'two'] },
      ]);
      expect(actions?.scrapes).toHaveLength(1);
      expect(actions?.scrapes[0].url).toBe(`${site.url}/actions`);
      expect(actions?.scrapes[0].html).toContain('typed:hello quarry');
      expect(actions?.screenshots).toHaveLength(2);
      const [full, small] = actions?.screenshots ?? [];
      expect(full).toMatch(/^data:image\/png;base64,/);
      expect(pngSize(dataOf(full)).height).toBeGreaterThan(3_000);
      expect(small).toMatch(/^data:image\/jpeg;base64,/);
      expect(actions?.pdfs).toHaveLength(1);
      const pdf = dataOf(actions?.pdfs[0] ?? '');
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const box = pdf.toString('latin1').match(/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)/);
      expect(Number(box?.[1])).toBeGreaterThan(Number(box?.[2]));
    });

    it('follows a navigation caused by a click', async () => {
      const page = await fetchPage({
        url: `${site.url}/actions`,
        actions: [{ type: 'click', selector: '#next' }, { type: 'scrape' }],
      });
      expect(page.url).toBe(`${site.url}/static`);
      expect(page.artifacts?.actions?.scrapes[0].url).toBe(`${site.url}/static`);
      expect(page.text).toContain(SCRAPE_SITE.staticMarker);
    });

    it('reports a failing action with its position', async () => {
      await expect(
        fetchPage(
          {
            url: `${site.url}/actions`,
            actions: [
              { type: 'wait', milliseconds: 1 },
              { type: 'click', selector: '#nothing-here' },
            ],
          },
          40_000,
        ),
      ).rejects.toMatchObject({
        code: 'SCRAPE_ACTION_ERROR',
        message: expect.stringContaining('Action 2 (click)'),
      });
      await expect(
        fetchPage({
          url: `${site.url}/actions`,
          actions: [{ type: 'executeJavascript', script: 'throw new Error("boom")' }],
        }),
      ).rejects.toMatchObject({
        code: 'SCRAPE_ACTION_ERROR',
        message: expect.stringContaining('boom'),
      });
      await expect(
        fetchPage({ url: `${site.url}/actions`, actions: [{ type: 'press', key: 'NoSuchKey' }] }),
      ).rejects.toMatchObject({ code: 'SCRAPE_ACTION_ERROR' });
    });
  });
  describe('a document over the page bounds (MAX_PAGE_LINKS)', () => {
    let server: Server;
    let base: string;
    const served: string[] = [];

    beforeAll(async () => {
      // 120,000 links (2 MB): over the default 100,000 bound; Chromium must never be given it to parse.
      const huge = `<html><body>${'<a href="/x">x</a>'.repeat(120_000)}</body></html>`;
      // 64 MiB of markup in 64 kB of gzip: decoded past the 5 MiB document bound.
      const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, ' '));
      const pages: Record<string, string> = {
        '/huge': huge,
        '/framed':
          '<html><body><h1>Framed host</h1><p>Around the frame.</p><iframe src="/huge"></iframe></body></html>',
        '/later':
          '<html><head><meta http-equiv="refresh" content="0;url=/huge"></head><body>soon</body></html>',
      };
      server = createServer((req, res) => {
        const path = req.url ?? '';
        served.push(path);
        res.setHeader('content-type', 'text/html; charset=utf-8');
        if (path === '/bomb') {
          res.setHeader('content-encoding', 'gzip');
          res.end(bomb);
        } else if (path === '/gzipped') {
          // An ordinary compressed page with a cookie: handed to Chromium decoded, headers intact.
          res.setHeader('content-encoding', 'gzip');
          res.setHeader('set-cookie', 'seen=1; Path=/');
          res.end(
            gzipSync(
              '<html><body><p>Compressed page.</p><script>document.body.insertAdjacentHTML("beforeend", "<p>cookie:" + document.cookie + "</p>")</script></body></html>',
            ),
          );
        } else if (pages[path]) res.end(pages[path]);
        else {
          res.statusCode = 404;
          res.end('not here');
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await new Promise((resolve) => server?.close(resolve));
    });

    it('answers 422 naming the bound, without rendering it', async () => {
      const started = Date.now();
      await expect(fetchPage({ url: `${base}/huge`, waitFor: 100 })).rejects.toMatchObject({
        code: 'SCRAPE_PAGE_TOO_LARGE',
        message: 'page too large to process: 120,000 links (limit 100,000, MAX_PAGE_LINKS)',
      });
      expect(Date.now() - started).toBeLessThan(15_000);
    });

    it('leaves a frame over the bounds empty and renders the page around it', async () => {
      const page = await fetchPage({ url: `${base}/framed`, waitFor: 100 });
      expect(page.engine).toBe('browser');
      expect(page.text).toContain('Around the frame.');
      expect(served).toContain('/huge');
    });

    it('stops decoding a compression bomb at the document bound', async () => {
      await expect(fetchPage({ url: `${base}/bomb`, waitFor: 100 })).rejects.toMatchObject({
        code: 'RESPONSE_TOO_LARGE',
        message: expect.stringMatching(
          /exceeds the limit of 5242880 bytes once decoded \(Content-Encoding: gzip\)/,
        ),
      });
    });

    it('hands an ordinary compressed page to Chromium decoded, with its headers and cookies', async () => {
      const page = await fetchPage({ url: `${base}/gzipped`, waitFor: 100 });
      expect(page.engine).toBe('browser');
      expect(page.status).toBe(200);
      expect(page.text).toContain('Compressed page.');
      expect(page.text).toContain('cookie:seen=1');
    });

    it('answers the same error when the page navigates to such a document after load', async () => {
      await expect(fetchPage({ url: `${base}/later`, waitFor: 1_000 })).rejects.toMatchObject({
        code: 'SCRAPE_PAGE_TOO_LARGE',
      });
    });
  });
});
