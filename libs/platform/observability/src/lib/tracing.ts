import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';

/**
 * Tracing helpers on the OpenTelemetry API. Without a started SDK (`startTracing`) every call is a
 * cheap no-op, so libraries trace unconditionally and only processes with an exporter record.
 */
export const TRACER_NAME = 'quarry';

export { SpanKind, SpanStatusCode, type Span, type Context, type Attributes };

export function tracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

/**
 * Runs `fn` inside a new active span that ends when it settles; errors mark the span and are rethrown.
 * `sensitive`: the work handles data that must not be recorded (zero data retention) — an error
 * marks the span with its type only, since messages may quote URLs or page content.
 */
export async function withSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context; sensitive?: boolean },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  const span = tracer().startSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    if (options.sensitive)
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
    else recordSpanError(span, error);
    throw error;
  } finally {
    span.end();
  }
}

export function recordSpanError(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

/** Writes the W3C trace context of `ctx` (default: the active one) into message or request headers. */
export function injectTraceContext(
  headers: Record<string, string>,
  ctx: Context = context.active(),
): Record<string, string> {
  propagation.inject(ctx, headers);
  return headers;
}

/** Reads a W3C trace context from headers (a fresh root when there is none). */
export function extractTraceContext(headers: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(ROOT_CONTEXT, headers);
}

/** The ids of the active span, for log lines (undefined when nothing is being recorded). */
export function activeTraceIds(): { traceId: string; spanId: string } | undefined {
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  const { traceId, spanId, traceFlags } = span.spanContext();
  if ((traceFlags & 1) === 0) return undefined;
  return { traceId, spanId };
}

export { context as traceContext, trace as traceApi };
