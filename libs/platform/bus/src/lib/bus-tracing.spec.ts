import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import pino from 'pino';

import {
  PlatformMetrics,
  SpanKind,
  SpanStatusCode,
  startTracing,
  type TracingHandle,
} from '@quarry/platform/observability';

import { parentOf, runTraceChain, sample } from './fixtures/trace-chain';
import { MemoryBus } from './memory-bus';

describe('MemoryBus tracing and metrics', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: TracingHandle;
  beforeAll(async () => {
    tracing = await startTracing({
      serviceName: 'bus-test',
      sampleRatio: 1,
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
  });
  afterAll(() => tracing.shutdown());

  it('joins publisher, consumer, retries and the completion event in one trace', async () => {
    const metrics = new PlatformMetrics({ service: 'bus-test', defaultMetrics: false });
    const sut = new MemoryBus(pino({ level: 'silent' }), metrics);
    await sut.start();
    const chain = await runTraceChain(sut, () => exporter.getFinishedSpans());
    await sut.stop();

    const traceIds = new Set(chain.all.map((span) => span.spanContext().traceId));
    expect(traceIds.size).toBe(1);
    expect(chain.sendJob.kind).toBe(SpanKind.PRODUCER);
    expect(parentOf(chain.sendJob)).toBe(chain.request.spanContext().spanId);
    expect(chain.sendJob.attributes['messaging.system']).toBe('memory');
    // Two attempts: the first failed (ERROR status), the second succeeded; both children of the producer.
    expect(chain.processJob).toHaveLength(2);
    expect(chain.processJob.map((span) => span.attributes['quarry.delivery.attempt']).sort()).toEqual([1, 2]);
    for (const span of chain.processJob) expect(parentOf(span)).toBe(chain.sendJob.spanContext().spanId);
    const [failed, succeeded] = [...chain.processJob].sort(
      (a, b) =>
        Number(a.attributes['quarry.delivery.attempt']) - Number(b.attributes['quarry.delivery.attempt']),
    );
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(succeeded.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(parentOf(chain.work)).toBe(succeeded.spanContext().spanId);
    expect(parentOf(chain.sendEvent)).toBe(succeeded.spanContext().spanId);
    expect(parentOf(chain.processEvent)).toBe(chain.sendEvent.spanContext().spanId);

    expect(await sample(metrics.busPublished, { topic: 'scrapeJobs' })).toBe(1);
    expect(await sample(metrics.busPublished, { topic: 'jobEvents' })).toBe(1);
    expect(await sample(metrics.busConsumed, { topic: 'scrapeJobs', outcome: 'error' })).toBe(1);
    expect(await sample(metrics.busConsumed, { topic: 'scrapeJobs', outcome: 'ok' })).toBe(1);
    expect(
      await sample(
        metrics.busHandlerDuration,
        { topic: 'scrapeJobs' },
        'quarry_bus_handler_duration_seconds_count',
      ),
    ).toBe(2);
  });

  it('reports the messages waiting for a busy subscription as consumer lag', async () => {
    const metrics = new PlatformMetrics({ service: 'bus-test', defaultMetrics: false });
    const sut = new MemoryBus(pino({ level: 'silent' }), metrics);
    await sut.start();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handled: unknown[] = [];
    await sut.subscribe('scrapeJobs', { group: 'workers', concurrency: 1 }, async (message) => {
      await gate;
      handled.push(message.value);
    });
    for (let i = 0; i < 5; i += 1) await sut.publish('scrapeJobs', { i });
    await new Promise((resolve) => setImmediate(resolve));
    expect(await sut.consumerLag()).toEqual([{ topic: 'scrape.jobs', group: 'workers', lag: 4 }]);
    metrics.reportConsumerLag(() => sut.consumerLag());
    expect(await sample(metrics.busConsumerLag, { topic: 'scrape.jobs', group: 'workers' })).toBe(4);
    release();
    while (handled.length < 5) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await sut.consumerLag()).toEqual([{ topic: 'scrape.jobs', group: 'workers', lag: 0 }]);
    await sut.stop();
  });
});
