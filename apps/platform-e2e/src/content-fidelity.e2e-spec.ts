import { type FixtureServer, html, startFixtureServer } from '@quarry/testing';

import { call } from './support/api-client';
import { type Platform, startStandalone } from './support/platform';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted member by member */
type Body = Record<string, any>;

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>` +
  `<header><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/blog">Blog</a> <a href="/contact">Contact</a></nav></header>` +
  `${body}<footer><p>© 2026 Fixture Ltd. All rights reserved.</p><a href="/privacy">Privacy</a></footer></body></html>`;

const tools = Array.from(
  { length: 60 },
  (_, i) => `<li><a href="/tools/${i}">Tool number ${i}</a> handles job ${i} for the team</li>`,
).join('');

/**
 * Main-content fidelity through `/v2/scrape` (default `onlyMainContent`), on pages that clients
 * reported: a main holding three short paragraphs, one of them long, and a main dominated by a long
 * list under its title and intro.
 */
describe('main content fidelity through /v2/scrape', () => {
  let site: FixtureServer;
  let platform: Platform;
  const scrape = (path: string) =>
    call<Body>(platform.url(), 'POST', '/v2/scrape', {
      apiKey: platform.apiKey,
      body: { url: `${site.url}${path}`, formats: ['markdown'], maxAge: 0 },
    });

  beforeAll(async () => {
    site = await startFixtureServer({
      '/echo': html(
        page(
          'Request echo',
          '<main><p>UA=Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36</p>' +
            '<p>Language de-DE</p><p>Width 1440</p></main>',
        ),
      ),
      '/tools': html(
        page(
          'The big list of tools',
          `<main><h1>The big list of tools</h1><p>Every tool the team uses, with a note on what it is for.</p><ul>${tools}</ul></main>`,
        ),
      ),
    });
    // Start-up takes well over a minute on a loaded 2-core machine: allow it more than the default 90 s.
    platform = await startStandalone({ BROWSER_CONCURRENCY: '0' }, { readyTimeoutMs: 240_000 });
  }, 300_000);

  afterAll(async () => {
    await platform?.stop();
    await site?.close();
  });

  it('keeps every paragraph of a main holding short lines besides one long one', async () => {
    const response = await scrape('/echo');
    expect(response.status).toBe(200);
    const markdown: string = response.body.data.markdown;
    expect(markdown).toContain('UA=Mozilla/5.0 (X11; Linux x86_64)');
    expect(markdown).toContain('Language de-DE');
    expect(markdown).toContain('Width 1440');
    expect(markdown).not.toContain('Contact');
  });

  it('keeps the title and intro of a main dominated by a long list, the title once', async () => {
    const response = await scrape('/tools');
    expect(response.status).toBe(200);
    const markdown: string = response.body.data.markdown;
    expect(markdown.match(/^# The big list of tools$/gm)).toHaveLength(1);
    expect(markdown).toContain('Every tool the team uses');
    expect(markdown).toContain('Tool number 0');
    expect(markdown).toContain('Tool number 59');
    expect(markdown).not.toContain('All rights reserved');
  });
});
