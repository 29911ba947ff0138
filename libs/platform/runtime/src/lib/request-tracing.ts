import type { FastifyInstance } from 'fastify';

import {
  extractTraceContext,
  recordSpanError,
  type Span,
  SpanKind,
  SpanStatusCode,
  traceApi,
  traceContext,
  tracer,
} from '@quarry/platform/observability';

/** Probes and scrapes are not traced: they would drown the interesting traces. */
const UNTRACED_ROUTES = new Set(['/livez', '/readyz', '/metrics']);

/**
 * A SERVER span per HTTP request (`POST /v2/scrape`), continuing the caller's W3C trace context.
 * The span is made active for the rest of the request: the request and reply emitters are bound
 * to its context, so body parsing, the handler and everything it awaits (database, bus publish)
 * run inside it.
 */
export function registerRequestTracing(fastify: FastifyInstance): void {
  const spans = new WeakMap<object, Span>();
  fastify.addHook('onRequest', (request, reply, done) => {
    const route = request.routeOptions?.url;
    if (route !== undefined && UNTRACED_ROUTES.has(route)) return done();
    const parent = extractTraceContext(request.headers);
    const span = tracer().startSpan(
      `${request.method} ${route ?? 'unmatched'}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'http.route': route ?? 'unmatched',
          'url.path': request.url.split('?')[0],
          'client.address': request.ip,
          ...(request.headers['user-agent'] ? { 'user_agent.original': request.headers['user-agent'] } : {}),
        },
      },
      parent,
    );
    if (!span.isRecording()) return done();
    spans.set(request, span);
    const active = traceApi.setSpan(parent, span);
    traceContext.bind(active, request.raw);
    traceContext.bind(active, reply.raw);
    traceContext.with(active, done);
  });
  fastify.addHook('onResponse', async (request, reply) => {
    const span = spans.get(request);
    if (!span) return;
    spans.delete(request);
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  fastify.addHook('onRequestAbort', async (request) => {
    const span = spans.get(request);
    if (!span) return;
    spans.delete(request);
    recordSpanError(span, new Error('client closed the connection'));
    span.end();
  });
}
