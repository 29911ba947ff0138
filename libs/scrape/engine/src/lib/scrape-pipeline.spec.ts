import { scrapeRequestSchema, type ScrapeRequestInput } from '@quarry/contracts';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AddressPolicy, GuardedHttpClient } from '@quarry/platform/net';
import { startTracing, type TracingHandle } from '@quarry/platform/observability';
import { html, startFixtureServer, type FixtureServer } from '@quarry/testing';
import { HttpEngine } from './http.engine';
import { PipelineExtensions } from './pipeline-extensions';
import { ScrapePipeline } from './scrape-pipeline';

describe('ScrapePipeline tracing', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: TracingHandle;
  let site: FixtureServer;
  let client: GuardedHttpClient;
  let sut: ScrapePipeline;

  beforeAll(async () => {
    tracing = startTracing({
      serviceName: 'pipeline-test',
      sampleRatio: 1,
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    site = await startFixtureServer({
      '/secret-page': html('<html><head><title>T</title></head><body><p>Private words.</p></body></html>'),
      '/secret-loop': (_request, response) => response.writeHead(302, { location: '/secret-loop' }).end(),
    });
    client = new GuardedHttpClient(new AddressPolicy(false, ['127.0.0.1']), {
      userAgent: 'QuarryTest/1.0',
      maxBytes: 1_000_000,
    });
    sut = new ScrapePipeline(new HttpEngine(client), new PipelineExtensions());
  });

  afterAll(async () => {
    await client.close();
    await site.close();
    await tracing.shutdown();
  });

  beforeEach(() => exporter.reset());

  const run = (input: Partial<ScrapeRequestInput> & { url: string }) =>
    sut.run(scrapeRequestSchema.parse(input), {
      jobId: '00000000-0000-4000-8000-000000000001',
      teamId: '00000000-0000-4000-8000-000000000002',
      signal: AbortSignal.timeout(10_000),
      timeoutMs: 10_000,
    });

  const fetchSpan = () => {
    const span = exporter.getFinishedSpans().find((candidate) => candidate.name === 'fetch http');
    if (!span) throw new Error('no fetch span');
    return span;
  };
  const recorded = () =>
    JSON.stringify(
      exporter
        .getFinishedSpans()
        .map((span) => ({ attributes: span.attributes, status: span.status, events: span.events })),
    );

  it('records the target URL on the fetch span of an ordinary scrape', async () => {
    await run({ url: `${site.url}/secret-page` });
    expect(fetchSpan().attributes['url.full']).toBe(`${site.url}/secret-page`);
  });

  it('records no URL for a zero-data-retention scrape, also when it fails', async () => {
    const outcome = await run({ url: `${site.url}/secret-page`, zeroDataRetention: true });
    expect(outcome.document.markdown).toContain('Private words.');
    expect(fetchSpan().attributes['quarry.engine']).toBe('http');
    expect(fetchSpan().attributes['url.full']).toBeUndefined();
    expect(recorded()).not.toContain('secret-page');

    exporter.reset();
    // A redirect loop: the engine's error message quotes the URL, which the span must not.
    await expect(run({ url: `${site.url}/secret-loop`, zeroDataRetention: true })).rejects.toThrow();
    expect(fetchSpan().status.code).toBe(2);
    expect(recorded()).not.toContain('secret-loop');
  });

  it('records the error message of an ordinary failed scrape', async () => {
    await expect(run({ url: `${site.url}/secret-loop` })).rejects.toThrow();
    expect(fetchSpan().status.message).toContain('secret-loop');
  });
});
