import { type ScrapeRequestInput, scrapeRequestSchema } from '@quarry/contracts';
import { AddressPolicy, GuardedHttpClient } from '@quarry/platform/net';
import { type FixtureServer, startFixtureServer } from '@quarry/testing';

import { HttpEngine } from './http.engine';

describe('HttpEngine Accept-Language (docs/scraping.md#options: location defaults to country US)', () => {
  let site: FixtureServer;
  let client: GuardedHttpClient;
  let sut: HttpEngine;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/echo': (request, response) =>
        response
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(request.headers['accept-language'] ?? 'none'),
    });
    client = new GuardedHttpClient(new AddressPolicy(false, ['127.0.0.1']), {
      userAgent: 'QuarryTest/1.0',
      maxBytes: 100_000,
    });
    sut = new HttpEngine(client);
  });

  afterAll(async () => {
    await client.close();
    await site.close();
  });

  const sent = async (input: Partial<ScrapeRequestInput> = {}) => {
    const page = await sut.fetch(scrapeRequestSchema.parse({ url: `${site.url}/echo`, ...input }), {
      jobId: 'job',
      signal: AbortSignal.timeout(10_000),
      timeoutMs: 10_000,
    });
    return page.body.toString('utf8');
  };

  it('sends the US default without a location', async () => {
    expect(await sent()).toBe('en-US,en;q=0.9');
  });

  it("sends the location's language, or its languages in order", async () => {
    expect(await sent({ location: { country: 'DE' } })).toBe('de-DE,de;q=0.9,en;q=0.8');
    expect(await sent({ location: { country: 'JP', languages: ['ja-JP', 'en'] } })).toBe('ja-JP,en;q=0.9');
  });

  it("keeps the caller's own Accept-Language", async () => {
    expect(await sent({ headers: { 'Accept-Language': 'fr-CH' } })).toBe('fr-CH');
    expect(await sent({ headers: { 'accept-language': 'it' }, location: { country: 'DE' } })).toBe('it');
  });
});

describe('HttpEngine and connection headers in the request', () => {
  let site: FixtureServer;
  let client: GuardedHttpClient;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/headers': (request, response) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(request.headers)),
    });
    client = new GuardedHttpClient(new AddressPolicy(false, ['127.0.0.1']), {
      userAgent: 'QuarryTest/1.0',
      maxBytes: 100_000,
    });
  });

  afterAll(async () => {
    await client.close();
    await site.close();
  });

  it('drops Host, Content-Length and the other connection headers, sends the rest and names the dropped ones', async () => {
    const sut = new HttpEngine(client);
    const page = await sut.fetch(
      scrapeRequestSchema.parse({
        url: `${site.url}/headers`,
        headers: {
          Host: 'other.example',
          'Content-Length': '12',
          Connection: 'upgrade',
          'Transfer-Encoding': 'chunked',
          'Proxy-Authorization': 'Basic eDp5',
          'X-Probe': 'kept',
          Cookie: 'a=b',
        },
      }),
      { jobId: 'job', signal: AbortSignal.timeout(10_000), timeoutMs: 10_000 },
    );
    const seen = JSON.parse(page.body.toString('utf8')) as Record<string, string>;
    expect(seen['host']).toBe(new URL(site.url).host);
    expect(seen['x-probe']).toBe('kept');
    expect(seen['cookie']).toBe('a=b');
    expect(seen['content-length']).toBeUndefined();
    expect(seen['transfer-encoding']).toBeUndefined();
    expect(seen['proxy-authorization']).toBeUndefined();
    expect(page.warnings).toEqual([
      'These headers describe the connection and are set by the scraper itself, so they were not sent: Host, Content-Length, Connection, Transfer-Encoding, Proxy-Authorization.',
    ]);
  });
});
