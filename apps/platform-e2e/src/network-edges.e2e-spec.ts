import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';

import { type FixtureServer, html, rawHttpExchange, startFixtureServer } from '@quarry/testing';

import { call } from './support/api-client';
import { eventually } from './support/crawl-support';
import { type Platform, startStandalone } from './support/platform';

/** A non-loopback IPv4 address of this machine: connections to it have that address as their peer, not 127.0.0.1. */
function lanAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
  if (!address)
    throw new Error('this test needs a non-loopback IPv4 interface to connect from a non-loopback peer');
  return address;
}

/** Network edges of the one-process server, listening on every interface as a container would. */
describe('network edges', () => {
  let platform: Platform;
  let port: number;
  /** Fixture site and webhook receiver on the machine's own non-loopback address, the one address the deployment allows. */
  let site: FixtureServer;
  let hooks = 0;

  beforeAll(async () => {
    const lan = lanAddress();
    site = await startFixtureServer(
      {
        '/': html('<html><body><main><h1>Edge page</h1><p>Text of the edge page.</p></main></body></html>'),
        '/hook-ok': html('ok'),
        '/hook-500': (_request, response) =>
          void ((hooks += 1), response.writeHead(500).end('receiver down')),
      },
      lan,
    );
    platform = await startStandalone({
      HOST: '0.0.0.0',
      BROWSER_CONCURRENCY: '0',
      ALLOW_PRIVATE_NETWORKS: 'false',
      OUTBOUND_ALLOWLIST: lan,
      WEBHOOK_MAX_ATTEMPTS: '2',
      WEBHOOK_RETRY_BASE_MS: '200',
    });
    port = Number(new URL(platform.url()).port);
  });
  afterAll(async () => {
    await platform?.stop();
    await site?.close();
  });

  describe('the admin endpoint of the CLI', () => {
    const adminCall = (host: string, headers: Record<string, string>) => {
      const { token } = JSON.parse(
        readFileSync(join(platform.env['DATA_DIR'], 'standalone.json'), 'utf8'),
      ) as { token: string };
      return fetch(`http://${host}:${port}/internal/admin/commands`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-admin-token': token, ...headers },
        body: JSON.stringify({ argv: ['teams', 'list'] }),
      });
    };

    it('refuses a non-loopback peer with the right token, whatever X-Forwarded-For says', async () => {
      const forgeries: Record<string, string>[] = [
        { 'x-forwarded-for': '127.0.0.1' },
        { 'x-forwarded-for': '::1' },
        { 'x-forwarded-for': '10.0.0.1, 127.0.0.1' },
        { 'x-real-ip': '127.0.0.1', forwarded: 'for=127.0.0.1' },
      ];
      for (const forged of forgeries) {
        const response = await adminCall(lanAddress(), forged);
        expect(response.status).toBe(403);
        expect(await response.json()).toEqual({ success: false, error: 'Forbidden' });
      }
    });

    it('serves a real loopback peer, also when it sends X-Forwarded-For', async () => {
      const plain = await adminCall('127.0.0.1', {});
      expect(plain.status).toBe(200);
      expect(await plain.json()).toMatchObject({ exitCode: 0 });
      const forwarded = await adminCall('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' });
      expect(forwarded.status).toBe(200);
    });
  });

  describe('requests the framework refuses', () => {
    it('answers oversized headers with 431 in the spec shape', async () => {
      const response = await rawHttpExchange(
        port,
        `GET /v2/team/credit-usage HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(60_000)}\r\nConnection: close\r\n\r\n`,
      );
      expect(response.status).toBe(431);
      expect(response.body).toEqual({ success: false, error: 'Request Header Fields Too Large' });
    });

    it('answers a method a known path does not serve with 405 and Allow, in the spec shape', async () => {
      for (const method of ['PUT', 'FOO', 'DELETE']) {
        const response = await rawHttpExchange(
          port,
          `${method} /v2/scrape HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
        );
        expect(response.status).toBe(405);
        expect(response.headers['allow']).toBe('POST');
        expect(response.body).toEqual({ success: false, error: 'Method Not Allowed' });
      }
      const status = await rawHttpExchange(
        port,
        `POST /v2/crawl/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      expect(status.status).toBe(405);
      expect(status.headers['allow']).toBe('DELETE, GET, HEAD');
    });
  });

  describe('webhook targets', () => {
    const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
      call<T & { success?: boolean; error?: string; details?: unknown }>(platform.url(), method, path, {
        apiKey: platform.apiKey,
        body,
      });
    /** Every route that takes a webhook, with that webhook. */
    const creations = (webhook: string): [string, string, unknown][] => [
      ['POST', '/v2/crawl', { url: `${site.url}/`, limit: 1, sitemap: 'skip', webhook }],
      [
        'POST',
        '/v2/batch/scrape',
        { urls: [`${site.url}/`], webhook: { url: webhook, events: ['completed'] } },
      ],
      ['POST', '/v2/extract', { urls: [`${site.url}/`], prompt: 'the heading', webhook }],
      ['POST', '/v2/agent', { prompt: 'the heading of the page', urls: [`${site.url}/`], webhook }],
      [
        'POST',
        '/v2/monitor',
        {
          name: 'edge',
          schedule: { cron: '0 * * * *' },
          targets: [{ type: 'scrape', urls: [`${site.url}/`] }],
          webhook: { url: webhook },
        },
      ],
    ];

    it('refuses private webhook URLs at creation with 400 naming the rule, on every route that takes one', async () => {
      const refusals: [string, RegExp][] = [
        [`http://127.0.0.1:${site.port}/hook-ok`, /127\.0\.0\.1 is a private/],
        [`http://[::127.0.0.1]:${site.port}/hook-ok`, /\[::7f00:1\] is a private/],
        [`http://hooks.localhost:${site.port}/hook-ok`, /hooks\.localhost resolves to 127\.0\.0\.1/],
        [`http://169.254.169.254/latest/meta-data`, /169\.254\.169\.254 is a private/],
      ];
      for (const [webhook, reason] of refusals) {
        for (const [method, path, body] of creations(webhook)) {
          const response = await api(method, path, body);
          expect({ path, webhook, status: response.status }).toEqual({ path, webhook, status: 400 });
          expect(response.body.error).toMatch(reason);
          expect(response.body.error).toMatch(
            /ALLOW_PRIVATE_NETWORKS=true or lists the address in OUTBOUND_ALLOWLIST$/,
          );
          expect(response.body.details).toEqual([expect.objectContaining({ path: ['webhook', 'url'] })]);
        }
      }
      // updating a monitor to a private webhook is refused the same way
      const monitor = await api<{ data: { id: string } }>(
        'POST',
        '/v2/monitor',
        creations(`${site.url}/hook-ok`)[4][2],
      );
      expect(monitor.status).toBe(200);
      const update = await api('PATCH', `/v2/monitor/${monitor.body.data.id}`, {
        webhook: { url: `http://127.0.0.1:${site.port}/hook-ok` },
      });
      expect(update.status).toBe(400);
      expect(update.body.error).toMatch(/^Webhook URL refused/);
      expect(hooks).toBe(0);
    });

    it('accepts webhooks on allowed addresses', async () => {
      for (const [method, path, body] of creations(`${site.url}/hook-ok`)) {
        const response = await api(method, path, body);
        expect({ path, status: response.status }).toEqual({ path, status: 200 });
      }
    });

    it('shows failed deliveries on the job status and in quarry_webhook_deliveries_total', async () => {
      const started = await api<{ id: string }>('POST', '/v2/crawl', {
        url: `${site.url}/`,
        limit: 1,
        sitemap: 'skip',
        webhook: `${site.url}/hook-500`,
      });
      expect(started.status).toBe(200);
      type Status = {
        status: string;
        webhookDelivery?: {
          delivered: number;
          pending: number;
          failed: number;
          lastError?: Record<string, unknown>;
        };
      };
      const done = await eventually(async () => {
        const status = await api<Status>('GET', `/v2/crawl/${started.body.id}`);
        return status.body.status === 'completed' && status.body.webhookDelivery?.pending === 0
          ? status.body
          : undefined;
      });
      // started, the page and completed: each tried twice (WEBHOOK_MAX_ATTEMPTS=2), then given up
      expect(done.webhookDelivery).toEqual({
        delivered: 0,
        pending: 0,
        failed: 3,
        lastError: {
          event: 'crawl.completed',
          error: 'HTTP 500',
          statusCode: 500,
          attempts: 2,
          nextAttemptAt: null,
        },
      });
      expect(hooks).toBe(6);
      const metrics = await (await fetch(`${platform.url()}/metrics`)).text();
      expect(metrics).toMatch(/^quarry_webhook_deliveries_total\{[^}]*outcome="failed"[^}]*\} 3$/m);
      expect(metrics).toMatch(/^quarry_webhook_deliveries_total\{[^}]*outcome="retry"[^}]*\} 3$/m);
    });
  });
});
