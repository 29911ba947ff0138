import { call } from './api-client';
import {
  BLOCKED,
  type Body,
  BROWSER,
  expectText,
  type HostileCase,
  HTTP,
  metadata,
  rawScrape,
  siteScrape,
} from './hostile-case-kit';

/** Hostile targets: redirects, refused (private, metadata) addresses, URLs that are not http(s). */
export const TARGET_CASES: HostileCase[] = [
  // --- redirects ---
  {
    name: 'redirect loop',
    category: 'redirects',
    run: siteScrape('/redirect-loop'),
    expect: { status: 500, code: 'SCRAPE_SITE_ERROR', error: /redirect/i },
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: 'endless redirect chain',
    category: 'redirects',
    run: siteScrape('/redirect-chain'),
    expect: { status: 500, code: 'SCRAPE_SITE_ERROR', error: /redirect/i },
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  // --- refused targets (200 with metadata.statusCode 403, never billed) ---
  {
    name: 'redirect to a private address',
    category: 'refused target',
    run: siteScrape('/redirect-private'),
    expect: {
      status: 200,
      metadataStatus: 403,
      check: (answer) => expectText(String(metadata(answer)['error']), BLOCKED),
    },
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: 'redirect to ::ffff:127.0.0.2',
    category: 'refused target',
    run: siteScrape('/redirect-mapped'),
    expect: {
      status: 200,
      metadataStatus: 403,
      check: (answer) => expectText(String(metadata(answer)['error']), BLOCKED),
    },
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: 'meta refresh to a private address, browser',
    category: 'refused target',
    run: siteScrape('/meta-refresh-private', { waitFor: 300 }),
    expect: {
      status: 200,
      metadataStatus: 403,
      check: (answer) => expectText(String(metadata(answer)['error']), BLOCKED),
    },
    rssBoundMib: BROWSER,
    timeBoundMs: 30_000,
  },
  {
    name: 'location change after load to a private address, browser',
    category: 'refused target',
    run: siteScrape('/late-redirect-private', { waitFor: 300 }),
    expect: {
      status: 200,
      metadataStatus: 403,
      check: (answer) => expectText(String(metadata(answer)['error']), BLOCKED),
    },
    rssBoundMib: BROWSER,
    timeBoundMs: 30_000,
  },
  ...(
    [
      ['http://[::127.0.0.2]/ (IPv4-compatible)', (port: number) => `http://[::127.0.0.2]:${port}/ok`],
      ['::ffff:0:127.0.0.2 (IPv4-translated)', (port: number) => `http://[::ffff:0:127.0.0.2]:${port}/ok`],
      ['6to4 2002:7f00:2::', (port: number) => `http://[2002:7f00:2::]:${port}/ok`],
      ['NAT64 64:ff9b::127.0.0.2', (port: number) => `http://[64:ff9b::7f00:2]:${port}/ok`],
      ['metadata service 169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/'],
    ] as [string, (port: number) => string][]
  ).map(([name, url]): HostileCase => ({
    name: `target ${name}`,
    category: 'refused target',
    run: rawScrape((context) => url(context.site.privateSite.port)),
    expect: {
      status: 200,
      metadataStatus: 403,
      check: (answer) => expectText(String(metadata(answer)['error']), BLOCKED),
    },
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  })),
  {
    name: 'navigation to a closed port (Chromium error page), browser',
    category: 'chrome-error',
    run: siteScrape('/navigate-nowhere', { waitFor: 300 }),
    expect: { status: 500, code: 'SCRAPE_SITE_ERROR' },
    rssBoundMib: BROWSER,
    timeBoundMs: 30_000,
  },
  // --- URLs that are not http(s) ---
  ...(['javascript:alert(1)', 'data:text/html,<h1>hi</h1>', 'file:///etc/passwd'] as const).map(
    (url): HostileCase => ({
      name: `scrape of ${url.split(':')[0]}: URL`,
      category: 'request',
      run: rawScrape(() => url),
      expect: { status: 400, error: /^Invalid URL/ },
      rssBoundMib: HTTP,
      timeBoundMs: 5_000,
    }),
  ),
  {
    name: 'extract with a file: URL',
    category: 'request',
    run: async (context) => {
      const response = await call<Body>(context.url, 'POST', '/v2/extract', {
        apiKey: context.apiKey,
        body: { urls: ['file:///etc/passwd'], prompt: 'the secret' },
      });
      return { status: response.status, body: response.body };
    },
    expect: { status: 400, code: 'BAD_REQUEST', error: /^No valid URLs provided/ },
    rssBoundMib: HTTP,
    timeBoundMs: 5_000,
  },
];
