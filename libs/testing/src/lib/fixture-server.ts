import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FixtureHandler = (request: IncomingMessage, response: ServerResponse) => unknown;

export interface FixtureServer {
  url: string;
  port: number;
  /** Requests seen, by path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/** An HTTP fixture site on 127.0.0.1 (random port): routes by exact path, 404 otherwise. */
export async function startFixtureServer(
  routes: Record<string, FixtureHandler>,
  host = '127.0.0.1',
): Promise<FixtureServer> {
  const hits = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const handler = routes[path] ?? routes['*'];
    if (!handler) {
      response
        .writeHead(404, { 'content-type': 'text/html' })
        .end('<html><body><h1>Not Found</h1></body></html>');
      return;
    }
    Promise.resolve(handler(request, response)).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const html =
  (body: string, status = 200, headers: Record<string, string> = {}): FixtureHandler =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
  };
