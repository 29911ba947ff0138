import {
  archiveBomb,
  type BombKind,
  encryptedPdf,
  garbagePdf,
  heavyPagePdf,
  reportPdf,
  truncated,
} from '@quarry/documents/fixtures';

import { call } from './api-client';
import {
  batch,
  type Body,
  BROWSER,
  DOCS,
  expectObject,
  expectText,
  type HostileCase,
  HTTP,
  markdown,
  parse,
  raw,
  rawScrape,
  siteScrape,
} from './hostile-case-kit';
import { absurdPng, billionLaughs, GIB, MIB } from './hostile-fixtures';

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

/** Hostile requests: request shapes, batches mixing hostile and normal pages, uploads to /v2/parse. */
export const REQUEST_CASES: HostileCase[] = [
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
