import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

import { archiveBomb, type BombKind, docxFixture } from '@quarry/documents/fixtures';
import {
  brotliBomb,
  type FixtureServer,
  gzipBomb,
  html,
  sitemapGzipBomb,
  startFixtureServer,
  zlibBomb,
  zstdBomb,
} from '@quarry/testing';

import { type ApiResponse, call, upload } from './support/api-client';
import { type Platform, startStandalone } from './support/platform';
import { teamCredits } from './support/teams';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

type Body = {
  success: boolean;
  error?: string;
  code?: string;
  data?: { markdown?: string };
  links?: { url: string }[];
};

/** Resident memory of a process, from /proc (MiB). */
function rssMib(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/**
 * Compression and archive bombs against the one-process server (issue 12): HTTP bodies on every
 * encoding, gzipped sitemaps and ZIP-based uploads expanding to gigabytes. Each answers in the
 * spec's error shape within seconds, costs no credit, and the server's memory stays bounded.
 */
describe('compression and archive bombs', () => {
  let platform: Platform;
  let site: FixtureServer;
  let pid: number;

  beforeAll(async () => {
    const bodies = {
      gzip: gzipBomb(GIB),
      deflate: zlibBomb(GIB),
      br: await brotliBomb(GIB),
      zstd: zstdBomb(GIB),
    };
    const encoded =
      (encoding: string, body: Buffer) => (_request: unknown, response: import('node:http').ServerResponse) =>
        void response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': encoding })
          .end(body);
    site = await startFixtureServer({
      '/': html('<html><body><main><h1>Bomb site</h1><p>The start page.</p></main></body></html>'),
      '/page': html('<html><body><main><h1>A page</h1></main></body></html>'),
      '/gzip': encoded('gzip', bodies.gzip),
      '/deflate': encoded('deflate', bodies.deflate),
      '/br': encoded('br', bodies.br),
      '/zstd': encoded('zstd', bodies.zstd),
      '/gzip-gzip': encoded('gzip, gzip', gzipSync(bodies.gzip)),
      '/robots.txt': (_request, response) =>
        void response
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(`Sitemap: ${site.url}/bomb.xml.gz\nSitemap: ${site.url}/good.xml\n`),
      '/bomb.xml.gz': (_request, response) =>
        void response
          .writeHead(200, { 'content-type': 'application/x-gzip' })
          .end(sitemapGzipBomb(GIB, site.url)),
      '/good.xml': (_request, response) =>
        void response
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(
            `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url}/page</loc></url></urlset>`,
          ),
    });
    platform = await startStandalone({
      BROWSER_CONCURRENCY: '0',
      MAX_RESPONSE_BYTES: String(8 * MIB),
      DOC_MAX_OUTPUT_BYTES: String(1 * MIB),
    });
    pid = platform.gateways[0].process.pid as number;
  }, 120_000);
  afterAll(async () => {
    await platform?.stop();
    await site?.close();
  });

  /**
   * Runs `work`, sampling the server's resident memory: a bomb is refused within seconds, while it is
   * inflated or decoded, so memory barely moves and is back near where it was a second later.
   */
  async function bounded<T>(work: () => Promise<T>): Promise<T> {
    const before = rssMib(pid);
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, rssMib(pid))), 20);
    const started = Date.now();
    try {
      return await work();
    } finally {
      clearInterval(timer);
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(peak - before).toBeLessThan(200);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(rssMib(pid) - before).toBeLessThan(100);
    }
  }

  const expectSpecError = (response: ApiResponse<Body>, status: number, error: RegExp, code?: string) => {
    expect({ status: response.status, success: response.body.success }).toEqual({ status, success: false });
    expect(response.body.error).toMatch(error);
    if (code) expect(response.body.code).toBe(code);
  };

  it('stops HTTP bodies decoding past MAX_RESPONSE_BYTES on every encoding, free of charge', async () => {
    const credits = await teamCredits(platform);
    for (const path of ['gzip', 'deflate', 'br', 'gzip-gzip']) {
      const response = await bounded(() =>
        call<Body>(platform.url(), 'POST', '/v2/scrape', {
          apiKey: platform.apiKey,
          body: { url: `${site.url}/${path}`, maxAge: 0 },
        }),
      );
      expectSpecError(
        response,
        500,
        new RegExp(
          `exceeds the limit of ${8 * MIB} bytes once decoded \\(Content-Encoding: ${path.replace('-', ', ')}\\).*MAX_RESPONSE_BYTES`,
        ),
        'SCRAPE_SITE_ERROR',
      );
    }
    const zstd = await call<Body>(platform.url(), 'POST', '/v2/scrape', {
      apiKey: platform.apiKey,
      body: { url: `${site.url}/zstd`, maxAge: 0 },
    });
    expectSpecError(zstd, 500, /Content-Encoding zstd, which was not offered/, 'SCRAPE_SITE_ERROR');
    expect(await teamCredits(platform)).toBe(credits);
  });

  it('stops a gzipped sitemap at MAX_RESPONSE_BYTES and maps the site from the rest', async () => {
    const response = await bounded(() =>
      call<Body>(platform.url(), 'POST', '/v2/map', {
        apiKey: platform.apiKey,
        body: { url: `${site.url}/`, sitemap: 'only' },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.body.links?.map((link) => link.url)).toEqual([`${site.url}/page`]);
  });

  it('refuses ZIP-based uploads expanding past the limits with 422 DOCUMENT_TOO_LARGE, free of charge', async () => {
    const credits = await teamCredits(platform);
    const cases: [string, { filename: string; data: Buffer }, RegExp][] = [
      [
        '190 MiB document.xml, declared',
        archiveBomb('docx', { bytes: 190 * MIB }),
        /word\/document\.xml expands beyond DOC_MAX_ENTRY_BYTES \(67108864 bytes/,
      ],
      ['2 GiB declared', archiveBomb('docx', { bytes: 2 * GIB }), /declares 214\d{7} bytes/],
      [
        'size lied about',
        archiveBomb('docx', { bytes: 128 * MIB, declaredSize: 2_048 }),
        /declares 2048 bytes/,
      ],
      ...(['xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub'] as BombKind[]).map(
        (kind): [string, { filename: string; data: Buffer }, RegExp] => [
          kind,
          archiveBomb(kind, { bytes: 96 * MIB }),
          /expands beyond DOC_MAX_ENTRY_BYTES/,
        ],
      ),
      [
        'five parts of 60 MiB',
        archiveBomb('docx', { bytes: 60 * MIB, parts: 5 }),
        /entries expand beyond DOC_MAX_INFLATED_BYTES \(268435456 bytes/,
      ],
    ];
    for (const [label, bomb, reason] of cases) {
      const response = await bounded(() =>
        upload<Body>(platform.url(), '/v2/parse', bomb, { apiKey: platform.apiKey }),
      );
      expect({ label, status: response.status }).toEqual({ label, status: 422 });
      expectSpecError(response, 422, reason, 'DOCUMENT_TOO_LARGE');
    }
    // Within the archive limits, so converted for real (mammoth: the parse thread's heap grows with
    // the work, up to DOC_WORKER_MEMORY_MB), then refused for its output.
    const wordy = await upload<Body>(platform.url(), '/v2/parse', archiveBomb('docx', { bytes: 2 * MIB }), {
      apiKey: platform.apiKey,
    });
    expectSpecError(wordy, 422, /exceeds DOC_MAX_OUTPUT_BYTES \(1048576 bytes\)/, 'DOCUMENT_TOO_LARGE');
    expect(await teamCredits(platform)).toBe(credits);
    // the parse threads are fine: an ordinary document right after
    const fixture = await docxFixture();
    const ok = await upload<Body>(platform.url(), '/v2/parse', fixture, { apiKey: platform.apiKey });
    expect(ok.status).toBe(200);
    expect(ok.body.data?.markdown).toBe(fixture.markdown);
  });

  it('does not decode a gzip-encoded upload request', async () => {
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(Buffer.from('<html><body><p>x</p></body></html>'))]),
      'page.html',
    );
    const encoded = new Response(form);
    const contentType = encoded.headers.get('content-type') ?? '';
    const multipart = Buffer.from(await encoded.arrayBuffer());
    const response = await fetch(`${platform.url()}/v2/parse`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${platform.apiKey}`,
        'content-type': contentType,
        'content-encoding': 'gzip',
      },
      body: gzipSync(multipart),
    });
    const body = (await response.json()) as Body;
    // the bytes are not a multipart body: nothing inflates them, the request is refused as malformed
    expect({ status: response.status, body }).toEqual({
      status: 400,
      body: expect.objectContaining({ success: false }),
    });
  });
});
