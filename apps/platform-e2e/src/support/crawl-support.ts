import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';

import Firecrawl, { type Document } from '@mendable/firecrawl-js';
import { Client } from 'pg';

import { type CrawlSite, startCrawlSite } from '@quarry/testing';

import { type ClusterOptions, type Platform, startCluster } from './platform';
import { REPO_ROOT } from './service-process';

export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface CrawlCluster extends Platform {
  /** PUBLIC_URL of the gateway (absolute `next` links point at it). */
  publicUrl: string;
}

/**
 * A cluster for crawl tests: one gateway on a known port (so PUBLIC_URL, which builds absolute
 * `next` links, is right) and `workers` scrape workers, as separate processes on Kafka and PostgreSQL.
 */
export async function startCrawlCluster(
  options: ClusterOptions & { workers?: number } = {},
): Promise<CrawlCluster> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  // Every process of the cluster shares its env, which names the gateway's port: the workers and
  // doc-parsers are started afterwards on ports of their own.
  const platform = await startCluster({
    ...options,
    gateways: 1,
    workers: 0,
    docParsers: 0,
    env: {
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      TEAM_CONCURRENCY_LIMIT: '8',
      CRAWL_SWEEP_INTERVAL_MS: '1000',
      ...options.env,
    },
  });
  try {
    for (let index = 0; index < (options.workers ?? 2); index += 1) await platform.startWorker({ PORT: '0' });
    for (let index = 0; index < (options.docParsers ?? 0); index += 1)
      await platform.startDocParser({ PORT: '0' });
  } catch (error) {
    await platform.stop();
    throw error;
  }
  return { ...platform, publicUrl };
}

/** Creates a team with its own key through the admin CLI (as an operator would); `scopes` default to all. */
export async function createTeamKey(
  platform: Platform,
  team: string,
  credits: number,
  scopes?: string[],
): Promise<string> {
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(REPO_ROOT, 'tools/run-cli.cjs'),
        'keys',
        'create',
        '--team',
        team,
        '--credits',
        String(credits),
        ...(scopes ? ['--scopes', scopes.join(',')] : []),
      ],
      {
        cwd: REPO_ROOT,
        env: {
          PATH: process.env['PATH'] ?? '',
          HOME: process.env['HOME'] ?? '/tmp',
          DATABASE_URL: platform.env['DATABASE_URL'],
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`cli exited ${code}: ${stderr}`)),
    );
  });
  const key = output.trim().split('\n').pop();
  if (!key?.startsWith('fc-')) throw new Error(`unexpected cli output: ${output}`);
  return key;
}

/** Runs SQL against the cluster's database (assertions only). */
export async function query<T = Record<string, unknown>>(
  platform: Platform,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new Client({ connectionString: platform.env['DATABASE_URL'] });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  raw: string;
  body: {
    success: boolean;
    type: string;
    id: string;
    webhookId: string;
    data: unknown[];
    error?: string;
    metadata: Record<string, unknown>;
  };
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answer this status to the next `count` requests (then 200 again). */
  failNext(count: number, status?: number): void;
  close(): Promise<void>;
}

/** A local webhook receiver on 127.0.0.1 recording every request in arrival order. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let failures = 0;
  let failureStatus = 500;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      if (failures > 0) {
        failures -= 1;
        response.writeHead(failureStatus).end('try again');
        return;
      }
      received.push({
        headers: request.headers,
        raw,
        body: JSON.parse(raw) as ReceivedWebhook['body'],
        at: Date.now(),
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    failNext: (count, status = 500) => {
      failures = count;
      failureStatus = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface FakeSearchResult {
  url: string;
  title: string;
  content: string;
  publishedDate?: string;
  img_src?: string;
  thumbnail_src?: string;
  resolution?: string;
}

export interface FakeSearxng {
  url: string;
  /** Requests seen (query parameters). */
  requests: URLSearchParams[];
  close(): Promise<void>;
}

/**
 * A stand-in for an external web search service speaking SearXNG's JSON protocol
 * (`GET /search?q=…&format=json&pageno=…&categories=…`), serving `perPage` results a page from the
 * given result lists per category.
 */
export async function startFakeSearxng(
  results: Record<'general' | 'news' | 'images', FakeSearchResult[]> &
    Partial<Record<string, FakeSearchResult[]>>,
  perPage = 10,
): Promise<FakeSearxng> {
  const requests: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname !== '/search' || url.searchParams.get('format') !== 'json') {
      response.writeHead(400).end('format=json required');
      return;
    }
    requests.push(url.searchParams);
    const category = url.searchParams.get('categories') ?? 'general';
    const page = Number(url.searchParams.get('pageno') ?? '1');
    const all = results[category] ?? [];
    const slice = all
      .slice((page - 1) * perPage, page * perPage)
      .map((result) => ({ ...result, engine: 'fake', category }));
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(
        JSON.stringify({ query: url.searchParams.get('q'), number_of_results: all.length, results: slice }),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `check` until it returns a value (not undefined) or the time runs out. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 60_000,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The crawl suites' shared parts: the fixture site, a cluster of 2 workers, the unmodified SDK. */
export interface CrawlSuite {
  site: CrawlSite;
  platform: CrawlCluster;
  firecrawl: Firecrawl;
}

/**
 * Registers the suite's beforeAll/afterAll for crawl.e2e-spec.ts and crawl-requests.e2e-spec.ts: the
 * crawl fixture site and gateway + 2 workers on Kafka and PostgreSQL (trap bound 5, private networks
 * refused but the fixture's 127.0.0.1 allowed). Read the fields inside hooks and tests.
 */
export function useCrawlSuite(): CrawlSuite {
  const suite = {} as CrawlSuite;
  beforeAll(async () => {
    suite.site = await startCrawlSite();
    suite.platform = await startCrawlCluster({
      workers: 2,
      env: { CRAWL_TRAP_MAX_RUN: '5', OUTBOUND_ALLOWLIST: '127.0.0.1', ALLOW_PRIVATE_NETWORKS: 'false' },
    });
    suite.firecrawl = new Firecrawl({ apiKey: suite.platform.apiKey, apiUrl: suite.platform.publicUrl });
  }, 180_000);
  afterAll(async () => {
    await suite.platform?.stop();
    await suite.site?.close();
  });
  return suite;
}

/** A document's path, prefixed with its host when it is not the fixture's localhost. */
export function crawledPathOf(document: Document): string {
  const url = new URL(String(document.metadata?.sourceURL));
  return `${url.hostname === 'localhost' ? '' : url.hostname}${url.pathname}${url.search}`;
}

/** The map/search suites' shared parts: the crawl site, a fake SearXNG, gateway + 1 worker. */
export interface MapSearchSuite {
  site: CrawlSite;
  searxng: FakeSearxng;
  platform: CrawlCluster;
}

/**
 * Registers the suite's beforeAll/afterAll for map-search-usage.e2e-spec.ts and
 * map-search-billing.e2e-spec.ts: `results` served by a fake SearXNG as the web search provider, a
 * light map crawl of 3 pages. Read the fields inside hooks and tests.
 */
export function useMapSearchSuite(results: Parameters<typeof startFakeSearxng>[0]): MapSearchSuite {
  const suite = {} as MapSearchSuite;
  beforeAll(async () => {
    suite.site = await startCrawlSite();
    suite.searxng = await startFakeSearxng(results);
    suite.platform = await startCrawlCluster({
      workers: 1,
      env: { SEARCH_PROVIDER_URL: suite.searxng.url, MAP_CRAWL_PAGES: '3' },
    });
  }, 180_000);
  afterAll(async () => {
    await suite.platform?.stop();
    await suite.searxng?.close();
    await suite.site?.close();
  });
  return suite;
}
