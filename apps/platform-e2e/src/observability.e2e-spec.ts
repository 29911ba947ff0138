import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { reportPdf } from '@quarry/documents/fixtures';
import {
  BASIC_SITE,
  exposedMetricNames,
  type FixtureServer,
  matchesLabel,
  parsePromql,
  type PromqlSelector,
  startBasicSite,
  uniqueName,
} from '@quarry/testing';

import { cli, waitForAgent } from './support/agent-support';
import { call } from './support/api-client';
import { type FakeSearxng, freePort, startFakeSearxng } from './support/crawl-support';
import {
  browserProcessOf,
  crawlSearchResults,
  dashboardSelectors,
  eventually,
  eventuallyAsync,
  JS_MARKER,
  observabilityEnv,
  sample,
  shippedQueries,
  SPAN_KIND,
  spanQueries,
  startObservabilitySite,
  startOtlpReceiver,
  startSampler,
  TROUBLE_ONLY,
} from './support/observability-support';
import { type Platform, startCluster } from './support/platform';
import { type ServiceProcess, startService } from './support/service-process';

jest.setTimeout(300_000);

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
    searxng = await startFakeSearxng(crawlSearchResults(site.url));
    platform = await startCluster({
      gateways: 1,
      workers: 1,
      docParsers: 1,
      env: observabilityEnv(receiver.url, searxng.url),
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

  const { trace, childOf, ancestors, attribute, scrapeTrace, completion } = spanQueries(() => receiver.spans);

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
