import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';

import { parse } from 'yaml';

import {
  expandGrafanaVariables,
  type FixtureHandler,
  type FixtureServer,
  html,
  parsePromql,
  type PromqlSelector,
  startFixtureServer,
} from '@quarry/testing';

import { REPO_ROOT, type ServiceProcess } from './service-process';

/** What the fake search provider answers: three of the site's crawl pages. */
export const crawlSearchResults = (siteUrl: string) => ({
  general: [1, 2, 3].map((index) => ({
    url: `${siteUrl}/crawl/p${index}`,
    title: `Crawl page ${index}`,
    content: `About widgets, page ${index}`,
  })),
  news: [],
  images: [],
});

/** The cluster's environment: traces to the OTLP receiver, searches to the fake provider. */
export const observabilityEnv = (otlpUrl: string, searchUrl: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
  SEARCH_PROVIDER_URL: searchUrl,
  MAP_CRAWL_PAGES: '2',
  // Few job slots, so that slow pages queue up (scrape backlog) while the sampler watches.
  WORKER_CONCURRENCY: '2',
  TEAM_CONCURRENCY_LIMIT: '8',
  CRAWL_SWEEP_INTERVAL_MS: '1000',
  AGENT_SCRAPE_TIMEOUT_MS: '30000',
});

/** OTLP/JSON span as the OTLP/HTTP exporter sends it (ids hex-encoded). */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: Record<string, unknown> }[];
}
export const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;

/** A collector in the test: an OTLP/HTTP endpoint (JSON) that keeps every span with its service name. */
export async function startOtlpReceiver(): Promise<{
  url: string;
  spans: (OtlpSpan & { service: string })[];
  close: () => Promise<void>;
}> {
  const spans: (OtlpSpan & { service: string })[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces' && request.method === 'POST') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: { stringValue?: string } }[] };
            scopeSpans: { spans: OtlpSpan[] }[];
          }[];
        };
        for (const resourceSpan of body.resourceSpans) {
          const service =
            resourceSpan.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value
              .stringValue ?? '';
          for (const scope of resourceSpan.scopeSpans)
            for (const span of scope.spans) spans.push({ ...span, service });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;
export const slow =
  (ms: number, handler: FixtureHandler): FixtureHandler =>
  async (request, response) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return handler(request, response);
  };
export const JS_MARKER = 'paintedbyscriptword';
/** A page whose content only scripts write (the HTTP answer needs JavaScript, so the browser renders it). */
export const jsPage = (extra = '') =>
  page(
    'Loading…',
    `<div id="root"></div>${extra}<script>setTimeout(() => { document.getElementById('root').innerHTML = '<main><h1>Client side</h1><p>' + 'painted' + 'byscriptword appears only after the scripts ran, with a few more words to read.</p></main>'; }, 30);</script>`,
  );
export const SLOW_PAGE_MS = 2_500;

/** Fixture site of the observability tests: static, slow, JavaScript and PDF pages, a small site to crawl and map, an agent's shop. */
export async function startObservabilitySite(pdf: Buffer): Promise<FixtureServer> {
  const article = (title: string, links = '') =>
    html(
      page(
        title,
        `<main><article><h1>${title}</h1><p>${title} is a page about widgets with enough words to be an article for the extractor.</p>${links}</article></main>`,
      ),
    );
  const routes: Record<string, FixtureHandler> = {
    '/js': html(jsPage()),
    // Its load event waits for a slow image: the browser page stays in use for seconds.
    '/js-slow': html(jsPage('<img src="/slow-image.png" alt="">')),
    '/slow-image.png': slow(
      SLOW_PAGE_MS,
      (_request, response) => void (response as ServerResponse).writeHead(404).end(),
    ),
    '/report.pdf': (_request, response) =>
      void response
        .writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(pdf.length) })
        .end(pdf),
    '/cached': article('Cached article'),
    // map: a slow start page linking to two fast ones
    '/site/': slow(SLOW_PAGE_MS, article('Site home', '<a href="/site/a">A</a> <a href="/site/b">B</a>')),
    '/site/a': article('Site page A'),
    '/site/b': article('Site page B'),
    // an agent's shop: the price is one slow link away
    '/shop/': slow(
      1_500,
      html(
        page(
          'Acme Shop',
          '<main><h1>Acme Shop</h1><p>Welcome to Acme. We make project software.</p><a href="/shop/pricing-pro">Pro plan pricing</a> <a href="/shop/about-us">About us</a></main>',
        ),
      ),
    ),
    '/shop/pricing-pro': slow(
      1_500,
      html(
        page(
          'Acme Pro plan',
          '<main><h1>Acme Pro plan</h1><p>The Pro plan costs $49 per month.</p></main>',
          `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Acme Pro', offers: { '@type': 'Offer', price: '49', priceCurrency: 'USD' } })}</script>`,
        ),
      ),
    ),
    '/shop/about-us': slow(
      1_500,
      html(page('About Acme', '<main><h1>About Acme</h1><p>Founded in 2001.</p></main>')),
    ),
    // crawl: a start page and 9 slow pages
    '/crawl/': article(
      'Crawl start',
      Array.from({ length: 9 }, (_, index) => `<a href="/crawl/p${index + 1}">Page ${index + 1}</a>`).join(
        ' ',
      ),
    ),
  };
  for (let index = 1; index <= 9; index += 1)
    routes[`/crawl/p${index}`] = slow(1_200, article(`Crawl page ${index}`));
  for (let index = 1; index <= 6; index += 1)
    routes[`/slow/${index}`] = slow(SLOW_PAGE_MS, article(`Slow page ${index}`));
  for (let index = 1; index <= 3; index += 1)
    routes[`/batch/${index}`] = slow(1_200, article(`Batch page ${index}`));
  // the batch's webhook receiver
  routes['/hooks'] = html('ok');
  return startFixtureServer(routes);
}

export const DASHBOARD_DIR = join(REPO_ROOT, 'deploy/helm/quarry/files/dashboards');
export const RULES_FILE = join(REPO_ROOT, 'deploy/helm/quarry/files/rules/quarry-alerts.yaml');

/** Every PromQL expression the deployment ships: dashboard panels and alert rules. */
export function shippedQueries(): { source: string; expr: string }[] {
  const dashboards = readdirSync(DASHBOARD_DIR).flatMap((file) => {
    const json = JSON.parse(readFileSync(join(DASHBOARD_DIR, file), 'utf8')) as {
      panels: { title: string; targets?: { expr: string }[] }[];
    };
    return json.panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({
        source: `${file}: ${panel.title}`,
        expr: expandGrafanaVariables(target.expr),
      })),
    );
  });
  const rules = (
    parse(readFileSync(RULES_FILE, 'utf8')) as { groups: { rules: { alert: string; expr: string }[] }[] }
  ).groups.flatMap((group) =>
    group.rules.map((rule) => ({ source: `alert ${rule.alert}`, expr: rule.expr })),
  );
  return [...dashboards, ...rules];
}

/** Every vector selector of every dashboard panel. */
export function dashboardSelectors(): { source: string; selector: PromqlSelector }[] {
  return readdirSync(DASHBOARD_DIR).flatMap((file) => {
    const json = JSON.parse(readFileSync(join(DASHBOARD_DIR, file), 'utf8')) as {
      panels: { title: string; targets?: { expr: string }[] }[];
    };
    return json.panels.flatMap((panel) =>
      (panel.targets ?? []).flatMap((target) =>
        parsePromql(expandGrafanaVariables(target.expr)).selectors.map((selector) => ({
          source: `${file}: ${panel.title}`,
          selector,
        })),
      ),
    );
  });
}

/**
 * Selectors of the dashboards that select only trouble a healthy run does not produce. Everything
 * else must show a non-zero sample after the traffic of these tests.
 */
export const TROUBLE_ONLY: { why: string; matches: (selector: PromqlSelector) => boolean }[] = [
  {
    why: 'work quarantined after it killed its worker twice (needs a poison page: poison.e2e-spec.ts drives it)',
    matches: (selector) => selector.metric === 'quarry_work_quarantined_total',
  },
  {
    why: 'publishing to Kafka failed after the client retries (needs a broker outage)',
    matches: (selector) => selector.metric === 'quarry_bus_publish_failures_total',
  },
  {
    why: 'agent runs that failed (the deterministic strategy succeeds on the fixture shop)',
    matches: (selector) =>
      selector.matchers.some((matcher) => matcher.label === 'outcome' && matcher.value === 'failed') &&
      selector.matchers.some((matcher) => matcher.label === 'kind' && matcher.value === 'agent'),
  },
  {
    why: 'lag of job.events and document.parse.jobs: a gateway reads completion events, a doc-parser parses a small PDF, within the 5 s the lag reading is cached',
    matches: (selector) =>
      selector.metric === 'quarry_bus_consumer_lag' &&
      selector.matchers.some(
        (matcher) =>
          (matcher.label === 'topic' && matcher.value.includes('job')) ||
          (matcher.label === 'group' && matcher.value === 'doc-parsers'),
      ),
  },
];

export interface Series {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Every sample of an exposition (`# ` lines skipped). */
export function seriesOf(exposition: string): Series[] {
  const series: Series[] = [];
  for (const line of exposition.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    series.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return series;
}

/**
 * Scrapes /metrics of every service every few hundred milliseconds and keeps, per series and
 * process, the largest value seen: gauges (running, pending, lag, browser pages in use) are only
 * non-zero while work is under way.
 */
export function startSampler(services: () => ServiceProcess[], intervalMs = 300) {
  const largest = new Map<string, Series>();
  let running = true;
  const scrapeOnce = async () => {
    await Promise.all(
      services().map(async (service) => {
        const text = await fetch(`${service.url}/metrics`).then(
          (response) => response.text(),
          () => '',
        );
        for (const entry of seriesOf(text)) {
          const key = `${service.name} ${entry.name}${JSON.stringify(entry.labels)}`;
          const known = largest.get(key);
          if (!known || entry.value > known.value) largest.set(key, entry);
        }
      }),
    );
  };
  const loop = (async () => {
    while (running) {
      await scrapeOnce();
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    series: () => [...largest.values()],
    scrapeOnce,
    stop: async () => {
      running = false;
      await loop;
      await scrapeOnce();
    },
  };
}

/** Queries over the spans received so far (`spans` is read at each call). */
export function spanQueries(spans: () => (OtlpSpan & { service: string })[]) {
  const trace = (traceId: string) => spans().filter((span) => span.traceId === traceId);
  const childOf = (parent: OtlpSpan, predicate: (span: OtlpSpan & { service: string }) => boolean) =>
    spans().find(
      (span) => span.traceId === parent.traceId && span.parentSpanId === parent.spanId && predicate(span),
    );
  /** The span's ancestors, nearest first. */
  const ancestors = (span: OtlpSpan): (OtlpSpan & { service: string })[] => {
    const chain: (OtlpSpan & { service: string })[] = [];
    let current: OtlpSpan | undefined = span;
    while (current?.parentSpanId) {
      const parentId: string = current.parentSpanId;
      current = spans().find(
        (candidate) => candidate.traceId === span.traceId && candidate.spanId === parentId,
      );
      if (current) chain.push(current as OtlpSpan & { service: string });
    }
    return chain;
  };
  const attribute = (span: OtlpSpan, key: string) =>
    span.attributes?.find((entry) => entry.key === key)?.value;
  /** The SERVER span of the gateway request that scraped `url`. */
  const scrapeTrace = async (url: string) => {
    const server = await eventually(() =>
      spans().find(
        (span) =>
          span.kind === SPAN_KIND.SERVER &&
          span.name === 'POST /v2/scrape' &&
          trace(span.traceId).some(
            (other) =>
              other.kind === SPAN_KIND.CLIENT &&
              (attribute(other, 'url.full') as { stringValue?: string } | undefined)?.stringValue === url,
          ),
      ),
    );
    expect(server.service).toBe('gateway');
    const sendJob = await eventually(() =>
      childOf(server, (span) => span.kind === SPAN_KIND.PRODUCER && /scrape\.jobs$/.test(span.name)),
    );
    const processJob = await eventually(() =>
      childOf(sendJob, (span) => span.kind === SPAN_KIND.CONSUMER && /scrape\.jobs$/.test(span.name)),
    );
    expect(processJob.service).toBe('scrape-worker');
    return { server, processJob };
  };
  /** The completion at the end: the outcome transaction and the event the gateway consumes. */
  const completion = async (processJob: OtlpSpan) => {
    await eventually(() => childOf(processJob, (span) => span.name === 'job complete'));
    const sendEvent = await eventually(() =>
      childOf(processJob, (span) => span.kind === SPAN_KIND.PRODUCER && /job\.events$/.test(span.name)),
    );
    await eventually(() =>
      childOf(
        sendEvent,
        (span) =>
          span.kind === SPAN_KIND.CONSUMER && /job\.events$/.test(span.name) && span.service === 'gateway',
      ),
    );
  };

  return { trace, childOf, ancestors, attribute, scrapeTrace, completion };
}

/** The Chromium main process among the children of a worker process. */
export function browserProcessOf(workerPid: number): number | undefined {
  const children = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(workerPid)], {
    encoding: 'utf8',
  }).split('\n');
  const line = children.find((entry) => /chrom/i.test(entry) && !/--type=/.test(entry));
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

/** The value of the first sample of `name` whose labels include `labels` (undefined when none). */
export function sample(exposition: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of exposition.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

export async function eventuallyAsync<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not observed within ${timeoutMs} ms: ${probe.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export async function eventually<T>(probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not observed within ${timeoutMs} ms: ${probe.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
