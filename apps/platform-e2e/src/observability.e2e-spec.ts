import { execFileSync, spawnSync } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportPdf } from '@quarry/documents/fixtures';
import {
  BASIC_SITE,
  expandGrafanaVariables,
  exposedMetricNames,
  html,
  matchesLabel,
  parsePromql,
  startBasicSite,
  startFixtureServer,
  uniqueName,
  type FixtureHandler,
  type FixtureServer,
  type PromqlSelector,
} from '@quarry/testing';
import { parse } from 'yaml';
import { cli, waitForAgent } from './support/agent-support';
import { call } from './support/api-client';
import { freePort, startFakeSearxng, type FakeSearxng } from './support/crawl-support';
import { startCluster, type Platform } from './support/platform';
import { REPO_ROOT, startService, type ServiceProcess } from './support/service-process';

jest.setTimeout(300_000);

/** OTLP/JSON span as the OTLP/HTTP exporter sends it (ids hex-encoded). */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: Record<string, unknown> }[];
}
const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;

/** A collector in the test: an OTLP/HTTP endpoint (JSON) that keeps every span with its service name. */
async function startOtlpReceiver(): Promise<{
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

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;
const slow =
  (ms: number, handler: FixtureHandler): FixtureHandler =>
  async (request, response) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return handler(request, response);
  };
const JS_MARKER = 'paintedbyscriptword';
/** A page whose content only scripts write (the HTTP answer needs JavaScript, so the browser renders it). */
const jsPage = (extra = '') =>
  page(
    'Loading…',
    `<div id="root"></div>${extra}<script>setTimeout(() => { document.getElementById('root').innerHTML = '<main><h1>Client side</h1><p>' + 'painted' + 'byscriptword appears only after the scripts ran, with a few more words to read.</p></main>'; }, 30);</script>`,
  );
const SLOW_PAGE_MS = 2_500;

/** Fixture site of the observability tests: static, slow, JavaScript and PDF pages, a small site to crawl and map, an agent's shop. */
async function startObservabilitySite(pdf: Buffer): Promise<FixtureServer> {
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

const DASHBOARD_DIR = join(REPO_ROOT, 'deploy/helm/quarry/files/dashboards');
const RULES_FILE = join(REPO_ROOT, 'deploy/helm/quarry/files/rules/quarry-alerts.yaml');

/** Every PromQL expression the deployment ships: dashboard panels and alert rules. */
function shippedQueries(): { source: string; expr: string }[] {
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
function dashboardSelectors(): { source: string; selector: PromqlSelector }[] {
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
const TROUBLE_ONLY: { why: string; matches: (selector: PromqlSelector) => boolean }[] = [
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

interface Series {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Every sample of an exposition (`# ` lines skipped). */
function seriesOf(exposition: string): Series[] {
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
function startSampler(services: () => ServiceProcess[], intervalMs = 300) {
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

describe('observability of the cluster mode (gateway, worker, doc-parser, agent orchestrator over Kafka)', () => {
  let platform: Platform;
  let orchestrator: ServiceProcess;
  let basic: FixtureServer;
  let site: FixtureServer;
  let searxng: FakeSearxng;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let sampler: ReturnType<typeof startSampler>;
  const services = () =>
    [...platform.gateways, ...platform.workers, ...platform.docParsers, orchestrator].filter(Boolean);

  beforeAll(async () => {
    basic = await startBasicSite();
    site = await startObservabilitySite(await reportPdf());
    receiver = await startOtlpReceiver();
    searxng = await startFakeSearxng({
      general: [1, 2, 3].map((index) => ({
        url: `${site.url}/crawl/p${index}`,
        title: `Crawl page ${index}`,
        content: `About widgets, page ${index}`,
      })),
      news: [],
      images: [],
    });
    platform = await startCluster({
      gateways: 1,
      workers: 1,
      docParsers: 1,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        SEARCH_PROVIDER_URL: searxng.url,
        MAP_CRAWL_PAGES: '2',
        // Few job slots, so that slow pages queue up (scrape backlog) while the sampler watches.
        WORKER_CONCURRENCY: '2',
        TEAM_CONCURRENCY_LIMIT: '8',
        CRAWL_SWEEP_INTERVAL_MS: '1000',
        AGENT_SCRAPE_TIMEOUT_MS: '30000',
      },
    });
    orchestrator = await startService('agent-orchestrator', platform.env, { label: 'agent-orchestrator' });
    sampler = startSampler(services);
  });
  afterAll(async () => {
    await sampler?.stop();
    await orchestrator?.stop();
    await platform?.stop();
    await Promise.all([basic?.close(), site?.close(), searxng?.close(), receiver?.close()]);
  });

  const trace = (traceId: string) => receiver.spans.filter((span) => span.traceId === traceId);
  const childOf = (parent: OtlpSpan, predicate: (span: OtlpSpan & { service: string }) => boolean) =>
    receiver.spans.find(
      (span) => span.traceId === parent.traceId && span.parentSpanId === parent.spanId && predicate(span),
    );
  /** The span's ancestors, nearest first. */
  const ancestors = (span: OtlpSpan): (OtlpSpan & { service: string })[] => {
    const chain: (OtlpSpan & { service: string })[] = [];
    let current: OtlpSpan | undefined = span;
    while (current?.parentSpanId) {
      const parentId: string = current.parentSpanId;
      current = receiver.spans.find(
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
      receiver.spans.find(
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

  it('follows one scrape in one trace: gateway SERVER span → Kafka producer → worker consumer → fetch → outcome → completion event back at the gateway', async () => {
    const response = await call<{ success: boolean; data: { markdown: string } }>(
      platform.url(),
      'POST',
      '/v2/scrape',
      {
        apiKey: platform.apiKey,
        body: { url: `${basic.url}/article` },
      },
    );
    expect(response.status).toBe(200);
    expect(response.body.data.markdown).toContain(BASIC_SITE.articleMarker);

    const { processJob } = await scrapeTrace(`${basic.url}/article`);
    // `fetch <engine>`: the engine of the worker (`browser` when it has Chromium: HTTP first, the browser when needed).
    const fetched = await eventually(() =>
      childOf(
        processJob,
        (span) => span.kind === SPAN_KIND.CLIENT && /^fetch (http|browser)$/.test(span.name),
      ),
    );
    expect(attribute(fetched, 'url.full')).toEqual({ stringValue: `${basic.url}/article` });
    // A static article needs no browser: no render span.
    expect(trace(fetched.traceId).some((span) => span.name === 'browser render')).toBe(false);
    await completion(processJob);
    // Probes and metrics scrapes are not traced.
    expect(receiver.spans.some((span) => /livez|readyz|metrics/.test(span.name))).toBe(false);
  });

  it('continues a caller’s W3C trace context', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await call(platform.url(), 'POST', '/v2/scrape', {
      apiKey: platform.apiKey,
      // maxAge 0: past the gateway's scrape cache (the first test stored this page), so a worker runs.
      body: { url: `${basic.url}/article`, maxAge: 0 },
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    const server = await eventually(() =>
      receiver.spans.find((span) => span.traceId === traceId && span.kind === SPAN_KIND.SERVER),
    );
    expect(server.parentSpanId).toBe('00f067aa0ba902b7');
    await eventually(() =>
      receiver.spans.find((span) => span.traceId === traceId && span.service === 'scrape-worker'),
    );
  });

  it('follows a page that needs JavaScript into Chromium: gateway → scrape.jobs → worker → fetch browser → browser render → completion', async () => {
    const response = await call<{
      success: boolean;
      data: { markdown: string; metadata: Record<string, unknown> };
    }>(platform.url(), 'POST', '/v2/scrape', {
      apiKey: platform.apiKey,
      body: { url: `${site.url}/js` },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.markdown).toContain(JS_MARKER);
    expect(response.body.data.metadata['engineFallback']).toMatch(/http → browser/);

    const { server, processJob } = await scrapeTrace(`${site.url}/js`);
    const fetched = await eventually(() =>
      childOf(processJob, (span) => span.kind === SPAN_KIND.CLIENT && span.name === 'fetch browser'),
    );
    const render = await eventually(() => childOf(fetched, (span) => span.name === 'browser render'));
    expect(render.service).toBe('scrape-worker');
    expect(attribute(render, 'url.full')).toEqual({ stringValue: `${site.url}/js` });
    expect(attribute(render, 'http.response.status_code')).toEqual({ intValue: 200 });
    expect(ancestors(render).map((span) => span.spanId)).toEqual(
      expect.arrayContaining([processJob.spanId, server.spanId]),
    );
    await completion(processJob);
  });

  it('records no URL in any span of a zero-data-retention scrape, Chromium included', async () => {
    const traceId = '5c0ffee5c0ffee5c0ffee5c0ffee5c0f';
    const secret = 'zdr-secret-7d1f';
    const response = await call<{ success: boolean; data: { markdown: string } }>(
      platform.url(),
      'POST',
      '/v2/scrape',
      {
        apiKey: platform.apiKey,
        body: { url: `${site.url}/js?token=${secret}`, zeroDataRetention: true },
        headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      },
    );
    expect(response.status).toBe(200);
    expect(response.body.data.markdown).toContain(JS_MARKER);
    // The page went through Chromium, and the render span is there, without the URL.
    const render = await eventually(() =>
      trace(traceId).find((span) => span.name === 'browser render' && span.service === 'scrape-worker'),
    );
    expect(attribute(render, 'url.full')).toBeUndefined();
    await eventually(() =>
      trace(traceId).find((span) => /job\.events$/.test(span.name) && span.service === 'gateway'),
    );
    const spans = trace(traceId);
    expect(spans.length).toBeGreaterThan(4);
    expect(JSON.stringify(spans)).not.toContain(secret);
    expect(JSON.stringify(spans)).not.toContain(`${site.url}/js`);
  });

  it('follows a PDF to the doc-parser and back: gateway → scrape.jobs → worker → document.parse.jobs → doc-parser parse → document.parse.results → worker → completion', async () => {
    const response = await call<{
      success: boolean;
      data: { markdown: string; metadata: Record<string, unknown> };
    }>(platform.url(), 'POST', '/v2/scrape', {
      apiKey: platform.apiKey,
      body: { url: `${site.url}/report.pdf` },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.metadata).toMatchObject({
      contentType: 'application/pdf',
      numPages: expect.any(Number),
    });
    expect(response.body.data.markdown.length).toBeGreaterThan(100);

    const { server, processJob } = await scrapeTrace(`${site.url}/report.pdf`);
    const sendParse = await eventually(() =>
      trace(server.traceId).find(
        (span) => span.kind === SPAN_KIND.PRODUCER && /document\.parse\.jobs$/.test(span.name),
      ),
    );
    expect(sendParse.service).toBe('scrape-worker');
    expect(ancestors(sendParse).map((span) => span.spanId)).toContain(processJob.spanId);
    const processParse = await eventually(() =>
      childOf(
        sendParse,
        (span) => span.kind === SPAN_KIND.CONSUMER && /document\.parse\.jobs$/.test(span.name),
      ),
    );
    expect(processParse.service).toBe('doc-parser');
    const parseSpan = await eventually(() => childOf(processParse, (span) => span.name === 'parse pdf'));
    expect(attribute(parseSpan, 'quarry.document.pages')).toEqual({
      intValue: response.body.data.metadata['numPages'],
    });
    const sendResult = await eventually(() =>
      childOf(
        processParse,
        (span) => span.kind === SPAN_KIND.PRODUCER && /document\.parse\.results$/.test(span.name),
      ),
    );
    const resultAtWorker = await eventually(() =>
      childOf(
        sendResult,
        (span) => span.kind === SPAN_KIND.CONSUMER && /document\.parse\.results$/.test(span.name),
      ),
    );
    expect(resultAtWorker.service).toBe('scrape-worker');
    await completion(processJob);
  });

  it('gives every series a dashboard panel queries a non-zero sample after scrapes, a crawl, a batch, a map, a search, an agent run and a browser crash', async () => {
    const key = platform.apiKey;
    const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown, apiKey = key) =>
      call<T>(platform.url(), method, path, { apiKey, body });
    const poll = async <T extends { status: string }>(
      path: string,
      done: (body: T) => boolean,
      timeoutMs = 120_000,
    ): Promise<T> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const response = await api<T>('GET', path);
        if (response.status === 200 && done(response.body)) return response.body;
        if (Date.now() > deadline)
          throw new Error(`${path} still ${JSON.stringify(response.body).slice(0, 300)}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };
    const closedPort = await freePort();
    // A team allowed one request per minute: its second answers 429.
    const limitedTeam = uniqueName('limited');
    await cli(platform.env['DATABASE_URL'], [
      'teams',
      'create',
      limitedTeam,
      '--rate-limit',
      '1',
      '--credits',
      '100',
    ]);
    const limitedKeyLines = await cli(platform.env['DATABASE_URL'], [
      'keys',
      'create',
      '--team',
      limitedTeam,
    ]);
    const limitedKey = limitedKeyLines[limitedKeyLines.length - 1];

    const crawl = (async () => {
      const started = await api<{ id: string }>('POST', '/v2/crawl', {
        url: `${site.url}/crawl/`,
        limit: 10,
        maxConcurrency: 2,
        sitemap: 'skip',
      });
      expect(started.status).toBe(200);
      const done = await poll<{ status: string; completed: number }>(
        `/v2/crawl/${started.body.id}`,
        (body) => body.status !== 'scraping',
      );
      expect(done).toMatchObject({ status: 'completed', completed: 10 });
    })();
    const failedCrawl = (async () => {
      const started = await api<{ id: string }>('POST', '/v2/crawl', {
        url: `http://127.0.0.1:${closedPort}/`,
        limit: 2,
      });
      expect(started.status).toBe(200);
      expect(
        (await poll<{ status: string }>(`/v2/crawl/${started.body.id}`, (body) => body.status !== 'scraping'))
          .status,
      ).toBe('failed');
    })();
    const batch = (async () => {
      const started = await api<{ id: string }>('POST', '/v2/batch/scrape', {
        urls: [1, 2, 3].map((index) => `${site.url}/batch/${index}`),
        webhook: `${site.url}/hooks`,
      });
      expect(started.status).toBe(200);
      expect(
        await poll<{ status: string; completed: number }>(
          `/v2/batch/scrape/${started.body.id}`,
          (body) => body.status !== 'scraping',
        ),
      ).toMatchObject({ status: 'completed', completed: 3 });
      // started, three pages and completed, all delivered (quarry_webhook_deliveries_total)
      expect(
        await poll<{ status: string; webhookDelivery?: { pending: number } }>(
          `/v2/batch/scrape/${started.body.id}`,
          (body) => body.webhookDelivery?.pending === 0,
        ),
      ).toMatchObject({ webhookDelivery: { delivered: 5, pending: 0, failed: 0 } });
    })();
    const slowScrapes = Promise.all(
      [1, 2, 3, 4, 5, 6].map(async (index) =>
        expect(
          (await api('POST', '/v2/scrape', { url: `${site.url}/slow/${index}`, maxAge: 0 })).status,
        ).toBe(200),
      ),
    );
    const map = (async () => {
      const mapped = await api<{ success: boolean; links: { url: string }[] }>('POST', '/v2/map', {
        url: `${site.url}/site/`,
        sitemap: 'skip',
      });
      expect(mapped.status).toBe(200);
      expect(mapped.body.links.map((link) => link.url)).toEqual(
        expect.arrayContaining([`${site.url}/site/a`, `${site.url}/site/b`]),
      );
    })();
    const search = (async () => {
      const found = await api<{
        success: boolean;
        creditsUsed: number;
        data: { web: { url: string; markdown?: string }[] };
      }>('POST', '/v2/search', {
        query: 'widgets',
        limit: 3,
        scrapeOptions: { formats: ['markdown'] },
      });
      expect(found.status).toBe(200);
      expect(found.body.creditsUsed).toBeGreaterThan(0);
      expect(found.body.data.web.some((result) => (result.markdown ?? '').includes('widgets'))).toBe(true);
    })();
    const agent = (async () => {
      const started = await api<{ id: string }>('POST', '/v2/agent', {
        prompt: 'What does the Acme Pro pricing plan cost?',
        urls: [`${site.url}/shop/`],
        schema: {
          type: 'object',
          properties: { name: { type: 'string' }, price: { type: 'number' } },
          required: ['name', 'price'],
        },
      });
      expect(started.status).toBe(200);
      const status = await waitForAgent(platform.url(), key, started.body.id, { timeoutMs: 150_000 });
      expect(status).toMatchObject({ status: 'completed', data: { name: 'Acme Pro', price: 49 } });
    })();
    const errors = (async () => {
      expect((await api('POST', '/v2/scrape', { url: 'not a url' })).status).toBe(400);
      // A target that refuses connections: the scrape job fails (5xx in the spec's shape).
      const refused = await api<{ success: boolean }>('POST', '/v2/scrape', {
        url: `http://127.0.0.1:${closedPort}/`,
        maxAge: 0,
      });
      expect(refused.status).toBeGreaterThanOrEqual(500);
      expect(refused.body.success).toBe(false);
      // One request a minute in fixed windows: of three requests within a minute at most two fall in
      // different windows, so at least one is refused whatever the moment the first is sent.
      const limited: number[] = [];
      for (let index = 0; index < 3; index += 1)
        limited.push((await api('POST', '/v2/scrape', { url: `${site.url}/site/a` }, limitedKey)).status);
      expect(limited[0]).toBe(200);
      expect(limited).toContain(429);
      // The same page again within maxAge: a cache hit at the gateway.
      expect((await api('POST', '/v2/scrape', { url: `${site.url}/cached` })).status).toBe(200);
      const again = await api<{ data: { metadata: { cacheState?: string } } }>('POST', '/v2/scrape', {
        url: `${site.url}/cached`,
      });
      expect(again.body.data.metadata.cacheState).toBe('hit');
    })();
    const browser = (async () => {
      // Chromium dies under the worker (kill -9 of the browser process): the pool relaunches it.
      const chromium = browserProcessOf(platform.workers[0].process.pid as number);
      expect(chromium).toBeDefined();
      process.kill(chromium as number, 'SIGKILL');
      // A page whose load waits for a slow image keeps a browser page in use for seconds.
      const rendered = await api<{ data: { markdown: string } }>('POST', '/v2/scrape', {
        url: `${site.url}/js-slow`,
        maxAge: 0,
      });
      expect(rendered.status).toBe(200);
      expect(rendered.body.data.markdown).toContain(JS_MARKER);
    })();
    await Promise.all([crawl, failedCrawl, batch, slowScrapes, map, search, agent, errors, browser]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await sampler.scrapeOnce();

    const series = sampler.series();
    const troubleOnly = (selector: PromqlSelector) => TROUBLE_ONLY.find((entry) => entry.matches(selector));
    const matching = (selector: PromqlSelector) =>
      series.filter(
        (entry) =>
          entry.name === selector.metric &&
          selector.matchers.every((matcher) => matchesLabel(matcher, entry.labels[matcher.label])),
      );
    const silent: string[] = [];
    const selectors = dashboardSelectors();
    expect(selectors.length).toBeGreaterThan(60);
    for (const { source, selector } of selectors) {
      if (troubleOnly(selector)) continue;
      const found = matching(selector);
      if (!found.some((entry) => entry.value > 0)) {
        const text = `${selector.metric}{${selector.matchers.map((matcher) => `${matcher.label}${matcher.op}"${matcher.value}"`).join(',')}}`;
        silent.push(`${source}: ${text} (${found.length} series, all zero)`);
      }
    }
    expect(silent).toEqual([]);
    // The check fails on a label value nobody emits, as the dashboards had (kind="crawl|batch_scrape|map" for pages that were crawl_page).
    for (const stale of [
      'quarry_jobs_running{kind=~"crawl|batch_scrape"}',
      'quarry_jobs_finished_total{kind="crawl_pages"}',
      'quarry_bus_consumer_lag{group="crawlers"}',
    ]) {
      expect({
        stale,
        nonZero: matching(parsePromql(stale).selectors[0]).some((entry) => entry.value > 0),
      }).toEqual({ stale, nonZero: false });
    }
    // The exceptions are few and each is trouble a healthy run does not have.
    // (8: the quarantine counters of four dashboards besides the publish failures, failed agent runs and lags.)
    expect(selectors.filter(({ selector }) => troubleOnly(selector)).length).toBeLessThanOrEqual(8);
  });

  it('exports every metric that a dashboard panel or an alert rule queries, with promtool-clean expositions', async () => {
    const expositions = await Promise.all(
      services().map(async (service) => ({
        service: service.name,
        text: await (await fetch(`${service.url}/metrics`)).text(),
      })),
    );
    const exported = new Set(expositions.flatMap(({ text }) => [...exposedMetricNames(text)]));
    const queries = shippedQueries();
    expect(queries.length).toBeGreaterThan(40);
    const missing = queries.flatMap(({ source, expr }) =>
      parsePromql(expr)
        .metrics.filter((metric) => !exported.has(metric))
        .map((metric) => `${metric} (${source})`),
    );
    expect(missing).toEqual([]);

    const gateway = expositions.find(({ service }) => service.startsWith('gateway'))?.text ?? '';
    const worker = expositions.find(({ service }) => service.startsWith('worker'))?.text ?? '';
    expect(sample(gateway, 'quarry_jobs_pending', { kind: 'scrape', status: 'queued' })).toBeDefined();
    expect(sample(gateway, 'quarry_dependency_up', { dependency: 'database' })).toBe(1);
    expect(sample(gateway, 'quarry_dependency_up', { dependency: 'bus' })).toBe(1);
    expect(sample(worker, 'quarry_browser_restarts_total', {})).toBeGreaterThanOrEqual(1);
    expect(sample(worker, 'quarry_bus_consumer_lag', { group: 'scrape-workers' })).toBeDefined();
    // Once the work is done the backlogs drain to zero (lag and pending readings are cached for 5 s).
    for (const [service, name, labels] of [
      [platform.gateways[0], 'quarry_jobs_pending', { kind: 'scrape', status: 'queued' }],
      [platform.gateways[0], 'quarry_jobs_pending', { kind: 'crawl', status: 'active' }],
      [platform.workers[0], 'quarry_bus_consumer_lag', { group: 'scrape-workers' }],
      [platform.workers[0], 'quarry_bus_consumer_lag', { group: 'crawl-workers' }],
      [orchestrator, 'quarry_bus_consumer_lag', { group: 'agent-orchestrators' }],
    ] as const) {
      await eventuallyAsync(async () =>
        sample(await (await fetch(`${service.url}/metrics`)).text(), name, labels) === 0 ? true : undefined,
      );
    }

    // promtool's exposition lint (naming, types, help), except prom-client's own default gauges
    // named `nodejs_active_*_total`, which are not ours to rename.
    for (const { service, text } of expositions) {
      const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
      const problems = `${lint.stdout}${lint.stderr}`
        .split('\n')
        .filter(
          (line) =>
            line.trim() &&
            !/^quarry_process_nodejs_active_\w+_total non-counter metrics should not have "_total" suffix$/.test(
              line.trim(),
            ),
        );
      expect({ service, problems }).toEqual({ service, problems: [] });
    }
  });

  it('has every shipped query accepted by promtool (types and functions, not only syntax)', () => {
    // Semantic check of each expression (types, functions) with Prometheus's own parser.
    const file = join(mkdtempSync(join(tmpdir(), 'quarry-promql-')), 'queries.yaml');
    const rules = shippedQueries().map(
      ({ expr }, index) => `      - record: quarry:check:${index}\n        expr: ${JSON.stringify(expr)}`,
    );
    writeFileSync(file, `groups:\n  - name: shipped-queries\n    rules:\n${rules.join('\n')}\n`);
    const result = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8' });
    expect(result.stdout + result.stderr).toMatch(/SUCCESS: \d+ rules found/);
  });
});

/** The Chromium main process among the children of a worker process. */
function browserProcessOf(workerPid: number): number | undefined {
  const children = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(workerPid)], {
    encoding: 'utf8',
  }).split('\n');
  const line = children.find((entry) => /chrom/i.test(entry) && !/--type=/.test(entry));
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

/** The value of the first sample of `name` whose labels include `labels` (undefined when none). */
function sample(exposition: string, name: string, labels: Record<string, string>): number | undefined {
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

async function eventuallyAsync<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not observed within ${timeoutMs} ms: ${probe.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function eventually<T>(probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not observed within ${timeoutMs} ms: ${probe.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
