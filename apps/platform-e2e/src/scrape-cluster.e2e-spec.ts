import { Client } from 'pg';

import { BASIC_SITE, type FixtureServer, startBasicSite } from '@quarry/testing';

import { call } from './support/api-client';
import { type Platform, startCluster } from './support/platform';

interface Document {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  rawBase64?: string;
  metadata: Record<string, unknown>;
}

/**
 * The foundation's end-to-end path in cluster mode: two gateways and two scrape workers as
 * separate processes, over a real Kafka broker and a real PostgreSQL database.
 */
describe('scrape through Kafka (2 gateways, 2 workers)', () => {
  let platform: Platform;
  let site: FixtureServer;

  beforeAll(async () => {
    site = await startBasicSite();
    platform = await startCluster({ gateways: 2, workers: 2 });
  });
  afterAll(async () => {
    await platform?.stop();
    await site?.close();
  });

  const scrape = (body: Record<string, unknown>) =>
    call<{ success: boolean; data: Document; error?: string; code?: string }>(
      platform.url(),
      'POST',
      '/v2/scrape',
      { apiKey: platform.apiKey, body },
    );

  it('returns clean markdown of the main content, through either gateway', async () => {
    for (let i = 0; i < 4; i += 1) {
      const response = await scrape({ url: `${site.url}/article` });
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
      const markdown = response.body.data.markdown ?? '';
      expect(markdown).toContain(BASIC_SITE.articleMarker);
      expect(markdown).not.toContain(BASIC_SITE.navMarker);
      expect(markdown).not.toContain(BASIC_SITE.footerMarker);
      expect(markdown).not.toContain(BASIC_SITE.sidebarMarker);
      expect(markdown).toMatch(/\|\s*Engine\s*\|\s*Pages\/s\s*\|/);
      expect(markdown).toMatch(/```[a-z]*\n[\s\S]*computeFrontierScore/);
      expect(markdown).toContain(BASIC_SITE.japanese);
      expect(markdown).toContain(`${site.url}/images/diagram-large.png`);
    }
  });

  it('fills the metadata (docs/scraping.md#response-document)', async () => {
    const { body } = await scrape({ url: `${site.url}/article` });
    expect(body.data.metadata).toMatchObject({
      title: 'Crawler article',
      description: 'A fixture page about Crawler article',
      language: 'en',
      keywords: 'fixture, test',
      ogTitle: 'OG Crawler article',
      ogLocaleAlternate: ['fr_FR', 'de_DE'],
      viewport: 'width=device-width',
      sourceURL: `${site.url}/article`,
      url: `${site.url}/article`,
      statusCode: 200,
      creditsUsed: 1,
    });
    expect(String(body.data.metadata['contentType'])).toMatch(/^text\/html/);
    expect(body.data.metadata['scrapeId']).toEqual(expect.any(String));
  });

  it('keeps sourceURL as sent and reports the final URL after redirects', async () => {
    const sent = `${site.url}/redirect-chain?pagewanted=all&et_blog`;
    const { body } = await scrape({ url: sent });
    expect(body.data.metadata['sourceURL']).toBe(sent);
    expect(body.data.metadata['url']).toBe(`${site.url}/article`);
  });

  it('answers 200 with metadata.statusCode for target errors', async () => {
    const missing = await scrape({ url: `${site.url}/missing` });
    expect(missing.status).toBe(200);
    expect(missing.body.data.metadata).toMatchObject({ statusCode: 404, error: 'Not Found' });
    const broken = await scrape({ url: `${site.url}/broken` });
    expect(broken.status).toBe(200);
    expect(broken.body.data.metadata['statusCode']).toBe(500);
  });

  it('decodes Shift_JIS pages', async () => {
    const { body } = await scrape({ url: `${site.url}/shift-jis` });
    expect(body.data.markdown).toContain(BASIC_SITE.shiftJisText);
  });

  it('renders JSON as a fenced block and plain text unescaped', async () => {
    const json = await scrape({ url: `${site.url}/data.json`, formats: ['markdown', 'rawHtml'] });
    expect(json.body.data.markdown).toMatch(/^```json\n/);
    expect(JSON.parse(json.body.data.rawHtml ?? '')).toEqual({ id: 1, name: 'fixture' });
    const text = await scrape({ url: `${site.url}/notes.txt` });
    expect(text.body.data.markdown).toContain('plain_text with_underscores');
  });

  it('returns cleaned html, raw html, absolute links and rawBase64 on request', async () => {
    const { body } = await scrape({ url: `${site.url}/article`, formats: ['html', 'rawHtml', 'links'] });
    expect(body.data.markdown).toBeUndefined();
    expect(body.data.html).not.toMatch(/<script|<style|<meta/i);
    expect(body.data.html).toContain(`src="${site.url}/images/diagram-large.png"`);
    expect(body.data.rawHtml).toContain('window.tracking = true');
    expect(body.data.links).toEqual(expect.arrayContaining([`${site.url}/docs/frontier`]));
    expect(body.data.links?.every((link) => link.startsWith('http'))).toBe(true);
    const raw = await scrape({ url: `${site.url}/data.json`, formats: ['rawBase64'] });
    expect(Buffer.from(raw.body.data.rawBase64 ?? '', 'base64').toString()).toContain('"id":1');
    expect(String(raw.body.data.metadata['contentType'])).toMatch(/application\/json/);
  });

  it('honours onlyMainContent false, includeTags and excludeTags', async () => {
    const full = await scrape({ url: `${site.url}/article`, onlyMainContent: false });
    expect(full.body.data.markdown).toContain(BASIC_SITE.footerMarker);
    const included = await scrape({ url: `${site.url}/article`, includeTags: ['table'] });
    expect(included.body.data.markdown).toContain('Pages/s');
    expect(included.body.data.markdown).not.toContain('frontier of URLs');
    const excluded = await scrape({ url: `${site.url}/article`, excludeTags: ['table', 'pre'] });
    expect(excluded.body.data.markdown).not.toContain('Pages/s');
    expect(excluded.body.data.markdown).not.toContain(BASIC_SITE.codeIdentifier);
  });

  it('stores the result, serves it again by id and charges exactly once', async () => {
    const { body } = await scrape({ url: `${site.url}/` });
    const jobId = String(body.data.metadata['scrapeId']);
    const again = await call<{ success: boolean; data: Document }>(
      platform.url(),
      'GET',
      `/v2/scrape/${jobId}`,
      { apiKey: platform.apiKey },
    );
    expect(again.status).toBe(200);
    expect(again.body.data.markdown).toBe(body.data.markdown);
    const db = new Client({ connectionString: platform.database?.url });
    await db.connect();
    try {
      const charges = await db.query('SELECT amount FROM credit_ledger WHERE job_id = $1', [jobId]);
      expect(charges.rows).toEqual([{ amount: -1 }]);
      const documents = await db.query('SELECT count(*)::int AS n FROM documents WHERE job_id = $1', [jobId]);
      expect(documents.rows[0].n).toBe(1);
    } finally {
      await db.end();
    }
  });

  it('reports an unresolvable domain as success:false with SCRAPE_DNS_RESOLUTION_ERROR', async () => {
    const response = await scrape({ url: 'http://no-such-host.invalid/page' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: false, code: 'SCRAPE_DNS_RESOLUTION_ERROR' });
    expect(response.body.error).toMatch(/no-such-host\.invalid/);
  });
});
