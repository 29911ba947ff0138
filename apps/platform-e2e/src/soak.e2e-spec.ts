import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { type FixtureServer, html, startFixtureServer } from '@quarry/testing';

import { type ApiResponse, call, upload } from './support/api-client';
import { startCrawlCluster } from './support/crawl-support';
import { type HostileSite, startHostileSite, treeRssMib } from './support/hostile-fixtures';
import { type Platform, startStandalone } from './support/platform';
import { REPO_ROOT, type ServiceProcess } from './support/service-process';

/**
 * The bounded soak of issue 12: 1,000 mixed requests at a concurrency of 8 — scrapes of ordinary
 * pages, crawls, batches and uploads, and 5% hostile pages from the corpus — first against one
 * process, then against the cluster (gateway, scrape worker and doc-parser over Kafka). Asserted:
 * no service process died, every request answered exactly once with the answer its kind documents,
 * nothing left active or queued, and the credits taken equal the pages that succeeded.
 */
const REQUESTS = 1_000;
const CONCURRENCY = 8;
const CLIENT_TIMEOUT_MS = 90_000;

type Kind = 'scrape' | 'hostile' | 'crawl' | 'batch' | 'parse';
type Body = Record<string, unknown>;

/** Hostile pages of the soak, cheap enough to repeat, with the answer each must get. */
const HOSTILE: { path: string; extra?: Body; status: number; code?: string; metadataStatus?: number }[] = [
  { path: '/gzip', status: 500, code: 'SCRAPE_SITE_ERROR' },
  { path: '/divs', status: 422, code: 'SCRAPE_SITE_ERROR' },
  { path: '/redirect-loop', status: 500, code: 'SCRAPE_SITE_ERROR' },
  { path: '/redirect-private', status: 200, metadataStatus: 403 },
  { path: '/trickle', extra: { timeout: 2_000 }, status: 408, code: 'SCRAPE_TIMEOUT' },
  { path: '/zstd', status: 500, code: 'SCRAPE_SITE_ERROR' },
];

/** Request `index` of the run: 5% hostile, 1% crawls, 1% batches, 2% uploads, the rest ordinary scrapes. */
function kindOf(index: number): Kind {
  if (index % 20 === 7) return 'hostile';
  if (index % 100 === 13) return 'crawl';
  if (index % 100 === 57) return 'batch';
  if (index % 50 === 31) return 'parse';
  return 'scrape';
}

interface Outcome {
  kind: Kind;
  status: number;
  /** `status` or `status code` of the answer: the figures' grouping. */
  label: string;
  ms: number;
  /** The answer is the one documented for its kind. */
  expected: boolean;
  /** Pages that succeeded (and so were billed). */
  pages: number;
  /** Credits the answer reports (metadata.creditsUsed, a job's creditsUsed). */
  creditsReported: number;
  detail?: string;
}

interface Figures {
  mode: string;
  requests: number;
  answered: number;
  unexpected: number;
  byLabel: Record<string, number>;
  p50: number;
  p99: number;
  peakRssMib: number;
  pages: number;
  creditsReported: number;
  creditsTaken: number;
  seconds: number;
}

function normalSite(): Promise<FixtureServer> {
  const article = (title: string, links = '') =>
    `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${title} is an ordinary page of the soak site with a paragraph of text.</p>${links}</main></body></html>`;
  return startFixtureServer({
    '/site/': html(article('Site', '<a href="/site/a">a</a> <a href="/site/b">b</a>')),
    '/site/a': html(article('Site A')),
    '/site/b': html(article('Site B')),
    '*': (request, response) =>
      void html(article(`Page ${(request.url ?? '/').slice(1)}`))(request, response),
  });
}

async function untilFinished(url: string, apiKey: string, path: string): Promise<Body> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const status = await call<Body>(url, 'GET', path, { apiKey });
    if (['completed', 'failed', 'cancelled'].includes(String(status.body['status']))) return status.body;
    if (Date.now() > deadline)
      throw new Error(`${path} not finished: ${JSON.stringify(status.body).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const metadataOf = (response: ApiResponse<Body>) =>
  ((response.body['data'] as Body | undefined)?.['metadata'] ?? {}) as Body;

async function oneRequest(
  index: number,
  url: string,
  apiKey: string,
  hostile: HostileSite,
  normal: FixtureServer,
): Promise<Outcome> {
  const kind = kindOf(index);
  const started = Date.now();
  const label = (response: ApiResponse<Body>) =>
    response.status >= 400
      ? `${response.status} ${String(response.body['code'] ?? '')}`.trim()
      : String(response.status);
  switch (kind) {
    case 'scrape': {
      const response = await call<Body>(url, 'POST', '/v2/scrape', {
        apiKey,
        body: { url: `${normal.url}/p${index}`, maxAge: 0 },
      });
      const metadata = metadataOf(response);
      const ok = response.status === 200 && metadata['statusCode'] === 200;
      return {
        kind,
        status: response.status,
        label: label(response),
        ms: Date.now() - started,
        expected: ok,
        pages: ok ? 1 : 0,
        creditsReported: Number(metadata['creditsUsed'] ?? 0),
        detail: ok ? undefined : JSON.stringify(response.body).slice(0, 200),
      };
    }
    case 'hostile': {
      const target = HOSTILE[Math.floor(index / 20) % HOSTILE.length];
      const response = await call<Body>(url, 'POST', '/v2/scrape', {
        apiKey,
        body: { url: `${hostile.url}${target.path}`, maxAge: 0, ...target.extra },
      });
      const metadata = metadataOf(response);
      const expected =
        response.status === target.status &&
        (target.code === undefined || response.body['code'] === target.code) &&
        (target.metadataStatus === undefined || metadata['statusCode'] === target.metadataStatus);
      return {
        kind,
        status: response.status,
        label: `${label(response)} (${target.path})`,
        ms: Date.now() - started,
        expected,
        pages: 0,
        creditsReported: Number(metadata['creditsUsed'] ?? 0),
        detail: expected ? undefined : JSON.stringify(response.body).slice(0, 200),
      };
    }
    case 'crawl':
    case 'batch': {
      const response =
        kind === 'crawl'
          ? await call<Body>(url, 'POST', '/v2/crawl', {
              apiKey,
              body: { url: `${normal.url}/site/`, limit: 3, sitemap: 'skip', scrapeOptions: { maxAge: 0 } },
            })
          : await call<Body>(url, 'POST', '/v2/batch/scrape', {
              apiKey,
              body: { urls: [0, 1, 2].map((n) => `${normal.url}/b${index}-${n}`), maxAge: 0 },
            });
      const ms = Date.now() - started;
      if (response.status !== 200)
        return {
          kind,
          status: response.status,
          label: label(response),
          ms,
          expected: false,
          pages: 0,
          creditsReported: 0,
          detail: JSON.stringify(response.body).slice(0, 200),
        };
      const final = await untilFinished(
        url,
        apiKey,
        kind === 'crawl'
          ? `/v2/crawl/${String(response.body['id'])}`
          : `/v2/batch/scrape/${String(response.body['id'])}`,
      );
      const expected = final['status'] === 'completed' && final['completed'] === 3;
      return {
        kind,
        status: 200,
        label: `200 ${kind} ${String(final['status'])}`,
        ms,
        expected,
        pages: Number(final['completed'] ?? 0),
        creditsReported: Number(final['creditsUsed'] ?? 0),
        detail: expected ? undefined : JSON.stringify({ ...final, data: undefined }).slice(0, 300),
      };
    }
    case 'parse': {
      const file = {
        filename: `upload-${index}.html`,
        data: Buffer.from(
          `<html><body><main><h1>Upload ${index}</h1><p>An uploaded page of the soak.</p></main></body></html>`,
        ),
        contentType: 'text/html',
      };
      const response = await upload<Body>(url, '/v2/parse', file, { apiKey });
      const metadata = metadataOf(response);
      const ok = response.status === 200;
      return {
        kind,
        status: response.status,
        label: `${label(response)} parse`,
        ms: Date.now() - started,
        expected: ok,
        pages: ok ? 1 : 0,
        creditsReported: Number(metadata['creditsUsed'] ?? 0),
        detail: ok ? undefined : JSON.stringify(response.body).slice(0, 200),
      };
    }
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

async function remainingCredits(url: string, apiKey: string): Promise<number> {
  return Number(
    (await call<{ data: { remainingCredits: number } }>(url, 'GET', '/v2/team/credit-usage', { apiKey })).body
      .data.remainingCredits,
  );
}

/** Runs the soak against `services` (the processes that must survive) through `url`. */
async function soak(
  mode: string,
  url: string,
  apiKey: string,
  services: ServiceProcess[],
  hostile: HostileSite,
  normal: FixtureServer,
): Promise<{ figures: Figures; outcomes: (Outcome | undefined)[]; answers: number[] }> {
  const pids = services.map((service) => service.process.pid as number);
  const creditsBefore = await remainingCredits(url, apiKey);
  let peak = 0;
  const sample = () =>
    (peak = Math.max(
      peak,
      pids.reduce((sum, pid) => sum + treeRssMib(pid), 0),
    ));
  const timer = setInterval(sample, 500);
  const started = Date.now();
  const outcomes: (Outcome | undefined)[] = new Array(REQUESTS).fill(undefined);
  const answers: number[] = new Array(REQUESTS).fill(0);
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      const index = next++;
      let timeout: NodeJS.Timeout | undefined;
      try {
        outcomes[index] = await Promise.race([
          oneRequest(index, url, apiKey, hostile, normal),
          new Promise<Outcome>(
            (_resolve, reject) =>
              (timeout = setTimeout(() => reject(new Error('client timeout')), CLIENT_TIMEOUT_MS)),
          ),
        ]);
      } catch (error) {
        outcomes[index] = {
          kind: kindOf(index),
          status: 0,
          label: `no answer: ${(error as Error).message}`,
          ms: Date.now() - started,
          expected: false,
          pages: 0,
          creditsReported: 0,
        };
      } finally {
        clearTimeout(timeout);
        answers[index] += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  clearInterval(timer);
  sample();
  const seconds = Math.round((Date.now() - started) / 1000);
  const done = outcomes.filter((outcome): outcome is Outcome => outcome !== undefined);
  const latencies = done.map((outcome) => outcome.ms).sort((a, b) => a - b);
  const byLabel: Record<string, number> = {};
  for (const outcome of done) byLabel[outcome.label] = (byLabel[outcome.label] ?? 0) + 1;
  // billing is written as each job finishes: give the last ones a moment
  let creditsTaken = 0;
  const pages = done.reduce((sum, outcome) => sum + outcome.pages, 0);
  for (let attempt = 0; attempt < 20; attempt += 1) {
    creditsTaken = creditsBefore - (await remainingCredits(url, apiKey));
    if (creditsTaken === pages) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const figures: Figures = {
    mode,
    requests: REQUESTS,
    answered: answers.filter((count) => count === 1).length,
    unexpected: done.filter((outcome) => !outcome.expected).length,
    byLabel,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    peakRssMib: Math.round(peak),
    pages,
    creditsReported: done.reduce((sum, outcome) => sum + outcome.creditsReported, 0),
    creditsTaken,
    seconds,
  };
  const text = `\n## Soak (${mode}) — ${new Date().toISOString()}\n\n\`\`\`\n${JSON.stringify(figures, null, 2)}\n\`\`\`\n`;
  mkdirSync(join(REPO_ROOT, 'tmp'), { recursive: true });
  appendFileSync(join(REPO_ROOT, 'tmp', 'soak.md'), text);
  process.stdout.write(text);
  for (const outcome of done.filter((entry) => !entry.expected).slice(0, 10))
    process.stdout.write(`unexpected: ${outcome.label} ${outcome.detail ?? ''}\n`);
  return { figures, outcomes, answers };
}

async function expectSoak(
  result: Awaited<ReturnType<typeof soak>>,
  services: ServiceProcess[],
  pids: number[],
  url: string,
  apiKey: string,
): Promise<void> {
  const { figures, answers } = result;
  // every request answered exactly once, each with the answer its kind documents
  expect(answers.every((count) => count === 1)).toBe(true);
  expect(Object.keys(figures.byLabel).filter((label) => label.startsWith('no answer'))).toEqual([]);
  expect(figures.unexpected).toBe(0);
  // 0 process deaths: the same processes, all running
  expect(services.map((service) => service.process.pid)).toEqual(pids);
  for (const service of services)
    if (service.process.exitCode !== null)
      console.log(`a process exited (${service.process.exitCode}):\n${service.logs.slice(-30).join('\n')}`);
  expect(services.map((service) => service.process.exitCode)).toEqual(services.map(() => null));
  // credits taken = pages that succeeded = credits the answers reported
  expect(figures.creditsTaken).toBe(figures.pages);
  expect(figures.creditsReported).toBe(figures.pages);
  // nothing left active or queued
  const queue = await call<Record<string, number>>(url, 'GET', '/v2/team/queue-status', { apiKey });
  expect({ active: queue.body['activeJobsInQueue'], waiting: queue.body['waitingJobsInQueue'] }).toEqual({
    active: 0,
    waiting: 0,
  });
}

const SERVER_ENV = {
  ALLOW_PRIVATE_NETWORKS: 'false',
  OUTBOUND_ALLOWLIST: '127.0.0.1',
  RATE_LIMIT_PER_MINUTE: '1000000',
  BROWSER_CONCURRENCY: '0',
};

describe('soak: 1,000 mixed requests, 5% hostile', () => {
  let hostile: HostileSite;
  let normal: FixtureServer;

  beforeAll(async () => {
    hostile = await startHostileSite();
    normal = await normalSite();
  }, 120_000);
  afterAll(async () => {
    await hostile?.close();
    await normal?.close();
  });

  describe('one process', () => {
    let platform: Platform;
    beforeAll(async () => {
      platform = await startStandalone(SERVER_ENV, { readyTimeoutMs: 360_000 });
    }, 400_000);
    afterAll(async () => platform?.stop());

    it('answers every request once, loses no process, bills exactly the pages that succeeded', async () => {
      const services = platform.gateways;
      const pids = services.map((service) => service.process.pid as number);
      const result = await soak('one process', platform.url(), platform.apiKey, services, hostile, normal);
      await expectSoak(result, services, pids, platform.url(), platform.apiKey);
    }, 1_500_000);
  });

  describe('cluster (gateway, scrape worker, doc-parser over Kafka)', () => {
    let platform: Platform & { publicUrl: string };
    beforeAll(async () => {
      platform = await startCrawlCluster({
        workers: 1,
        docParsers: 1,
        env: { ...SERVER_ENV, TEAM_CONCURRENCY_LIMIT: '16' },
      });
    }, 720_000);
    afterAll(async () => platform?.stop());

    it('answers every request once, loses no process, bills exactly the pages that succeeded', async () => {
      const services = [...platform.gateways, ...platform.workers, ...platform.docParsers];
      const pids = services.map((service) => service.process.pid as number);
      const result = await soak('cluster', platform.publicUrl, platform.apiKey, services, hostile, normal);
      await expectSoak(result, services, pids, platform.publicUrl, platform.apiKey);
    }, 1_500_000);
  });
});
