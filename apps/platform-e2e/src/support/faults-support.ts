import { type FixtureServer, startFixtureServer } from '@quarry/testing';

// Shared by the fault tests (faults.faults-spec.ts): the crawled site, the scrape client and load helpers.
export interface Outcome {
  url: string;
  status: number;
  body: {
    success?: boolean;
    data?: { markdown?: string; metadata?: { creditsUsed?: number } };
    error?: string;
    code?: string;
  };
  retryAfter: string | null;
  startedAt: number;
  ms: number;
}

/** Pages of the crawled site: the home page and /p/1 … /p/499. */
export const PAGES = 500;
/** Links per page: / links to /p/1–20, /p/n to /p/20n+1 … /p/20n+20 (up to /p/499). */
export const FANOUT = 20;
export const PAGE_DELAY_MS = 400;
export const PROXY_PORT = 3100;
/** Fields an error body may have (docs/compatibility.md#errors). */
export const SPEC_ERROR_FIELDS = ['success', 'error', 'code', 'details', 'retry_after_seconds'];

/** The page numbers /p/n links to (its children in a tree of PAGES − 1 pages under /). */
export const childrenOf = (n: number) =>
  Array.from({ length: FANOUT }, (_, index) => n * FANOUT + index + 1).filter((child) => child < PAGES);

/**
 * Pages /page/<n>?delay=<ms> (a unique marker per page, served after an optional delay) for the
 * scrape scenarios, and the crawl site: / and /p/1 … /p/499, each with its marker, links to its
 * children, its parent and the home page (so the crawler sees most URLs more than once), served after
 * PAGE_DELAY_MS.
 */
export async function startPageSite(): Promise<FixtureServer> {
  return startFixtureServer({
    '*': async (request, response) => {
      const url = new URL(request.url ?? '/', 'http://fixture');
      const crawlPage = url.pathname === '/' ? 0 : Number(/^\/p\/(\d+)$/.exec(url.pathname)?.[1] ?? NaN);
      if (Number.isInteger(crawlPage) && crawlPage < PAGES) {
        await new Promise((resolve) => setTimeout(resolve, PAGE_DELAY_MS));
        const parent = Math.floor((crawlPage - 1) / FANOUT);
        const links = [
          ...childrenOf(crawlPage).map((child) => `/p/${child}`),
          '/',
          crawlPage > 0 && parent > 0 ? `/p/${parent}` : '/',
        ]
          .map((href) => `<li><a href="${href}">${href}</a></li>`)
          .join('');
        return void response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            `<!doctype html><html><head><title>Crawl page ${crawlPage}</title></head><body><main><h1>Crawl page ${crawlPage}</h1><p>marker-crawl-${crawlPage} ${'text '.repeat(40)}</p><ul>${links}</ul></main></body></html>`,
          );
      }
      const match = /^\/page\/(\d+)$/.exec(url.pathname);
      if (!match) return void response.writeHead(404).end();
      const delay = Number(url.searchParams.get('delay') ?? 0);
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html><head><title>Page ${match[1]}</title></head><body><main><h1>Page ${match[1]}</h1><p>marker-page-${match[1]} ${'text '.repeat(40)}</p></main></body></html>`,
        );
    },
  });
}

/** POST /v2/scrape of `url` through `cluster`'s entry point: the outcome, whatever it is. */
export async function scrapeThrough(
  cluster: { url: string; apiKey: string },
  url: string,
  options: { timeoutMs?: number; clientTimeoutMs?: number } = {},
): Promise<Outcome> {
  const startedAt = Date.now();
  try {
    const response = await fetch(`${cluster.url}/v2/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cluster.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, formats: ['markdown'], timeout: options.timeoutMs ?? 120_000 }),
      signal: AbortSignal.timeout(options.clientTimeoutMs ?? 180_000),
    });
    const text = await response.text();
    let body: Outcome['body'] = {};
    try {
      body = JSON.parse(text) as Outcome['body'];
    } catch {
      body = { error: text.slice(0, 200) };
    }
    return {
      url,
      status: response.status,
      body,
      retryAfter: response.headers.get('retry-after'),
      startedAt,
      ms: Date.now() - startedAt,
    };
  } catch (error) {
    // A network error or the client's own timeout (status 0): what a hang would look like.
    return {
      url,
      status: 0,
      body: { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) },
      retryAfter: null,
      startedAt,
      ms: Date.now() - startedAt,
    };
  }
}

/** Runs `count` requests with at most `concurrency` in flight. */
export async function load<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}

export function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? 0 };
}

export const countBy = (outcomes: Outcome[]) =>
  outcomes.reduce<Record<string, number>>(
    (counts, outcome) => (
      (counts[String(outcome.status)] = (counts[String(outcome.status)] ?? 0) + 1),
      counts
    ),
    {},
  );
