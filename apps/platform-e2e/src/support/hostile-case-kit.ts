import { rawHttpExchange } from '@quarry/testing';

import { call, upload } from './api-client';
import { type HostileSite, MIB } from './hostile-fixtures';

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
  /**
   * The longest the server may take to answer `/livez` while the case runs (ms; LOOP_BOUND_MS by
   * default): how long the case may hold the event loop that serves every other request.
   */
  loopBoundMs?: number;
}

/** Default of HostileCase.loopBoundMs. */
export const LOOP_BOUND_MS = 2_000;

export type Body = Record<string, unknown>;

export const scrape =
  (body: Body) =>
  async (context: CaseContext): Promise<Answer> => {
    const response = await call<Body>(context.url, 'POST', '/v2/scrape', {
      apiKey: context.apiKey,
      body: { maxAge: 0, ...body },
    });
    return { status: response.status, body: response.body };
  };

export const siteScrape =
  (path: string, extra: Body = {}) =>
  (context: CaseContext) =>
    scrape({ url: `${context.site.url}${path}`, ...extra })(context);

export const rawScrape =
  (url: (context: CaseContext) => string, extra: Body = {}) =>
  (context: CaseContext) =>
    scrape({ url: url(context), ...extra })(context);

export const parse =
  (file: () => Promise<{ filename: string; data: Buffer }> | { filename: string; data: Buffer }) =>
  async (context: CaseContext): Promise<Answer> => {
    const response = await upload<Body>(context.url, '/v2/parse', await file(), { apiKey: context.apiKey });
    return { status: response.status, body: response.body };
  };

export async function untilFinished(context: CaseContext, path: string, timeoutMs: number): Promise<Body> {
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
export const crawl =
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
export const batch =
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

export const raw =
  (request: (context: CaseContext) => string) =>
  async (context: CaseContext): Promise<Answer> => {
    const answer = await rawHttpExchange(context.port, request(context));
    return { status: answer.status, body: answer.body as Body, headers: answer.headers };
  };

export const BLOCKED = /^Blocked insecure target URL/;
export const TOO_LARGE_LINKS = /page too large to process: 400,00\d links \(limit 100,000, MAX_PAGE_LINKS\)/;
export const TOO_LARGE_ELEMENTS =
  /page too large to process: 80\d,\d{3} elements \(limit 200,000, MAX_PAGE_ELEMENTS\)/;
export const DECODED = (encoding: string) =>
  new RegExp(
    `exceeds the limit of ${25 * MIB} bytes once decoded \\(Content-Encoding: ${encoding}\\).*MAX_RESPONSE_BYTES`,
  );

/**
 * Bounds (MiB of the server's process tree): HTTP-only work, browser work (Chromium's processes
 * included), document parsing. The tree sits near 2,500 MiB once Chromium has run; a parse may add one
 * parse thread of up to DOC_WORKER_MEMORY_MB (1,024 by default), so documents get that much above it
 * (a 4M-operator PDF page peaked at 2,908 and at 3,382 MiB in two runs, depending on when V8 collects).
 */
export const HTTP = 3_000;
export const BROWSER = 5_000;
export const DOCS = 3_700;

/** A crawl whose start page is refused: the crawl fails with the page's error, which is in its errors with the code. */
export const crawlRefused = (code: string, error: RegExp) => (answer: Answer) => {
  expectObject(answer.body, { status: 'failed', completed: 0, creditsUsed: 0 });
  expectText(String(answer.body['error']), error);
  const errors = answer.body['errors'] as { code?: string; error: string }[];
  if (!errors.some((entry) => entry.code === code && error.test(entry.error)))
    throw new Error(`expected a crawl error ${code} ${error}, got ${JSON.stringify(errors)}`);
};

export function expectObject(actual: Record<string, unknown>, expected: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(expected))
    if (actual[key] !== value)
      throw new Error(
        `expected ${key}=${JSON.stringify(value)}, got ${JSON.stringify(actual[key])} in ${JSON.stringify(actual).slice(0, 400)}`,
      );
}

export const metadata = (answer: Answer) =>
  ((answer.body['data'] as Body | undefined)?.['metadata'] ?? {}) as Body;
export const markdown = (answer: Answer) =>
  String((answer.body['data'] as Body | undefined)?.['markdown'] ?? '');

export function expectText(text: string, pattern: RegExp | string): void {
  const ok = typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
  if (!ok) throw new Error(`expected ${String(pattern)} in ${JSON.stringify(text.slice(0, 300))}`);
}
