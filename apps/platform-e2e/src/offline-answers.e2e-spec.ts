import { type FixtureHandler, type FixtureServer, startFixtureServer } from '@quarry/testing';

import { waitForAgent } from './support/agent-support';
import { call } from './support/api-client';
import { type Platform, startStandalone } from './support/platform';

jest.setTimeout(240_000);

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted member by member */
type Body = Record<string, any>;

const html =
  (body: string): FixtureHandler =>
  (_request, response) =>
    void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
const VEST = `<!doctype html><html><head><title>Ridgeline 12 running vest | Northwind Outfitters</title></head><body>
<header><a href="/">Northwind Outfitters</a><nav><a href="/running">Running</a><a href="/sale">Sale</a></nav></header>
<main><h1>Ridgeline 12 running vest</h1>
<p class="price"><span>€89.95</span> <s>€109.00</s></p>
<p>The Ridgeline 12 carries two soft flasks, a rain shell and your phone on long mountain runs without bouncing.</p>
<ul><li>Capacity: 12 l</li><li>Weight: 310 g</li><li>Material: recycled polyester mesh</li></ul>
<p>Free delivery on orders over €60. Returns within 30 days.</p></main>
<footer><p>© 2026 Northwind Outfitters GmbH</p></footer></body></html>`;

/** A small shop: navigation on the start page, the rest in its sitemap (absolute URLs of its own host). */
const shop = (blogPath: string, blogLabel: string): Record<string, FixtureHandler> => ({
  '/': html(
    `<html><head><title>Shop</title></head><body><nav><a href="/products/vest">Vest</a><a href="${blogPath}">${blogLabel}</a><a href="/careers">Careers</a><a href="/help/returns">Returns</a></nav><main><h1>Welcome</h1></main></body></html>`,
  ),
  '/sitemap.xml': (request, response) => {
    const paths = [
      `${blogPath}/trail-maintenance`,
      `${blogPath}/winter-stoves`,
      '/products/vest',
      '/products/tent',
      '/careers/warehouse-lead',
    ];
    const urls = paths.map((path) => `<url><loc>http://${request.headers.host}${path}</loc></url>`).join('');
    response
      .writeHead(200, { 'content-type': 'application/xml' })
      .end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`,
      );
  },
});

/**
 * Issue 15, offline answers through the HTTP API of the one-process mode with no language model:
 * the question format answers the value asked for, free-text extract jobs and agent runs answer the
 * price rather than the description and say no model was used, and a crawl prompt's sections are
 * the site's own.
 */
describe('offline answers through the API (one process, no language model)', () => {
  let platform: Platform;
  let site: FixtureServer;
  let journalSite: FixtureServer;
  const post = (path: string, body: Record<string, unknown>) =>
    call<Body>(platform.url(), 'POST', path, { apiKey: platform.apiKey, body });

  beforeAll(async () => {
    site = await startFixtureServer({ '/vest': html(VEST), ...shop('/blog', 'Blog') });
    journalSite = await startFixtureServer(shop('/journal', 'Blog'));
    platform = await startStandalone();
  });
  afterAll(async () => {
    await platform?.stop();
    await site?.close();
    await journalSite?.close();
  });

  it('answers "How much does it weigh?" with the weight and "What is sold here?" with the product', async () => {
    for (const [question, answer] of [
      ['How much does it weigh?', '310 g'],
      ['What is sold here?', 'Ridgeline 12 running vest'],
      ['What does it cost?', '€89.95'],
      ['What is the battery life?', 'The page does not appear to contain an answer to this question.'],
    ]) {
      const response = await post('/v2/scrape', {
        url: `${site.url}/vest`,
        formats: [{ type: 'question', question }],
        maxAge: 0,
      });
      expect(response.status).toBe(200);
      expect([question, response.body.data.answer]).toEqual([question, answer]);
      expect(response.body.data.warning).toMatch(
        /^answer: no language model is configured \(LLM_BASE_URL\); .*\(extractive offline fallback\)\.$/,
      );
    }
  });

  it('answers a free-text extract job about the price with the price, saying no model was used', async () => {
    const started = await post('/v2/extract', {
      urls: [`${site.url}/vest`],
      prompt: 'What is the price of the Ridgeline 12 running vest?',
    });
    expect(started.status).toBe(200);
    let status: Body = {};
    for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
      status = (
        await call<Body>(platform.url(), 'GET', `/v2/extract/${started.body.id}`, { apiKey: platform.apiKey })
      ).body;
      if (status.status !== 'processing') break;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(status).toMatchObject({ success: true, status: 'completed' });
    expect(status.data.answer).toBe('€89.95');
    expect(status.warning).toMatch(
      /^extract: no language model is configured \(LLM_BASE_URL\); .*offline fallback\)\.$/,
    );
  });

  it('answers an agent question about the price with the price, and GET /v2/agent/:id carries the warning', async () => {
    const started = await post('/v2/agent', {
      prompt: 'How much does the Ridgeline 12 running vest cost?',
      urls: [`${site.url}/vest`],
    });
    expect(started.status).toBe(200);
    const status = await waitForAgent(platform.url(), platform.apiKey, started.body.id);
    expect(status.status).toBe('completed');
    const body = status as unknown as Body;
    expect(body.data.answer).toBe('€89.95');
    expect(body.data.sources).toEqual([`${site.url}/vest`]);
    expect(body.warning).toMatch(
      /^agent: no language model is configured \(LLM_BASE_URL\); .*\(extractive offline fallback\)\.$/,
    );
  });

  it('maps "Only crawl the blog articles" onto the blog section of the site in the params preview, with the fallback warning', async () => {
    const preview = await post('/v2/crawl/params-preview', {
      url: `${site.url}/`,
      prompt: 'Only crawl the blog articles',
    });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toEqual({ url: `${site.url}/`, includePaths: ['^/blog(?:/|$)'] });
    expect(preview.body.warning).toBe(
      "crawl prompt: no language model is configured (LLM_BASE_URL); the options were read from the prompt by rules, matching the sections the site's links and sitemap show (offline fallback).",
    );
    // A site whose navigation calls its /journal "Blog".
    const journal = await post('/v2/crawl/params-preview', {
      url: `${journalSite.url}/`,
      prompt: 'Only crawl the blog articles, skip the careers pages',
    });
    expect(journal.status).toBe(200);
    expect(journal.body.data).toMatchObject({
      includePaths: ['^/journal(?:/|$)'],
      excludePaths: ['^/careers(?:/|$)'],
    });
    expect(journal.body.warning).toMatch(/^crawl prompt: no language model is configured/);
  });
});
