import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request as httpRequest,
  type Server,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type AddressInfo, connect as netConnect, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';

import type { HostResolver } from './host-resolver';

/** Something the guard refused or could not do for the page; the engine turns these into outcomes. */
export interface GuardEvent {
  kind: 'blocked' | 'dns' | 'tls' | 'budget' | 'upstream';
  /** `host:port` for tunnels, the URL for plain HTTP. */
  target: string;
  address?: string;
  detail?: string;
}

/** How the guard forwards the connections of one browser context. */
export interface GuardRoute {
  /** Verify the target's certificate before tunnelling TLS (the API's `skipTlsVerification: false`). */
  verifyTls: boolean;
  /** Upstream proxy (`http://user:pass@host:port`) all connections go through; direct when absent. */
  upstream?: string;
}

export interface GuardProxyOptions {
  resolver: HostResolver;
  /** Bytes the targets may send to this context in total before every connection is cut. */
  maxTransferBytes: number;
  connectTimeoutMs?: number;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * A forward proxy on 127.0.0.1 in front of one browser context (Chromium is pointed at it with a
 * per-context `proxyServer`, loopback included). Every connection the page makes (document,
 * sub-resources, redirects, workers, WebSockets) resolves here, is checked against the address
 * policy and goes to the checked address, so neither a private target nor a rebinding DNS answer
 * gets through. It also carries the route (upstream proxy, TLS verification) and the byte budget.
 */
export class GuardProxy {
  readonly events: GuardEvent[] = [];
  route: GuardRoute = { verifyTls: false };
  private transferred = 0;
  private readonly sockets = new Set<Duplex>();
  private readonly verified = new Map<string, Promise<string | undefined>>();

  private constructor(
    private readonly server: Server,
    private readonly options: GuardProxyOptions,
  ) {}

  static async start(options: GuardProxyOptions): Promise<GuardProxy> {
    const server = createServer();
    const proxy = new GuardProxy(server, options);
    server.on(
      'request',
      (request: IncomingMessage, response: ServerResponse) => void proxy.forward(request, response),
    );
    server.on(
      'connect',
      (request: IncomingMessage, socket: Duplex, head: Buffer) => void proxy.tunnel(request, socket, head),
    );
    server.on('connection', (socket: Socket) => proxy.track(socket));
    server.on('clientError', (_error, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get resolver(): HostResolver {
    return this.options.resolver;
  }

  get bytesTransferred(): number {
    return this.transferred;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
  }

  private record(event: GuardEvent): void {
    if (this.events.length < 200) this.events.push(event);
  }

  /** Counts bytes from targets; past the budget every connection of the context is cut. */
  private count(bytes: number): boolean {
    this.transferred += bytes;
    if (this.transferred <= this.options.maxTransferBytes) return true;
    if (!this.events.some((event) => event.kind === 'budget')) {
      this.record({
        kind: 'budget',
        target: '*',
        detail: `the page transferred more than ${this.options.maxTransferBytes} bytes`,
      });
    }
    for (const socket of this.sockets) socket.destroy();
    return false;
  }

  /** Plain-HTTP requests arrive in absolute form (`GET http://host/path`). */
  private async forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let target: URL;
    try {
      target = new URL(request.url ?? '');
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (target.protocol !== 'http:') {
      response.writeHead(400).end();
      return;
    }
    const resolution = await this.options.resolver.resolve(target.hostname);
    if (!resolution.ok) {
      this.record({
        kind: resolution.reason === 'dns' ? 'dns' : 'blocked',
        target: target.href,
        address: resolution.address,
      });
      response
        .writeHead(resolution.reason === 'dns' ? 502 : 403, { 'content-type': 'text/plain' })
        .end('Refused by the outbound guard');
      return;
    }
    const headers = forwardable(request.headers);
    const upstream = this.route.upstream ? new URL(this.route.upstream) : undefined;
    const send = upstream?.protocol === 'https:' ? httpsRequest : httpRequest;
    const outbound = upstream
      ? send({
          host: upstream.hostname,
          port: Number(upstream.port) || (upstream.protocol === 'https:' ? 443 : 80),
          method: request.method,
          path: target.href,
          headers: { ...headers, ...proxyAuthorization(upstream) },
          timeout: this.options.connectTimeoutMs ?? 30_000,
        })
      : httpRequest({
          host: resolution.address,
          family: resolution.family,
          port: Number(target.port) || 80,
          method: request.method,
          path: `${target.pathname}${target.search}`,
          headers,
          timeout: this.options.connectTimeoutMs ?? 30_000,
        });
    outbound.on('socket', (socket) => this.track(socket));
    outbound.on('response', (reply) => {
      response.writeHead(reply.statusCode ?? 502, reply.statusMessage, forwardable(reply.headers));
      reply.on('data', (chunk: Buffer) => {
        if (!this.count(chunk.length)) reply.destroy();
      });
      reply.pipe(response);
    });
    outbound.on('timeout', () => outbound.destroy(new Error('upstream timeout')));
    outbound.on('error', (error) => {
      if (upstream) this.record({ kind: 'upstream', target: target.href, detail: error.message });
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' }).end('Bad gateway');
      else response.destroy();
    });
    request.pipe(outbound);
  }

  /** `CONNECT host:port` (HTTPS, WSS, WS): checked, optionally certificate-verified, then spliced. */
  private async tunnel(request: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    this.track(client);
    const authority = parseAuthority(request.url ?? '');
    if (!authority) {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const { host, port } = authority;
    const resolution = await this.options.resolver.resolve(host);
    if (!resolution.ok) {
      this.record({
        kind: resolution.reason === 'dns' ? 'dns' : 'blocked',
        target: `${host}:${port}`,
        address: resolution.address,
      });
      client.end(
        `HTTP/1.1 ${resolution.reason === 'dns' ? '502 Bad Gateway' : '403 Forbidden'}\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    const first = head.length > 0 ? head : await firstChunk(client);
    if (!first) return;
    if (this.route.verifyTls && first[0] === 0x16) {
      const problem = await this.verifyCertificate(host, resolution.address, port);
      if (problem) {
        this.record({ kind: 'tls', target: `${host}:${port}`, detail: problem });
        client.destroy();
        return;
      }
    }
    let target: Duplex;
    try {
      target = this.route.upstream
        ? await connectThrough(
            new URL(this.route.upstream),
            host,
            port,
            this.options.connectTimeoutMs ?? 30_000,
          )
        : await connectDirect(resolution.address, port, this.options.connectTimeoutMs ?? 30_000);
    } catch (error) {
      if (this.route.upstream)
        this.record({ kind: 'upstream', target: `${host}:${port}`, detail: (error as Error).message });
      client.destroy();
      return;
    }
    this.track(target);
    target.write(first);
    target.on('data', (chunk: Buffer) => {
      if (!this.count(chunk.length)) target.destroy();
    });
    target.pipe(client);
    client.pipe(target);
    const end = () => {
      target.destroy();
      client.destroy();
    };
    target.on('close', end);
    client.on('close', end);
  }

  private verifyCertificate(host: string, address: string, port: number): Promise<string | undefined> {
    const key = `${host}:${port}`;
    let pending = this.verified.get(key);
    if (!pending) {
      pending = verifyTls(host, address, port, this.options.connectTimeoutMs ?? 30_000);
      this.verified.set(key, pending);
    }
    return pending;
  }
}

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name.toLowerCase())) continue;
    out[name] = value;
  }
  return out;
}

function proxyAuthorization(upstream: URL): Record<string, string> {
  if (!upstream.username) return {};
  const credentials = `${decodeURIComponent(upstream.username)}:${decodeURIComponent(upstream.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

export function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const match = authority.match(/^\[([^\]]+)\]:(\d+)$/) ?? authority.match(/^([^:]+):(\d+)$/);
  if (!match) return undefined;
  const port = Number(match[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) return undefined;
  return { host: match[1], port };
}

function firstChunk(socket: Duplex, timeoutMs = 30_000): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const done = (chunk?: Buffer) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      if (chunk) socket.pause();
      resolve(chunk);
    };
    const onData = (chunk: Buffer) => done(chunk);
    const onClose = () => done(undefined);
    const timer = setTimeout(() => {
      socket.destroy();
      done(undefined);
    }, timeoutMs);
    socket.on('data', onData);
    socket.once('close', onClose);
  });
}

function connectDirect(address: string, port: number, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: address, port });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('connect timeout')));
    socket.once('connect', () => {
      socket.setTimeout(0);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

function connectThrough(upstream: URL, host: string, port: number, timeoutMs: number): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    const authority = `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
    const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send({
      host: upstream.hostname,
      port: Number(upstream.port) || (upstream.protocol === 'https:' ? 443 : 80),
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...proxyAuthorization(upstream) },
      timeout: timeoutMs,
    });
    request.once('connect', (response, socket, head) => {
      if (response.statusCode !== 200) {
        socket.destroy();
        reject(new Error(`upstream proxy answered ${response.statusCode} to CONNECT`));
        return;
      }
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    request.once('timeout', () => request.destroy(new Error('upstream proxy timeout')));
    request.once('error', reject);
    request.end();
  });
}

function verifyTls(
  host: string,
  address: string,
  port: number,
  timeoutMs: number,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    // Connects to the checked address; the certificate is verified against the host the page asked for.
    const socket = tlsConnect({
      host: address,
      port,
      servername: isIP(host) ? undefined : host,
      rejectUnauthorized: true,
    });
    const finish = (problem?: string) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(timeoutMs, () => finish('TLS handshake timed out'));
    socket.once('secureConnect', () => finish(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      finish(`${error.code ?? 'TLS_ERROR'}: ${error.message}`),
    );
  });
}
