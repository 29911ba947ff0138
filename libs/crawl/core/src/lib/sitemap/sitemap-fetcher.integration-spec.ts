import { gzipSync } from 'node:zlib';

import { AddressPolicy, GuardedHttpClient } from '@quarry/platform/net';
import {
  brotliBomb,
  type FixtureServer,
  sitemapGzipBomb,
  startFixtureServer,
  withRssSampling,
} from '@quarry/testing';

import { DEFAULT_SITEMAP_LIMITS, SitemapFetcher } from './sitemap-fetcher';

const GIB = 1024 ** 3;
const LIMIT = 4 * 1024 * 1024;

/** Gzipped sitemaps that expand without bound, next to a good one, on a real server on 127.0.0.1. */
describe('SitemapFetcher against compressed sitemap bombs', () => {
  let site: FixtureServer;

  beforeAll(async () => {
    const origin = 'http://127.0.0.1';
    const bomb = sitemapGzipBomb(GIB, origin);
    const brBomb = await brotliBomb(GIB);
    const good = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/good</loc></url></urlset>`;
    site = await startFixtureServer({
      '/sitemap.xml': (_request, response) =>
        void response
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(
            `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[
              '/bomb.xml.gz',
              '/double.xml.gz',
              '/br.xml',
              '/good.xml',
            ]
              .map((path) => `<sitemap><loc>${site.url}${path}</loc></sitemap>`)
              .join('')}</sitemapindex>`,
          ),
      // a .xml.gz file by content, whatever its type
      '/bomb.xml.gz': (_request, response) =>
        void response.writeHead(200, { 'content-type': 'application/x-gzip' }).end(bomb),
      // the same file sent with Content-Encoding gzip on top: two layers
      '/double.xml.gz': (_request, response) =>
        void response
          .writeHead(200, { 'content-type': 'application/x-gzip', 'content-encoding': 'gzip' })
          .end(gzipSync(bomb)),
      '/br.xml': (_request, response) =>
        void response
          .writeHead(200, { 'content-type': 'application/xml', 'content-encoding': 'br' })
          .end(brBomb),
      '/good.xml': (_request, response) =>
        void response.writeHead(200, { 'content-type': 'application/xml' }).end(good),
    });
  }, 60_000);
  afterAll(() => site?.close());

  it('stops each bomb at the byte limit while decoding, keeps the good sitemap, and keeps memory bounded', async () => {
    const sut = new SitemapFetcher(
      new GuardedHttpClient(new AddressPolicy(true), { userAgent: 'test', maxBytes: LIMIT }),
      {
        ...DEFAULT_SITEMAP_LIMITS,
        maxBytes: LIMIT,
      },
    );
    const { outcome, growth, ms } = await withRssSampling(() => sut.collect([`${site.url}/sitemap.xml`]));
    expect(outcome.status).toBe('fulfilled');
    const result = (outcome as PromiseFulfilledResult<Awaited<ReturnType<SitemapFetcher['collect']>>>).value;
    expect(result.urls).toEqual(['http://127.0.0.1/good']);
    expect(result.errors.map((error) => error.url.replace(site.url, ''))).toEqual([
      '/bomb.xml.gz',
      '/double.xml.gz',
      '/br.xml',
    ]);
    for (const error of result.errors)
      expect(error.error).toMatch(new RegExp(`exceeds the limit of ${LIMIT} bytes once decoded`));
    expect(ms).toBeLessThan(15_000);
    expect(growth).toBeLessThan(120 * 1024 * 1024);
  });
});
