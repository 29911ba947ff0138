import {
  archiveBomb,
  encryptedPdf,
  garbagePdf,
  heavyPagePdf,
  reportPdf,
  truncated,
  type BombKind,
} from '@quarry/documents/fixtures';
import { rawHttpExchange } from '@quarry/testing';
import { call, upload } from './api-client';
import { absurdPng, billionLaughs, GIB, MIB, type HostileSite } from './hostile-fixtures';

/** What a hostile case answered, whatever the route: the HTTP status and the body (a job's final status for crawls and batches). */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface CaseContext {
  url: string;
  apiKey: string;
  port: number;
  site: HostileSite;
}

export interface HostileCase {
  name: string;
  category: string;
  run: (context: CaseContext) => Promise<Answer>;
  /** Expected HTTP status and, for errors, the spec body: `code` and a pattern of `error`. */
  expect: {
    status: number;
    code?: string;
    error?: RegExp;
    metadataStatus?: number;
    check?: (answer: Answer) => void;
  };
  /**
   * Valid but pathological markup whose conversion may run past the job's `timeout` on a loaded
   * machine: then the documented answer is 408 SCRAPE_TIMEOUT (the content worker busy with it is
   * killed and replaced, nothing is charged) instead of the page. A string names the 408's code
   * when it is not SCRAPE_TIMEOUT (e.g. an OCR budget).
   */
  orTimeout?: true | string;
  /** Credits the case may cost (0 for every refusal). */
  credits?: number;
  /** Peak resident memory of the server's process tree (MiB) while the case runs. */
  rssBoundMib: number;
  /** Wall time bound of the case (ms). */
  timeBoundMs: number;
}

type Body = Record<string, unknown>;

const scrape =
  (body: Body) =>
  async (context: CaseContext): Promise<Answer> => {
    const response = await call<Body>(context.url, 'POST', '/v2/scrape', {
      apiKey: context.apiKey,
      body: { maxAge: 0, ...body },
    });
    return { status: response.status, body: response.body };
  };

const siteScrape =
  (path: string, extra: Body = {}) =>
  (context: CaseContext) =>
    scrape({ url: `${context.site.url}${path}`, ...extra })(context);

const rawScrape =
  (url: (context: CaseContext) => string, extra: Body = {}) =>
  (context: CaseContext) =>
    scrape({ url: url(context), ...extra })(context);

const parse =
  (file: () => Promise<{ filename: string; data: Buffer }> | { filename: string; data: Buffer }) =>
  async (context: CaseContext): Promise<Answer> => {
    const response = await upload<Body>(context.url, '/v2/parse', await file(), { apiKey: context.apiKey });
    return { status: response.status, body: response.body };
  };

async function untilFinished(context: CaseContext, path: string, timeoutMs: number): Promise<Body> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await call<Body>(context.url, 'GET', path, { apiKey: context.apiKey });
    if (['completed', 'failed', 'cancelled'].includes(String(status.body['status']))) return status.body;
    if (Date.now() > deadline)
      throw new Error(
        `${path} not finished in ${timeoutMs} ms: ${JSON.stringify(status.body).slice(0, 300)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A crawl of `path` (limit 3, no sitemap): the final status with its errors. */
const crawl =
  (path: string, scrapeOptions: Body = {}) =>
  async (context: CaseContext): Promise<Answer> => {
    const started = await call<{ id?: string } & Body>(context.url, 'POST', '/v2/crawl', {
      apiKey: context.apiKey,
      body: {
        url: `${context.site.url}${path}`,
        limit: 3,
        sitemap: 'skip',
        scrapeOptions: { maxAge: 0, ...scrapeOptions },
      },
    });
    if (started.status !== 200 || !started.body.id) return { status: started.status, body: started.body };
    const final = await untilFinished(context, `/v2/crawl/${started.body.id}`, 90_000);
    const errors = await call<Body>(context.url, 'GET', `/v2/crawl/${started.body.id}/errors`, {
      apiKey: context.apiKey,
    });
    return { status: 200, body: { ...final, data: undefined, errors: errors.body['errors'] } };
  };

/** A batch of hostile pages and one normal page: the final status with its errors. */
const batch =
  (paths: string[]) =>
  async (context: CaseContext): Promise<Answer> => {
    const started = await call<{ id?: string } & Body>(context.url, 'POST', '/v2/batch/scrape', {
      apiKey: context.apiKey,
      body: { urls: paths.map((path) => `${context.site.url}${path}`), maxAge: 0 },
    });
    if (started.status !== 200 || !started.body.id) return { status: started.status, body: started.body };
    const final = await untilFinished(context, `/v2/batch/scrape/${started.body.id}`, 90_000);
    const errors = await call<Body>(context.url, 'GET', `/v2/batch/scrape/${started.body.id}/errors`, {
      apiKey: context.apiKey,
    });
    return { status: 200, body: { ...final, data: undefined, errors: errors.body['errors'] } };
  };

const raw =
  (request: (context: CaseContext) => string) =>
  async (context: CaseContext): Promise<Answer> => {
    const answer = await rawHttpExchange(context.port, request(context));
    return { status: answer.status, body: answer.body as Body, headers: answer.headers };
  };

const BLOCKED = /^Blocked insecure target URL/;
const TOO_LARGE_LINKS = /page too large to process: 400,00\d links \(limit 100,000, MAX_PAGE_LINKS\)/;
const TOO_LARGE_ELEMENTS =
  /page too large to process: 80\d,\d{3} elements \(limit 200,000, MAX_PAGE_ELEMENTS\)/;
const DECODED = (encoding: string) =>
  new RegExp(
    `exceeds the limit of ${25 * MIB} bytes once decoded \\(Content-Encoding: ${encoding}\\).*MAX_RESPONSE_BYTES`,
  );

/** Bounds (MiB of the server's process tree): HTTP-only work, browser work (Chromium's processes included), document parsing. */
const HTTP = 3_000;
const BROWSER = 5_000;
const DOCS = 3_200;

/** A crawl whose start page is refused: the crawl fails with the page's error, which is in its errors with the code. */
const crawlRefused = (code: string, error: RegExp) => (answer: Answer) => {
  expectObject(answer.body, { status: 'failed', completed: 0, creditsUsed: 0 });
  expectText(String(answer.body['error']), error);
  const errors = answer.body['errors'] as { code?: string; error: string }[];
  if (!errors.some((entry) => entry.code === code && error.test(entry.error)))
    throw new Error(`expected a crawl error ${code} ${error}, got ${JSON.stringify(errors)}`);
};

function expectObject(actual: Record<string, unknown>, expected: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(expected))
    if (actual[key] !== value)
      throw new Error(
        `expected ${key}=${JSON.stringify(value)}, got ${JSON.stringify(actual[key])} in ${JSON.stringify(actual).slice(0, 400)}`,
      );
}

const metadata = (answer: Answer) => ((answer.body['data'] as Body | undefined)?.['metadata'] ?? {}) as Body;
const markdown = (answer: Answer) => String((answer.body['data'] as Body | undefined)?.['markdown'] ?? '');

function expectText(text: string, pattern: RegExp | string): void {
  const ok = typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
  if (!ok) throw new Error(`expected ${String(pattern)} in ${JSON.stringify(text.slice(0, 300))}`);
}

const officeBombs = (['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub'] as BombKind[]).map(
  (kind): HostileCase => ({
    name: `${kind} bomb (96 MiB entry)`,
    category: 'office bomb',
    run: parse(() => archiveBomb(kind, { bytes: 96 * MIB })),
    expect: { status: 422, code: 'DOCUMENT_TOO_LARGE', error: /expands beyond DOC_MAX_ENTRY_BYTES/ },
    rssBoundMib: DOCS,
    timeBoundMs: 30_000,
  }),
);

/**
 * The hostile corpus (issue 12): every case with the answer the spec documents for it. Refusals are
 * in the spec error shape `{success:false, error, code}` and cost nothing; handled pages are 200.
 */
export const HOSTILE_CASES: HostileCase[] = [
  // --- pages too large to build a DOM for (MAX_PAGE_LINKS / MAX_PAGE_ELEMENTS) ---
  {
    name: '400k links, HTTP engine',
    category: 'page size',
    run: siteScrape('/links'),
    expect: { status: 422, code: 'SCRAPE_SITE_ERROR', error: TOO_LARGE_LINKS },
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: '800k flat divs, HTTP engine',
    category: 'page size',
    run: siteScrape('/divs'),
    expect: { status: 422, code: 'SCRAPE_SITE_ERROR', error: TOO_LARGE_ELEMENTS },
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    // The browser path counts the document before Chromium is given it (DocumentSizeGuard): refused
    // like the HTTP path, where it used to take Chromium's renderer to 11.7 GB before the timeout.
    name: '400k links, browser (waitFor)',
    category: 'page size',
    run: siteScrape('/links', { waitFor: 100, timeout: 20_000 }),
    expect: { status: 422, code: 'SCRAPE_SITE_ERROR', error: TOO_LARGE_LINKS },
    rssBoundMib: BROWSER,
    timeBoundMs: 25_000,
  },
  {
    name: '800k flat divs, browser (waitFor)',
    category: 'page size',
    run: siteScrape('/divs', { waitFor: 100, timeout: 20_000 }),
    expect: { status: 422, code: 'SCRAPE_SITE_ERROR', error: TOO_LARGE_ELEMENTS },
    rssBoundMib: BROWSER,
    timeBoundMs: 25_000,
  },
  {
    name: '400k links, crawl',
    category: 'page size',
    run: crawl('/links'),
    expect: { status: 200, check: crawlRefused('SCRAPE_PAGE_TOO_LARGE', TOO_LARGE_LINKS) },
    rssBoundMib: HTTP,
    timeBoundMs: 60_000,
  },
  {
    name: '800k flat divs, crawl',
    category: 'page size',
    run: crawl('/divs'),
    expect: { status: 200, check: crawlRefused('SCRAPE_PAGE_TOO_LARGE', TOO_LARGE_ELEMENTS) },
    rssBoundMib: HTTP,
    timeBoundMs: 60_000,
  },
  // --- pathological markup that is handled ---
  {
    name: '100k nested divs',
    orTimeout: true,
    category: 'deep nesting',
    run: siteScrape('/deep', { timeout: 15_000 }),
    expect: { status: 200, check: (answer) => expectText(markdown(answer), 'the bottom of the well') },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 30_000,
  },
  {
    name: '10 MB attribute',
    orTimeout: true,
    category: 'huge node',
    run: siteScrape('/huge-attribute', { timeout: 15_000 }),
    expect: { status: 200, check: (answer) => expectText(markdown(answer), 'after the attribute') },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 30_000,
  },
  {
    name: '20 MB text node',
    orTimeout: true,
    category: 'huge node',
    run: siteScrape('/huge-text', { timeout: 15_000 }),
    expect: { status: 200, check: (answer) => expectText(markdown(answer).slice(0, 1_000), 'word word') },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 30_000,
  },
  {
    name: '5 MB <title> and meta description',
    orTimeout: true,
    category: 'huge node',
    run: siteScrape('/huge-title', { timeout: 15_000 }),
    expect: { status: 200, check: (answer) => expectText(markdown(answer), 'giant title') },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 30_000,
  },
  {
    name: 'invalid UTF-8 sequences',
    category: 'bytes',
    run: siteScrape('/invalid-utf8'),
    expect: { status: 200, check: (answer) => expectText(markdown(answer), /before .* after/) },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: 'NUL bytes in the page',
    category: 'bytes',
    // NUL bytes in the first 4 KiB make a body binary (WHATWG sniffing): no text, a warning, still a page
    run: siteScrape('/nul-bytes'),
    expect: {
      status: 200,
      metadataStatus: 200,
      check: (answer) => {
        if (markdown(answer) !== '') throw new Error('binary bytes were decoded as text');
        expectText(
          String((answer.body['data'] as Body)['warning']),
          /binary file \(text\/html\): no text was extracted/,
        );
      },
    },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: '0-byte body',
    category: 'bytes',
    run: siteScrape('/empty'),
    expect: { status: 200, metadataStatus: 200 },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: '2 MB of binary served as text/html',
    category: 'bytes',
    run: siteScrape('/binary-as-html'),
    expect: { status: 200, metadataStatus: 200 },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 30_000,
  },
  {
    name: 'SVG billion laughs (page)',
    category: 'entity expansion',
    run: siteScrape('/svg-laughs'),
    expect: {
      status: 200,
      check: (answer) => {
        if (markdown(answer).includes('lollollol')) throw new Error('entities were expanded');
      },
    },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: 'XML billion laughs (page)',
    category: 'entity expansion',
    run: siteScrape('/xml-laughs'),
    expect: {
      status: 200,
      check: (answer) => {
        if (markdown(answer).includes('lollollol')) throw new Error('entities were expanded');
      },
    },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: 'SVG billion laughs, browser',
    category: 'entity expansion',
    run: siteScrape('/svg-laughs', { waitFor: 100 }),
    expect: { status: 200 },
    credits: 1,
    rssBoundMib: BROWSER,
    timeBoundMs: 30_000,
  },
  {
    name: 'PNG declaring 100000×100000 (page)',
    category: 'absurd image',
    run: siteScrape('/absurd.png'),
    expect: { status: 422, code: 'DOCUMENT_INVALID', error: /^The image could not be read/ },
    rssBoundMib: HTTP,
    timeBoundMs: 30_000,
  },
  {
    name: 'page embedding the 100000×100000 PNG, browser + screenshot',
    category: 'absurd image',
    run: siteScrape('/absurd-image-page', { formats: ['markdown', 'screenshot'], timeout: 30_000 }),
    expect: { status: 200, check: (answer) => expectText(markdown(answer), 'absurd size') },
    credits: 1,
    rssBoundMib: BROWSER,
    timeBoundMs: 30_000,
  },
  // --- bodies that never end or arrive too slowly ---
  {
    // whichever comes first on a loaded machine: MAX_RESPONSE_BYTES or the request's timeout
    name: 'endless chunked body',
    orTimeout: true,
    category: 'endless body',
    run: siteScrape('/endless', { timeout: 15_000 }),
    expect: { status: 500, code: 'SCRAPE_SITE_ERROR', error: /MAX_RESPONSE_BYTES/ },
    rssBoundMib: HTTP,
    timeBoundMs: 25_000,
  },
  {
    name: 'trickling body (1 byte / 500 ms)',
    category: 'slow body',
    run: siteScrape('/trickle', { timeout: 3_000 }),
    expect: { status: 408, code: 'SCRAPE_TIMEOUT', error: /^Request Timeout/ },
    rssBoundMib: HTTP,
    timeBoundMs: 8_000,
  },
  {
    name: 'trickling body, browser',
    category: 'slow body',
    run: siteScrape('/trickle', { timeout: 4_000, waitFor: 100 }),
    expect: { status: 408, code: 'SCRAPE_TIMEOUT', error: /^Request Timeout/ },
    rssBoundMib: BROWSER,
    timeBoundMs: 10_000,
  },
  // --- compression bombs on every encoding accepted (1 GiB decoded) ---
  ...(['gzip', 'deflate', 'br'] as const).map((encoding): HostileCase => ({
    name: `${encoding} bomb (1 GiB)`,
    category: 'compression bomb',
    run: siteScrape(`/${encoding}`),
    expect: { status: 500, code: 'SCRAPE_SITE_ERROR', error: DECODED(encoding) },
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  })),
  {
    name: 'gzip, gzip bomb (1 GiB)',
    category: 'compression bomb',
    run: siteScrape('/gzip-gzip'),
    expect: { status: 500, code: 'SCRAPE_SITE_ERROR', error: DECODED('gzip, gzip') },
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: 'zstd bomb (not offered)',
    category: 'compression bomb',
    run: siteScrape('/zstd'),
    expect: { status: 500, code: 'SCRAPE_SITE_ERROR', error: /Content-Encoding zstd, which was not offered/ },
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    // The document is read decoded, a chunk at a time, before Chromium gets it; reading stops at
    // MAX_RESPONSE_BYTES, as on the HTTP path.
    name: 'gzip bomb, browser',
    category: 'compression bomb',
    run: siteScrape('/gzip', { waitFor: 100, timeout: 15_000 }),
    expect: { status: 500, code: 'SCRAPE_SITE_ERROR', error: DECODED('gzip') },
    rssBoundMib: BROWSER,
    timeBoundMs: 20_000,
  },
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
  // --- request shapes ---
  {
    name: 'Host, Content-Length and Connection in headers, browser',
    category: 'request',
    run: siteScrape('/echo-headers', {
      waitFor: 100,
      timeout: 20_000,
      headers: {
        Host: 'evil.example',
        'Content-Length': '999999',
        Connection: 'keep-alive, Upgrade',
        'Transfer-Encoding': 'chunked',
      },
    }),
    expect: {
      status: 200,
      check: (answer) => expectText(markdown(answer), 'quiet page of the hostile site'),
    },
    credits: 1,
    rssBoundMib: BROWSER,
    timeBoundMs: 20_000,
  },
  {
    name: '2,000 unknown keys',
    category: 'request',
    run: rawScrape(
      (context) => `${context.site.url}/ok`,
      Object.fromEntries(Array.from({ length: 2_000 }, (_, index) => [`unknown${index}`, index])),
    ),
    expect: { status: 400, code: 'BAD_REQUEST', error: /^Unrecognized key in body/ },
    rssBoundMib: HTTP,
    timeBoundMs: 5_000,
  },
  {
    name: '60 kB request header',
    category: 'request',
    run: raw(
      () =>
        `GET /v2/team/credit-usage HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(60_000)}\r\nConnection: close\r\n\r\n`,
    ),
    expect: { status: 431, error: /^Request Header Fields Too Large$/ },
    rssBoundMib: HTTP,
    timeBoundMs: 5_000,
  },
  {
    name: 'unknown method on /v2/scrape',
    category: 'request',
    run: raw(() => 'FOO /v2/scrape HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'),
    expect: {
      status: 405,
      error: /^Method Not Allowed$/,
      check: (answer) => expectObject(answer.headers ?? {}, { allow: 'POST' }),
    },
    rssBoundMib: HTTP,
    timeBoundMs: 5_000,
  },
  {
    name: 'private webhook URL at crawl creation',
    category: 'request',
    run: async (context) => {
      const response = await call<Body>(context.url, 'POST', '/v2/crawl', {
        apiKey: context.apiKey,
        body: {
          url: `${context.site.url}/ok`,
          limit: 1,
          webhook: `http://[::ffff:127.0.0.2]:${context.site.privateSite.port}/hook`,
        },
      });
      return { status: response.status, body: response.body };
    },
    expect: { status: 400, error: /^Webhook URL refused/ },
    rssBoundMib: HTTP,
    timeBoundMs: 5_000,
  },
  // --- batches mixing hostile and normal pages ---
  {
    name: 'batch: gzip bomb + 400k links + a normal page',
    category: 'batch',
    run: batch(['/gzip', '/links', '/ok']),
    expect: {
      status: 200,
      check: (answer) => {
        // `completed` counts the pages that succeeded; the refused ones are in the errors
        expectObject(answer.body, { status: 'completed', completed: 1, creditsUsed: 1 });
        const codes = (answer.body['errors'] as { code?: string }[]).map((entry) => entry.code).sort();
        if (codes.join() !== 'SCRAPE_PAGE_TOO_LARGE,SCRAPE_SITE_ERROR')
          throw new Error(`batch errors ${JSON.stringify(answer.body['errors'])}`);
      },
    },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 120_000,
  },
  // --- uploads to /v2/parse ---
  {
    name: 'garbage PDF',
    category: 'pdf',
    run: parse(() => ({ filename: 'garbage.pdf', data: garbagePdf() })),
    expect: { status: 422, code: 'DOCUMENT_INVALID' },
    rssBoundMib: DOCS,
    timeBoundMs: 20_000,
  },
  {
    name: 'encrypted PDF',
    category: 'pdf',
    run: parse(async () => ({ filename: 'encrypted.pdf', data: await encryptedPdf() })),
    expect: { status: 422, code: 'DOCUMENT_ENCRYPTED' },
    rssBoundMib: DOCS,
    timeBoundMs: 20_000,
  },
  {
    name: 'truncated PDF (half of it)',
    category: 'pdf',
    run: parse(async () => ({ filename: 'cut.pdf', data: truncated(await reportPdf(), 0.5) })),
    expect: { status: 422, code: 'DOCUMENT_INVALID' },
    rssBoundMib: DOCS,
    timeBoundMs: 20_000,
  },
  {
    name: 'PDF page with 4M path segments',
    category: 'pdf',
    run: parse(() => ({ filename: 'heavy.pdf', data: heavyPagePdf(1_000_000) })),
    expect: { status: 200, check: (answer) => expectText(markdown(answer), 'Light last page.') },
    credits: 2,
    rssBoundMib: DOCS,
    timeBoundMs: 60_000,
  },
  ...officeBombs,
  {
    name: 'docx bomb whose entry lies about its size',
    category: 'office bomb',
    run: parse(() => archiveBomb('docx', { bytes: 128 * MIB, declaredSize: 2_048 })),
    expect: { status: 422, code: 'DOCUMENT_TOO_LARGE', error: /declares 2048 bytes/ },
    rssBoundMib: DOCS,
    timeBoundMs: 30_000,
  },
  {
    name: 'docx declaring 2 GiB',
    category: 'office bomb',
    run: parse(() => archiveBomb('docx', { bytes: 2 * GIB })),
    expect: { status: 422, code: 'DOCUMENT_TOO_LARGE', error: /declares 214\d{7} bytes/ },
    rssBoundMib: DOCS,
    timeBoundMs: 30_000,
  },
  {
    // the image reaches OCR: its decoder refuses it, unless the OCR time budget ends first (loaded machine)
    name: 'PNG upload declaring 100000×100000',
    orTimeout: 'SCRAPE_PDF_INSUFFICIENT_TIME_ERROR',
    category: 'absurd image',
    run: parse(() => ({ filename: 'absurd.png', data: absurdPng(100_000, 100_000) })),
    expect: { status: 422, code: 'DOCUMENT_INVALID', error: /^The image could not be read/ },
    rssBoundMib: DOCS,
    timeBoundMs: 30_000,
  },
  {
    name: 'SVG billion laughs upload',
    category: 'entity expansion',
    run: parse(() => ({ filename: 'laughs.svg', data: Buffer.from(billionLaughs('svg')) })),
    expect: { status: 400, code: 'PARSE_UNSUPPORTED_FILE_TYPE' },
    rssBoundMib: DOCS,
    timeBoundMs: 20_000,
  },
];
