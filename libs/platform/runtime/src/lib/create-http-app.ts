import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

import { PinoNestLogger, type PlatformMetrics } from '@quarry/platform/observability';

import { ApiExceptionFilter } from './api-exception.filter';
import { registerJsonBodyParsers } from './body-parsers';
import { clientErrorHandler, registerMethodNotAllowed, RouteMethods } from './protocol-errors';
import { registerRequestTracing } from './request-tracing';

export interface HttpAppOptions {
  logger: Logger;
  metrics: PlatformMetrics;
  bodyLimitBytes: number;
  /** Extra Fastify setup (plugins such as multipart or websocket) before routes are registered. */
  configure?: (fastify: FastifyInstance) => Promise<void> | void;
}

/** Creates a Nest application on Fastify with the platform's body parsing, error filter and request metrics. */
export async function createHttpApp(
  module: Type<unknown> | DynamicModule,
  options: HttpAppOptions,
): Promise<NestFastifyApplication> {
  const routes = new RouteMethods();
  const adapter = new FastifyAdapter({
    bodyLimit: options.bodyLimitBytes,
    clientErrorHandler: clientErrorHandler(routes),
    trustProxy: true,
    logger: false,
    return503OnClosing: true,
    requestTimeout: 0,
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: new PinoNestLogger(options.logger.child({ component: 'nest' })),
    bodyParser: false,
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  registerJsonBodyParsers(fastify);
  registerMethodNotAllowed(fastify, routes);
  registerRequestTracing(fastify);
  const inFlight = new WeakSet<object>();
  fastify.addHook('onRequest', async (request) => {
    inFlight.add(request);
    options.metrics.httpInFlight.inc();
  });
  const leave = (request: object) => {
    if (inFlight.delete(request)) options.metrics.httpInFlight.dec();
  };
  fastify.addHook('onRequestAbort', async (request) => leave(request));
  fastify.addHook('onResponse', async (request, reply) => {
    leave(request);
    const route = request.routeOptions?.url ?? 'unmatched';
    const labels = { route, method: request.method, status: String(reply.statusCode) };
    options.metrics.httpRequests.inc(labels);
    options.metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
  await options.configure?.(fastify);
  app.useGlobalFilters(new ApiExceptionFilter(options.logger.child({ component: 'http' })));
  app.enableShutdownHooks();
  return app;
}

export async function listen(app: INestApplication, host: string, port: number): Promise<string> {
  await app.listen(port, host);
  return app.getUrl();
}
