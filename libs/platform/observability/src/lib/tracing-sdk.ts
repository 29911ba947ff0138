import { hostname } from 'node:os';

import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface TracingOptions {
  serviceName: string;
  serviceVersion?: string;
  /** OTLP/HTTP base URL (`…/v1/traces` is appended). Unset: tracing stays off. */
  endpoint?: string;
  headers?: Record<string, string>;
  /** Fraction of new traces recorded (parent-based: a sampled caller is always followed). */
  sampleRatio: number;
  /** Replaces the OTLP exporter (tests). */
  spanProcessors?: SpanProcessor[];
}

export interface TracingHandle {
  enabled: boolean;
  /** Flushes pending spans and stops the SDK. */
  shutdown(): Promise<void>;
}

let active: NodeSDK | undefined;
let starting = false;

/**
 * Starts the OpenTelemetry SDK of this process: W3C trace-context propagation, an async-local
 * context manager and a batching OTLP/HTTP (JSON) exporter. Spans are created by the platform
 * itself (HTTP server hooks, bus publish/consume, pipeline stages), so no module patching is needed
 * and the order of imports does not matter. The SDK's modules are loaded here, only when tracing is
 * on: loading them took ~1.3 s of every process start (each service, the CLI) on a 2-core machine.
 */
export async function startTracing(options: TracingOptions): Promise<TracingHandle> {
  if (!options.endpoint && !options.spanProcessors?.length)
    return { enabled: false, shutdown: async () => undefined };
  if (active || starting) throw new Error('tracing is already started in this process');
  starting = true;
  try {
    return await startSdk(options);
  } finally {
    starting = false;
  }
}

async function startSdk(options: TracingOptions): Promise<TracingHandle> {
  const [{ OTLPTraceExporter }, { resourceFromAttributes }, { NodeSDK }, traceBase, conventions] =
    await Promise.all([
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/semantic-conventions'),
    ]);
  const { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } = traceBase;
  const { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } = conventions;
  const processors = options.spanProcessors ?? [
    new BatchSpanProcessor(
      new OTLPTraceExporter({
        url: `${(options.endpoint ?? '').replace(/\/+$/, '')}/v1/traces`,
        headers: options.headers,
        timeoutMillis: 5_000,
      }),
      { scheduledDelayMillis: 1_000, maxQueueSize: 4_096, maxExportBatchSize: 512 },
    ),
  ];
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: options.serviceName,
      ...(options.serviceVersion ? { [ATTR_SERVICE_VERSION]: options.serviceVersion } : {}),
      'service.namespace': 'quarry',
      'service.instance.id': `${hostname()}-${process.pid}`,
    }),
    autoDetectResources: false,
    spanProcessors: processors,
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(options.sampleRatio) }),
    instrumentations: [],
    // Traces only: without these, the SDK would start OTLP metric and log exporters from OTEL_* defaults.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  active = sdk;
  return {
    enabled: true,
    shutdown: async () => {
      if (active !== sdk) return;
      active = undefined;
      await sdk.shutdown().catch(() => undefined);
    },
  };
}
