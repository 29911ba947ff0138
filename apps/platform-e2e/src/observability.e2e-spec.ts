import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASIC_SITE, expandGrafanaVariables, exposedMetricNames, parsePromql, startBasicSite, type FixtureServer } from '@quarry/testing';
import { parse } from 'yaml';
import { call } from './support/api-client';
import { startCluster, type Platform } from './support/platform';
import { REPO_ROOT, startService, type ServiceProcess } from './support/service-process';

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
async function startOtlpReceiver(): Promise<{ url: string; spans: (OtlpSpan & { service: string })[]; close: () => Promise<void> }> {
  const spans: (OtlpSpan & { service: string })[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces' && request.method === 'POST') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
        };
        for (const resourceSpan of body.resourceSpans) {
          const service = resourceSpan.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue ?? '';
          for (const scope of resourceSpan.scopeSpans) for (const span of scope.spans) spans.push({ ...span, service });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, spans, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const DASHBOARD_DIR = join(REPO_ROOT, 'deploy/helm/quarry/files/dashboards');
const RULES_FILE = join(REPO_ROOT, 'deploy/helm/quarry/files/rules/quarry-alerts.yaml');

/** Every PromQL expression the deployment ships: dashboard panels and alert rules. */
function shippedQueries(): { source: string; expr: string }[] {
  const dashboards = readdirSync(DASHBOARD_DIR).flatMap((file) => {
    const json = JSON.parse(readFileSync(join(DASHBOARD_DIR, file), 'utf8')) as { panels: { title: string; targets?: { expr: string }[] }[] };
    return json.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ source: `${file}: ${panel.title}`, expr: expandGrafanaVariables(target.expr) })));
  });
  const rules = (parse(readFileSync(RULES_FILE, 'utf8')) as { groups: { rules: { alert: string; expr: string }[] }[] }).groups.flatMap((group) =>
    group.rules.map((rule) => ({ source: `alert ${rule.alert}`, expr: rule.expr })),
  );
  return [...dashboards, ...rules];
}

describe('observability of the cluster mode (gateway, worker, agent orchestrator over Kafka)', () => {
  let platform: Platform;
  let orchestrator: ServiceProcess;
  let site: FixtureServer;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;

  beforeAll(async () => {
    site = await startBasicSite();
    receiver = await startOtlpReceiver();
    platform = await startCluster({ gateways: 1, workers: 1, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
    orchestrator = await startService('agent-orchestrator', platform.env, { label: 'agent-orchestrator' });
  });
  afterAll(async () => {
    await orchestrator?.stop();
    await platform?.stop();
    await site?.close();
    await receiver?.close();
  });

  it('follows one scrape in one trace: gateway SERVER span → Kafka producer → worker consumer → fetch → outcome → completion event back at the gateway', async () => {
    const response = await call<{ success: boolean; data: { markdown: string } }>(platform.url(), 'POST', '/v2/scrape', {
      apiKey: platform.apiKey,
      body: { url: `${site.url}/article` },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.markdown).toContain(BASIC_SITE.articleMarker);

    const server = await eventually(() => receiver.spans.find((span) => span.kind === SPAN_KIND.SERVER && span.name === 'POST /v2/scrape'));
    const trace = () => receiver.spans.filter((span) => span.traceId === server.traceId);
    const child = (parent: OtlpSpan, predicate: (span: OtlpSpan & { service: string }) => boolean) => trace().find((span) => span.parentSpanId === parent.spanId && predicate(span));

    expect(server.service).toBe('gateway');
    const sendJob = await eventually(() => child(server, (span) => span.kind === SPAN_KIND.PRODUCER && /scrape\.jobs$/.test(span.name)));
    expect(sendJob.service).toBe('gateway');
    const processJob = await eventually(() => child(sendJob, (span) => span.kind === SPAN_KIND.CONSUMER && /scrape\.jobs$/.test(span.name)));
    expect(processJob.service).toBe('scrape-worker');
    // `fetch <engine>`: the HTTP engine, or the browser engine when the page needs one.
    const fetch = await eventually(() => child(processJob, (span) => span.kind === SPAN_KIND.CLIENT && /^fetch (http|browser)$/.test(span.name)));
    expect(fetch.attributes?.find((attribute) => attribute.key === 'url.full')?.value).toEqual({ stringValue: `${site.url}/article` });
    await eventually(() => child(processJob, (span) => span.name === 'job complete'));
    const sendEvent = await eventually(() => child(processJob, (span) => span.kind === SPAN_KIND.PRODUCER && /job\.events$/.test(span.name)));
    // Every service following job.events consumes it (the agent orchestrator too); the gateway's is the one that answers.
    await eventually(() => child(sendEvent, (span) => span.kind === SPAN_KIND.CONSUMER && /job\.events$/.test(span.name) && span.service === 'gateway'));
    // Probes and metrics scrapes are not traced.
    expect(receiver.spans.some((span) => /livez|readyz|metrics/.test(span.name))).toBe(false);
  });

  it('continues a caller’s W3C trace context', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await call(platform.url(), 'POST', '/v2/scrape', {
      apiKey: platform.apiKey,
      // maxAge 0: past the gateway's scrape cache (the first test stored this page), so a worker runs.
      body: { url: `${site.url}/article`, maxAge: 0 },
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    const server = await eventually(() => receiver.spans.find((span) => span.traceId === traceId && span.kind === SPAN_KIND.SERVER));
    expect(server.parentSpanId).toBe('00f067aa0ba902b7');
    await eventually(() => receiver.spans.find((span) => span.traceId === traceId && span.service === 'scrape-worker'));
  });

  it('exports every metric that a dashboard panel or an alert rule queries, with promtool-clean expositions', async () => {
    const expositions = await Promise.all(
      [...platform.gateways, ...platform.workers, orchestrator].map(async (service) => ({ service: service.name, text: await (await fetch(`${service.url}/metrics`)).text() })),
    );
    const exported = new Set(expositions.flatMap(({ text }) => [...exposedMetricNames(text)]));
    const queries = shippedQueries();
    expect(queries.length).toBeGreaterThan(40);
    const missing = queries.flatMap(({ source, expr }) => parsePromql(expr).metrics.filter((metric) => !exported.has(metric)).map((metric) => `${metric} (${source})`));
    expect(missing).toEqual([]);

    // The families carry data once the platform has worked (the scrapes of the tests above).
    const gateway = expositions.find(({ service }) => service.startsWith('gateway'))?.text ?? '';
    const worker = expositions.find(({ service }) => service.startsWith('worker'))?.text ?? '';
    expect(sample(gateway, 'quarry_http_requests_total', { route: '/v2/scrape', method: 'POST', status: '200' })).toBeGreaterThan(0);
    expect(sample(gateway, 'quarry_jobs_queued_total', { kind: 'scrape' })).toBeGreaterThan(0);
    expect(sample(gateway, 'quarry_jobs_pending', { kind: 'scrape', status: 'queued' })).toBe(0);
    expect(sample(gateway, 'quarry_dependency_up', { dependency: 'database' })).toBe(1);
    expect(sample(gateway, 'quarry_dependency_up', { dependency: 'bus' })).toBe(1);
    expect(sample(worker, 'quarry_jobs_finished_total', { kind: 'scrape', outcome: 'completed' })).toBeGreaterThan(0);
    expect(sample(worker, 'quarry_credits_consumed_total', { kind: 'scrape' })).toBeGreaterThan(0);
    expect(sample(worker, 'quarry_bus_consumer_lag', { group: 'scrape-workers' })).toBe(0);
    expect(sample(worker, 'quarry_bus_messages_consumed_total', { topic: 'scrapeJobs', outcome: 'ok' })).toBeGreaterThan(0);
    expect(sample(worker, 'quarry_job_duration_seconds_count', { kind: 'scrape', engine: 'http' })).toBeGreaterThan(0);
    const agent = expositions.find(({ service }) => service === 'agent-orchestrator')?.text ?? '';
    expect(sample(agent, 'quarry_bus_consumer_lag', { group: 'agent-orchestrators' })).toBe(0);

    // promtool's exposition lint (naming, types, help), except prom-client's own default gauges
    // named `nodejs_active_*_total`, which are not ours to rename.
    for (const { service, text } of expositions) {
      const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
      const problems = `${lint.stdout}${lint.stderr}`
        .split('\n')
        .filter((line) => line.trim() && !/^quarry_process_nodejs_active_\w+_total non-counter metrics should not have "_total" suffix$/.test(line.trim()));
      expect({ service, problems }).toEqual({ service, problems: [] });
    }
  });

  it('has every shipped query accepted by promtool (types and functions, not only syntax)', () => {
    // Semantic check of each expression (types, functions) with Prometheus's own parser.
    const file = join(mkdtempSync(join(tmpdir(), 'quarry-promql-')), 'queries.yaml');
    const rules = shippedQueries().map(({ expr }, index) => `      - record: quarry:check:${index}\n        expr: ${JSON.stringify(expr)}`);
    writeFileSync(file, `groups:\n  - name: shipped-queries\n    rules:\n${rules.join('\n')}\n`);
    const result = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8' });
    expect(result.stdout + result.stderr).toMatch(/SUCCESS: \d+ rules found/);
  });
});

/** The value of the first sample of `name` whose labels include `labels` (undefined when none). */
function sample(exposition: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of exposition.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
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
