#!/usr/bin/env node
// A tiny HTTP round-robin load balancer for the local cluster (what an ingress or a Service does
// in Kubernetes):
//   node scripts/ops/round-robin-proxy.mjs --port 3100 --upstream 127.0.0.1:3101 --upstream 127.0.0.1:3102
// - requests go to the upstreams in turn; one that refuses connections is skipped (and rested for 2 s),
//   so new requests keep working while a gateway is down;
// - a request whose upstream dies mid-way gets a 502 in the API's error shape (or a closed
//   connection once the response has started): clients see an error, never a hang.
import { Agent, createServer, request as httpRequest } from 'node:http';

// Errors that prove the upstream never received the request: safe to try the next one.
const CONNECT_ERRORS = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH']);
const REST_MS = 2_000;
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export function startProxy({ port, host = '127.0.0.1', upstreams, log = () => undefined }) {
  const targets = upstreams.map((address) => {
    const [targetHost, targetPort] = address.split(':');
    // No keep-alive upstream: a request is only ever retried when its connection was refused, so a
    // POST that reached a gateway is never sent twice.
    return {
      host: targetHost,
      port: Number(targetPort),
      downUntil: 0,
      agent: new Agent({ keepAlive: false, maxSockets: 1024 }),
    };
  });
  let next = 0;
  const stats = { requests: 0, retried: 0, failed: 0 };

  const pick = (tried) => {
    for (let i = 0; i < targets.length; i += 1) {
      const target = targets[(next + i) % targets.length];
      if (!tried.has(target) && target.downUntil <= Date.now()) {
        next = (next + i + 1) % targets.length;
        return target;
      }
    }
    return targets.find((target) => !tried.has(target));
  };

  // The API's error shape (docs/compatibility.md#errors): {success:false, error:"Bad Gateway"}, the cause in details.
  const fail = (response, status, reason) => {
    stats.failed += 1;
    if (response.headersSent) return response.destroy();
    const body = JSON.stringify({ success: false, error: 'Bad Gateway', details: { reason } });
    response
      .writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'retry-after': '1',
      })
      .end(body);
  };

  const forward = (incoming, response, body, tried) => {
    const target = pick(tried);
    if (!target) return fail(response, 502, 'no gateway is reachable');
    tried.add(target);
    let connected = false;
    const headers = {
      ...incoming.headers,
      'x-forwarded-for': incoming.socket.remoteAddress ?? '',
      connection: 'close',
    };
    const upstream = httpRequest(
      {
        host: target.host,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers,
        agent: target.agent,
      },
      (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
        reply.on('error', () => response.destroy());
        reply.on('aborted', () => response.destroy());
      },
    );
    upstream.on('socket', (socket) => socket.once('connect', () => (connected = true)));
    upstream.on('error', (error) => {
      if (!connected && CONNECT_ERRORS.has(error.code) && !response.headersSent) {
        target.downUntil = Date.now() + REST_MS;
        stats.retried += 1;
        log(`upstream ${target.host}:${target.port} unavailable (${error.code}); trying the next one`);
        return forward(incoming, response, body, tried);
      }
      log(`upstream ${target.host}:${target.port} failed mid-request (${error.code ?? error.message})`);
      fail(response, 502, 'the gateway closed the connection before answering');
    });
    response.on('close', () => {
      if (!response.writableFinished) upstream.destroy();
    });
    upstream.end(body);
  };

  const server = createServer((incoming, response) => {
    stats.requests += 1;
    const chunks = [];
    let size = 0;
    incoming.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) incoming.destroy();
      else chunks.push(chunk);
    });
    incoming.on('end', () => forward(incoming, response, Buffer.concat(chunks), new Set()));
  });
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve) =>
    server.listen(port, host, () =>
      resolve({
        url: `http://${host}:${server.address().port}`,
        stats,
        close: () => new Promise((done) => (server.closeAllConnections(), server.close(() => done()))),
      }),
    ),
  );
}

const isMain = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  const args = process.argv.slice(2);
  const upstreams = [];
  let port = 3100;
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--port') port = Number(args[++i]);
    else if (args[i] === '--upstream') upstreams.push(args[++i]);
  }
  if (upstreams.length === 0) {
    process.stderr.write(
      'usage: round-robin-proxy.mjs --port N --upstream host:port [--upstream host:port …]\n',
    );
    process.exit(2);
  }
  const proxy = await startProxy({
    port,
    upstreams,
    log: (line) => process.stdout.write(`${JSON.stringify({ level: 40, msg: line, time: Date.now() })}\n`),
  });
  process.stdout.write(
    `${JSON.stringify({ level: 30, msg: 'proxy listening', url: proxy.url, upstreams })}\n`,
  );
  const stop = () => proxy.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
