import {
  type CorpusPage,
  JS_PAGES,
  type JsCorpusSite,
  startJsCorpusSite,
  STATIC_PAGES,
} from '@quarry/testing';

import { call } from './support/api-client';
import { type Platform, startStandalone } from './support/platform';

jest.setTimeout(240_000);

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted member by member */
type Body = Record<string, any>;

const page = (id: string) => [...JS_PAGES, ...STATIC_PAGES].find((entry) => entry.id === id) as CorpusPage;

/**
 * Issue 15: pages whose content appears only after JavaScript ran come back rendered through
 * POST /v2/scrape without `waitFor` — the HTTP engine's answer is recognised as a shell, Chromium
 * renders it and the automatic wait lasts until the page's short timers and requests are done —
 * while script-carrying static pages stay on HTTP. One process, real Chromium, fixtures on 127.0.0.1.
 */
describe('JavaScript pages through /v2/scrape (one process, real Chromium)', () => {
  let platform: Platform;
  let site: JsCorpusSite;
  const scrape = (id: string) =>
    call<Body>(platform.url(), 'POST', '/v2/scrape', {
      apiKey: platform.apiKey,
      body: { url: site.pageUrl(id), formats: ['markdown'], maxAge: 0 },
    });

  beforeAll(async () => {
    site = await startJsCorpusSite([...JS_PAGES, ...STATIC_PAGES]);
    platform = await startStandalone({ BROWSER_CONCURRENCY: '2' });
  });
  afterAll(async () => {
    await platform?.stop();
    await site?.close();
  });

  it('returns the content a 400 ms timer adds to an empty container, without waitFor', async () => {
    const response = await scrape('timer-400ms-chrome');
    expect(response.status).toBe(200);
    expect(response.body.data.markdown).toContain(page('timer-400ms-chrome').marker);
    expect(response.body.data.markdown).toContain('It weighs 310 g');
    expect(response.body.data.metadata).toMatchObject({ engine: 'browser', statusCode: 200 });
    expect(response.body.data.metadata.engineFallback).toMatch(/^http → browser: /);
  });

  it('waits for a timer started on load and for content fetched as JSON', async () => {
    for (const id of ['onload-then-timer', 'fetch-json-grid']) {
      const response = await scrape(id);
      expect(response.status).toBe(200);
      expect([id, response.body.data.markdown.includes(page(id).marker)]).toEqual([id, true]);
      expect(response.body.data.metadata.engine).toBe('browser');
    }
  });

  it('keeps a static page with analytics, ads and consent scripts on the HTTP engine', async () => {
    for (const id of ['blog-with-gtag', 'news-with-ad-slots', 'short-thank-you-analytics']) {
      const response = await scrape(id);
      expect(response.status).toBe(200);
      expect([id, response.body.data.markdown.includes(page(id).marker)]).toEqual([id, true]);
      expect([id, response.body.data.metadata.engine]).toEqual([id, 'http']);
    }
  });
});
