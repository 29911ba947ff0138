import { scrapeRequestSchema } from '@quarry/contracts';
import { InlineContentTransformer } from '@quarry/scrape/content';
import { buildDocument, type FetchedPage } from '@quarry/scrape/engine';
import {
  type CorpusPage,
  JS_PAGES,
  JS_PAGES_HELDOUT,
  JS_PAGES_HELDOUT_2,
  type JsCorpusSite,
  startJsCorpusSite,
  STATIC_PAGES,
  STATIC_PAGES_HELDOUT,
  STATIC_PAGES_HELDOUT_2,
} from '@quarry/testing';

import { BrowserEngine } from './browser.engine';
import { type BrowserEngineKit, startBrowserEngineKit } from './browser-engine.test-kit';
import { staticText } from './js-need.util';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const STATIC_PAGES_ALL = [...STATIC_PAGES, ...STATIC_PAGES_HELDOUT, ...STATIC_PAGES_HELDOUT_2];
jest.setTimeout(180_000);

/**
 * The JavaScript corpus through the real engine (HTTP first, Chromium when needed) with the
 * default settle cap and no `waitFor`: every JavaScript page comes back rendered, with its content,
 * and every static page stays on HTTP.
 */
describe('JavaScript corpus through the engine on real Chromium', () => {
  let site: JsCorpusSite;
  let kit: BrowserEngineKit;
  let sut: BrowserEngine;

  const scrape = async (
    page: CorpusPage,
  ): Promise<{ fetched: FetchedPage; markdown: string; ms: number }> => {
    const request = scrapeRequestSchema.parse({ url: site.pageUrl(page.id) });
    const started = Date.now();
    const fetched = await sut.fetch(request, {
      jobId: '00000000-0000-4000-8000-000000000002',
      signal: AbortSignal.timeout(30_000),
      timeoutMs: 30_000,
    });
    const ms = Date.now() - started;
    const document = await buildDocument(
      fetched,
      request,
      'job',
      new InlineContentTransformer(),
      Date.now() + 10_000,
    );
    return { fetched, markdown: document.markdown ?? '', ms };
  };

  beforeAll(async () => {
    site = await startJsCorpusSite([
      ...JS_PAGES,
      ...JS_PAGES_HELDOUT,
      ...JS_PAGES_HELDOUT_2,
      ...STATIC_PAGES_ALL,
    ]);
    kit = await startBrowserEngineKit({ chromiumPath: CHROMIUM, settleMs: 3_000 });
    sut = kit.engine;
  });

  afterAll(async () => {
    await kit?.close();
    await site?.close();
  });

  it('renders every JavaScript page in the browser and returns its content', async () => {
    const failures: string[] = [];
    const timings: string[] = [];
    const notInMarkdown: string[] = [];
    const pages = [...JS_PAGES, ...JS_PAGES_HELDOUT, ...JS_PAGES_HELDOUT_2];
    for (const page of pages) {
      const { fetched, markdown, ms } = await scrape(page);
      timings.push(`${page.id} ${ms} ms`);
      if (fetched.engine !== 'browser') failures.push(`${page.id}: engine ${fetched.engine}`);
      // The engine's job is the rendered document; which part of it is main content is the content library's.
      else if (!staticText(fetched.text ?? '').includes(page.marker))
        failures.push(`${page.id}: not rendered`);
      else if (!markdown.includes(page.marker)) notInMarkdown.push(page.id);
    }
    process.stdout.write(
      `\nJavaScript pages rendered: ${pages.length - failures.length}/${pages.length}\n${timings.join(', ')}\n${failures.join('\n')}\nrendered, but outside the main-content markdown: ${notInMarkdown.join(', ') || 'none'}\n`,
    );
    expect(failures).toEqual([]);
  });

  it('keeps every static page on HTTP with its content', async () => {
    const failures: string[] = [];
    for (const page of STATIC_PAGES_ALL) {
      const { fetched, markdown } = await scrape(page);
      if (fetched.engine !== 'http')
        failures.push(`${page.id}: engine ${fetched.engine} (${fetched.metadata?.engineFallback})`);
      else if (!markdown.includes(page.marker)) failures.push(`${page.id}: content missing`);
    }
    expect(failures).toEqual([]);
  });
});
