import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

import { type ScrapeRequestInput, scrapeRequestSchema } from '@quarry/contracts';
import { AddressPolicy, GuardedHttpClient } from '@quarry/platform/net';
import { startTracing, type TracingHandle } from '@quarry/platform/observability';
import { type FixtureServer, html, startFixtureServer } from '@quarry/testing';

import type { Engine } from './engine.types';
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
    tracing = await startTracing({
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

describe('ScrapePipeline refusals before any parsing', () => {
  let site: FixtureServer;
  let client: GuardedHttpClient;
  let sut: ScrapePipeline;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/links': html(`<html><body>${'<a href="/x">x</a>'.repeat(120)}</body></html>`),
      '/divs': html(`<html><body>${'<div>x</div>'.repeat(600)}</body></html>`),
      '/fine': html('<html><body><main><h1>Fine</h1><p>A normal page.</p></main></body></html>'),
      '/image': (_request, response) =>
        response
          .writeHead(200, { 'content-type': 'image/png' })
          .end(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')),
      '/untyped-binary': (_request, response) =>
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end(Buffer.from([0x3c, 0x68, 0x31, 0x3e, 0, 0, 1, 2])),
      '/utf16': (_request, response) =>
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            Buffer.concat([
              Buffer.from([0xff, 0xfe]),
              Buffer.from('<html><body><p>Wide text</p></body></html>', 'utf16le'),
            ]),
          ),
    });
    client = new GuardedHttpClient(new AddressPolicy(false, ['127.0.0.1']), {
      userAgent: 'QuarryTest/1.0',
      maxBytes: 1_000_000,
    });
    sut = new ScrapePipeline(new HttpEngine(client), new PipelineExtensions(), undefined, {
      maxElements: 500,
      maxLinks: 100,
    });
  });
  afterAll(async () => {
    await client.close();
    await site.close();
  });

  const run = (path: string, formats: ScrapeRequestInput['formats'] = ['markdown']) =>
    sut.run(scrapeRequestSchema.parse({ url: `${site.url}${path}`, formats }), {
      jobId: '00000000-0000-4000-8000-000000000003',
      teamId: '00000000-0000-4000-8000-000000000002',
      signal: AbortSignal.timeout(10_000),
      timeoutMs: 10_000,
    });

  it('refuses a page over its element or link bound with 422 naming the count', async () => {
    await expect(run('/links')).rejects.toMatchObject({
      code: 'SCRAPE_PAGE_TOO_LARGE',
      status: 422,
      message: 'page too large to process: 120 links (limit 100, MAX_PAGE_LINKS)',
    });
    await expect(run('/divs')).rejects.toMatchObject({
      code: 'SCRAPE_PAGE_TOO_LARGE',
      message: expect.stringContaining('602 elements'),
    });
    expect((await run('/fine')).document.markdown).toContain('A normal page.');
  });

  it('does not turn binary bodies into garbage text: empty text formats with a warning, raw bytes on request', async () => {
    expect((await run('/image')).document).toMatchObject({
      markdown: '',
      warning: expect.stringContaining('image/png'),
    });
    expect((await run('/untyped-binary')).document).toMatchObject({
      markdown: '',
      warning: 'The target is a binary file (text/html): no text was extracted.',
    });
    const raw = await run('/image', ['rawBase64']);
    expect(raw.document.rawBase64).toBe(
      Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64'),
    );
    expect((await run('/utf16')).document.markdown).toContain('Wide text');
  });
});

describe('ScrapePipeline and pages that are not pages of the target', () => {
  /** An engine that answers what a browser shows after a refused or failed navigation. */
  const errorPageEngine: Engine = {
    name: 'browser',
    fetch: async () => ({
      engine: 'browser',
      url: 'chrome-error://chromewebdata/',
      status: 200,
      headers: {},
      contentType: 'text/html; charset=utf-8',
      body: Buffer.from('<html><body><h1>127.0.0.2 is blocked</h1></body></html>'),
      text: '<html><body><h1>127.0.0.2 is blocked</h1></body></html>',
    }),
  };

  it('answers an error page of the browser as a site error, never as a document', async () => {
    const extensions = new PipelineExtensions();
    extensions.addEngine(errorPageEngine, () => errorPageEngine);
    const sut = new ScrapePipeline(errorPageEngine, extensions);
    await expect(
      sut.run(scrapeRequestSchema.parse({ url: 'https://example.com/', waitFor: 1 }), {
        jobId: 'job',
        teamId: 'team',
        signal: AbortSignal.timeout(5_000),
        timeoutMs: 5_000,
      }),
    ).rejects.toMatchObject({
      code: 'SCRAPE_SITE_ERROR',
      message: expect.stringContaining('chrome-error://chromewebdata/'),
    });
  });
});
