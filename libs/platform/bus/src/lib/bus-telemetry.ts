import type { TopicKey } from '@quarry/contracts';
import {
  extractTraceContext,
  injectTraceContext,
  type PlatformMetrics,
  SpanKind,
  withSpan,
} from '@quarry/platform/observability';

/** What a bus adapter needs to trace and count its messages. */
export interface BusTelemetry {
  system: 'kafka' | 'memory';
  metrics?: PlatformMetrics;
}

/**
 * Publishes inside a PRODUCER span (`send <destination>`) whose context travels in the message
 * headers (W3C `traceparent`), so the consumer's span joins the publisher's trace.
 */
export async function tracedPublish(
  telemetry: BusTelemetry,
  topic: TopicKey,
  destination: string,
  key: string | undefined,
  headers: Record<string, string> | undefined,
  send: (headers: Record<string, string>) => Promise<void>,
): Promise<void> {
  try {
    await withSpan(
      `send ${destination}`,
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          'messaging.system': telemetry.system,
          'messaging.operation.type': 'send',
          'messaging.destination.name': destination,
          ...(key ? { 'messaging.kafka.message.key': key } : {}),
        },
      },
      () => send(injectTraceContext({ ...headers })),
    );
    telemetry.metrics?.busPublished.inc({ topic });
  } catch (error) {
    telemetry.metrics?.busPublishFailures.inc({ topic });
    throw error;
  }
}

/** Runs one handler attempt inside a CONSUMER span (`process <destination>`) parented to the publisher's span. */
export async function tracedHandle<T>(
  telemetry: BusTelemetry,
  message: { topic: TopicKey; key?: string; headers: Record<string, string>; attempt: number },
  target: { destination: string; group: string },
  handle: () => Promise<T>,
): Promise<T> {
  const startedAt = process.hrtime.bigint();
  try {
    const result = await withSpan(
      `process ${target.destination}`,
      {
        kind: SpanKind.CONSUMER,
        parent: extractTraceContext(message.headers),
        attributes: {
          'messaging.system': telemetry.system,
          'messaging.operation.type': 'process',
          'messaging.destination.name': target.destination,
          'messaging.consumer.group.name': target.group,
          'quarry.delivery.attempt': message.attempt,
          ...(message.key ? { 'messaging.kafka.message.key': message.key } : {}),
        },
      },
      handle,
    );
    telemetry.metrics?.busConsumed.inc({ topic: message.topic, outcome: 'ok' });
    return result;
  } catch (error) {
    telemetry.metrics?.busConsumed.inc({ topic: message.topic, outcome: 'error' });
    throw error;
  } finally {
    telemetry.metrics?.busHandlerDuration.observe(
      { topic: message.topic },
      Number(process.hrtime.bigint() - startedAt) / 1e9,
    );
  }
}
