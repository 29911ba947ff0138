import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  request as httpRequest,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A self-signed certificate for 127.0.0.1 / localhost, made by the system's openssl. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface SimpleServer {
  url: string;
  port: number;
  hits: number;
  close(): Promise<void>;
}

/** An HTTPS site on 127.0.0.1 with a self-signed certificate, answering `body` on every path. */
export async function startHttpsFixtureServer(body: string): Promise<SimpleServer> {
  const server = createHttpsServer(selfSignedCertificate(), (_request, response) => {
    state.hits += 1;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  const state = await listen(server, 'https');
  return state;
}

export interface ForwardProxy extends SimpleServer {
  /** Target authorities (host:port) or absolute URLs the proxy was asked for. */
  requests: string[];
}

/**
 * A forward HTTP proxy on 127.0.0.1 (absolute-form requests and CONNECT tunnels), standing in for a
 * proxy pool. `refuse: true` answers 403 to everything, like a proxy whose exit is blocked.
 */
export async function startForwardProxy(options: { refuse?: boolean } = {}): Promise<ForwardProxy> {
  const requests: string[] = [];
  const server = createHttpServer((request: IncomingMessage, response: ServerResponse) => {
    requests.push(request.url ?? '');
    state.hits += 1;
    if (options.refuse) {
      response
        .writeHead(403, { 'content-type': 'text/html' })
        .end('<html><body>Access denied by proxy</body></html>');
      return;
    }
    const target = new URL(request.url ?? '');
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port || 80,
        path: `${target.pathname}${target.search}`,
        method: request.method,
        headers: request.headers,
      },
      (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
      },
    );
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    requests.push(request.url ?? '');
    state.hits += 1;
    client.on('error', () => undefined);
    if (options.refuse) {
      client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const [host, port] = (request.url ?? '').split(':');
    const target = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) target.write(head);
      target.pipe(client);
      client.pipe(target);
    });
    target.on('error', () => client.destroy());
  });
  const state = await listen(server, 'http');
  return Object.assign(state, { requests });
}

async function listen(server: Server, scheme: 'http' | 'https'): Promise<SimpleServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    hits: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
