import type { Socket } from 'node:net';

import type { FastifyInstance } from 'fastify';

import { AppError, type ErrorCode } from '@quarry/contracts';

import { renderAppError } from './api-exception.filter';

/**
 * The methods each route path serves, learnt from Fastify's `onRoute` hook, so that a known path
 * asked with another method answers 405 with `Allow` instead of 404.
 */
export class RouteMethods {
  private readonly routes: { pattern: RegExp; methods: Set<string> }[] = [];

  add(url: string, methods: string | string[]): void {
    const source = `^${url
      .split(/(\*|:[A-Za-z0-9_]+(?:\([^)]*\))?)/)
      .map((part) =>
        part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('')}$`;
    let route = this.routes.find((candidate) => candidate.pattern.source === source);
    if (!route) {
      route = { pattern: new RegExp(source), methods: new Set() };
      this.routes.push(route);
    }
    for (const method of [methods].flat()) route.methods.add(method.toUpperCase());
  }

  /** The methods served at this path (query string ignored), sorted; empty for an unknown path. */
  allowed(path: string): string[] {
    const bare = path.split('?')[0];
    const methods = new Set<string>();
    for (const route of this.routes)
      if (route.pattern.test(bare)) route.methods.forEach((method) => methods.add(method));
    return [...methods].sort();
  }
}

/**
 * Requests the framework refuses before they reach a route answer in the API's error shape (docs/compatibility.md#errors):
 * a known path asked with a method it does not serve → 405 with `Allow`, on the router's 404 path
 * (`request.is404`) and for methods Node's HTTP parser does not know at all.
 */
export function registerMethodNotAllowed(fastify: FastifyInstance, routes: RouteMethods): void {
  fastify.addHook('onRoute', (route) => routes.add(route.url, route.method));
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) return done();
    const allowed = routes.allowed(request.url);
    if (allowed.length === 0) return done();
    const rendered = renderAppError(new AppError('METHOD_NOT_ALLOWED'));
    void reply.status(rendered.status).header('allow', allowed.join(', ')).send(rendered.body);
  });
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses (headers over its size limit,
 * unknown methods, malformed requests, header timeouts) is answered in the spec's error shape, not
 * in Fastify's `{error, message, statusCode}`.
 */
export function clientErrorHandler(
  routes: RouteMethods,
): (error: Error & { code?: string; rawPacket?: unknown }, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    let code: ErrorCode = 'BAD_REQUEST';
    const headers: Record<string, string> = {};
    if (error.code === 'HPE_HEADER_OVERFLOW') code = 'REQUEST_HEADER_FIELDS_TOO_LARGE';
    else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') code = 'SCRAPE_TIMEOUT';
    else if (error.code === 'HPE_INVALID_METHOD') {
      // The request line is still readable: a known path answers 405 with the methods it serves.
      const target = /^[!-~]+ (\/\S*) HTTP\/1\.[01]\r?\n/.exec(
        Buffer.isBuffer(error.rawPacket) ? error.rawPacket.toString('latin1', 0, 8_192) : '',
      )?.[1];
      const allowed = target ? routes.allowed(target) : [];
      if (allowed.length > 0) {
        code = 'METHOD_NOT_ALLOWED';
        headers['allow'] = allowed.join(', ');
      } else if (target) code = 'NOT_FOUND';
    }
    const rendered = renderAppError(new AppError(code));
    const body = JSON.stringify(
      code === 'SCRAPE_TIMEOUT' ? { success: false, error: rendered.body.error } : rendered.body,
    );
    if (socket.writable) {
      const head = [
        `HTTP/1.1 ${rendered.status} ${rendered.body.error}`,
        'content-type: application/json; charset=utf-8',
        `content-length: ${Buffer.byteLength(body)}`,
        'connection: close',
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
    }
    socket.destroy(error);
  };
}
