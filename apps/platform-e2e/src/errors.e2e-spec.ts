import { randomUUID } from 'node:crypto';

import { Client } from 'pg';

import { type FixtureServer, html, startFixtureServer } from '@quarry/testing';

import { type ApiResponse, call } from './support/api-client';
import { createKey, runCli, runNpmCli } from './support/cli';
import { type Platform, startCluster } from './support/platform';

type ErrorBody = {
  success: boolean;
  error: string;
  code?: string;
  details?: unknown;
  data?: { metadata: Record<string, unknown> };
};

/**
 * The error table of the foundation issue (docs/compatibility.md#errors), on a cluster that refuses private networks
 * except the fixture site's own address (127.0.0.1 via OUTBOUND_ALLOWLIST).
 */
describe('errors in the spec shape', () => {
  let platform: Platform;
  let site: FixtureServer;
  let internal: FixtureServer;
  let databaseUrl: string;

  beforeAll(async () => {
    internal = await startFixtureServer({ '/secret': html('<p>internal secret</p>') }, '127.0.0.2');
    site = await startFixtureServer({
      '/': html('<html><body><main><h1>Public page</h1><p>Some text for the test.</p></main></body></html>'),
      '/slow': (_request, response) => {
        const timer = setTimeout(() => response.end('<p>late</p>'), 10_000);
        response.on('close', () => clearTimeout(timer));
      },
      '/to-internal': (_request, response) =>
        response.writeHead(302, { location: `${internal.url}/secret` }).end(),
    });
    platform = await startCluster({
      gateways: 1,
      workers: 1,
      env: {
        ALLOW_PRIVATE_NETWORKS: 'false',
        OUTBOUND_ALLOWLIST: '127.0.0.1',
        MAX_BODY_BYTES: '65536',
        BROWSER_CONCURRENCY: '0',
      },
    });
    databaseUrl = platform.database?.url ?? '';
  });
  afterAll(async () => {
    await platform?.stop();
    await site?.close();
    await internal?.close();
  });

  const scrape = (body: unknown, apiKey = platform.apiKey, headers?: Record<string, string>) =>
    call<ErrorBody>(platform.url(), 'POST', '/v2/scrape', { apiKey, body, headers });
  const expectError = (response: ApiResponse<ErrorBody>, status: number, error: string | RegExp) => {
    expect(response.status).toBe(status);
    expect(response.body.success).toBe(false);
    if (typeof error === 'string') expect(response.body.error).toBe(error);
    else expect(response.body.error).toMatch(error);
  };

  it('400: schema failures carry details; unknown keys and custom rules have their messages', async () => {
    const unknown = await scrape({ url: `${site.url}/`, notAnOption: 1 });
    expectError(
      unknown,
      400,
      'Unrecognized key in body -- please review the v2 API documentation for request body changes',
    );
    expect(unknown.body.code).toBe('BAD_REQUEST');
    expect(Array.isArray(unknown.body.details)).toBe(true);
    const waitFor = await scrape({ url: `${site.url}/`, timeout: 2_000, waitFor: 1_500 });
    expectError(waitFor, 400, 'waitFor must not exceed half of timeout');
    expect(waitFor.body.details).toEqual([expect.objectContaining({ path: ['waitFor'] })]);
    const badType = await scrape({ url: `${site.url}/`, timeout: 'soon' });
    expectError(badType, 400, 'Bad Request');
  });

  it('400: Invalid URL for missing, malformed and non-http URLs', async () => {
    for (const body of [
      {},
      { url: 'not a url' },
      { url: 'ftp://example.com/file' },
      { url: 'example.com' },
    ]) {
      expectError(await scrape(body), 400, 'Invalid URL');
    }
  });

  it('400: malformed JSON', async () => {
    const response = await call<ErrorBody>(platform.url(), 'POST', '/v2/scrape', {
      apiKey: platform.apiKey,
      rawBody: '{"url": ',
      headers: { 'content-type': 'application/json' },
    });
    expectError(response, 400, 'Bad request, malformed JSON');
    expect(response.body.code).toBe('BAD_REQUEST_INVALID_JSON');
  });

  it('400, not 500, for what an API fuzzer sent (schemathesis against /v2/openapi.json, 2026-12-04)', async () => {
    const apiKey = platform.apiKey;
    // U+0000 cannot be stored by PostgreSQL: refused where the body is parsed, on every route.
    const nul = 'Strings in the request body may not contain the NUL character (\\u0000)';
    const search = await call<ErrorBody>(platform.url(), 'POST', '/v2/search', {
      apiKey,
      body: { query: 'a\u0000b' },
    });
    expectError(search, 400, nul);
    expect(search.body).toMatchObject({ code: 'BAD_REQUEST', details: [{ path: ['query'] }] });
    const headers = await scrape({ url: `${site.url}/`, headers: { 'x-probe': 'a\u0000' } });
    expectError(headers, 400, nul);
    expect(headers.body.details).toEqual([expect.objectContaining({ path: ['headers', 'x-probe'] })]);
    // A cursor of the right length that is not a UUID.
    const jobs = await call<ErrorBody>(platform.url(), 'GET', `/v2/team/jobs?cursor=0.${'0'.repeat(36)}`, {
      apiKey,
    });
    expectError(jobs, 400, 'Bad Request');
    expect(jobs.body.details).toEqual([
      expect.objectContaining({ path: ['cursor'], message: 'cursor must be the value given in `next`' }),
    ]);
    // A time past the last instant a date can hold.
    const agents = await call<ErrorBody>(platform.url(), 'GET', '/v2/agent?before=9007199254740990', {
      apiKey,
    });
    expect(agents.status).toBe(400);
    expect(agents.body.code).toBe('BAD_REQUEST');
    // Multipart without a boundary, and a multipart body cut short.
    const noBoundary = await call<ErrorBody>(platform.url(), 'POST', '/v2/parse', {
      apiKey,
      rawBody: 'x',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expectError(noBoundary, 400, /^Malformed multipart\/form-data body/);
    const cut = await call<ErrorBody>(platform.url(), 'POST', '/v2/parse', {
      apiKey,
      rawBody: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    });
    expect(cut.status).toBe(400);
    expect(cut.body.code).toBe('BAD_REQUEST');
  });

  it('400: job ids must be UUIDs (checked before anything else about the job)', async () => {
    const response = await call<ErrorBody>(platform.url(), 'GET', '/v2/scrape/None', {
      apiKey: platform.apiKey,
    });
    expectError(response, 400, 'Invalid job ID format. Job ID must be a valid UUID.');
  });

  it('400: actions need an action-capable engine; an empty list is fine', async () => {
    const response = await scrape({ url: `${site.url}/`, actions: [{ type: 'click', selector: 'a' }] });
    expectError(response, 400, /Actions are not supported/);
    expect(response.body.code).toBe('SCRAPE_ACTIONS_NOT_SUPPORTED');
    expect((await scrape({ url: `${site.url}/`, actions: [] })).status).toBe(200);
  });

  it('401: missing, malformed, unknown and revoked keys', async () => {
    expectError(await scrape({ url: `${site.url}/` }, ''), 401, 'Unauthorized: Invalid token');
    expectError(
      await scrape({ url: `${site.url}/` }, '', { authorization: 'Basic abc' }),
      401,
      'Unauthorized: Invalid token',
    );
    expectError(
      await scrape({ url: `${site.url}/` }, 'fc-0000000000000000000000000000000000000000'),
      401,
      'Unauthorized: Invalid token',
    );
    const key = createKey(databaseUrl, 'revoked-team', ['--credits', '10']);
    runCli(databaseUrl, ['keys', 'revoke', key]);
    expectError(await scrape({ url: `${site.url}/` }, key), 401, 'Unauthorized: Invalid token');
  });

  it('keys from `npm run --silent cli -- keys create` at the repository root: the key alone on the last stdout line', async () => {
    const team = `npm-${randomUUID().slice(0, 8)}`;
    const created = runNpmCli(databaseUrl, ['keys', 'create', '--team', team, '--credits', '7']);
    expect({ status: created.status, stderr: created.status === 0 ? '' : created.stderr }).toEqual({
      status: 0,
      stderr: '',
    });
    const lines = created.stdout.replace(/\n$/, '').split('\n');
    const key = lines[lines.length - 1];
    expect(key).toMatch(/^fc-[0-9a-f]{48}$/);
    const usage = await call<{ success: boolean; data: { remainingCredits: number } }>(
      platform.url(),
      'GET',
      '/v2/team/credit-usage',
      { apiKey: key },
    );
    expect(usage.status).toBe(200);
    expect(usage.body.data.remainingCredits).toBe(7);
    // Without --credits the team starts empty: the same form, the key works and the balance is 0.
    const bare = runNpmCli(databaseUrl, ['keys', 'create', '--team', `${team}-bare`]);
    expect(bare.status).toBe(0);
    const bareKey = bare.stdout.trim().split('\n').pop() ?? '';
    const bareUsage = await call<{ data: { remainingCredits: number } }>(
      platform.url(),
      'GET',
      '/v2/team/credit-usage',
      { apiKey: bareKey },
    );
    expect(bareUsage.status).toBe(200);
    expect(bareUsage.body.data.remainingCredits).toBe(0);
  });

  it('403: a key without the permission', async () => {
    const key = createKey(databaseUrl, 'crawl-only', ['--credits', '10', '--scopes', 'crawl']);
    expectError(await scrape({ url: `${site.url}/` }, key), 403, 'Forbidden');
  });

  it('402: a team without credits', async () => {
    const key = createKey(databaseUrl, 'broke');
    expectError(await scrape({ url: `${site.url}/` }, key), 402, 'Payment Required: Insufficient credits');
  });

  it('404: unknown paths, unknown jobs and other teams’ jobs', async () => {
    expectError(
      await call<ErrorBody>(platform.url(), 'GET', '/v2/nothing-here', { apiKey: platform.apiKey }),
      404,
      'Not Found',
    );
    expectError(
      await call<ErrorBody>(platform.url(), 'GET', `/v2/scrape/${randomUUID()}`, { apiKey: platform.apiKey }),
      404,
      'Job not found.',
    );
    const mine = await scrape({ url: `${site.url}/` });
    const jobId = String(mine.body.data?.metadata['scrapeId']);
    const other = createKey(databaseUrl, 'other-team', ['--credits', '10']);
    expectError(
      await call<ErrorBody>(platform.url(), 'GET', `/v2/scrape/${jobId}`, { apiKey: other }),
      404,
      'Job not found.',
    );
  });

  it('408: the request timeout covers the whole job', async () => {
    const started = Date.now();
    const response = await scrape({ url: `${site.url}/slow`, timeout: 1_500 });
    expectError(response, 408, 'Request Timeout');
    expect(response.body.code).toBe('SCRAPE_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('413: bodies over the configured limit', async () => {
    const response = await scrape({ url: `${site.url}/`, headers: { 'x-padding': 'x'.repeat(70_000) } });
    expectError(response, 413, 'Payload Too Large');
  });

  it('429: the per-team rate limit, with Retry-After', async () => {
    runCli(databaseUrl, ['teams', 'create', 'limited', '--rate-limit', '2', '--credits', '100']);
    const key = createKey(databaseUrl, 'limited');
    const statuses: number[] = [];
    let limited: ApiResponse<ErrorBody> | undefined;
    for (let i = 0; i < 4; i += 1) {
      const response = await scrape({ url: `${site.url}/` }, key);
      statuses.push(response.status);
      if (response.status === 429) limited = response;
    }
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(limited).toBeDefined();
    expectError(limited as ApiResponse<ErrorBody>, 429, 'Rate limit exceeded');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('refuses private targets directly and after a redirect (200 with metadata.statusCode 403)', async () => {
    for (const url of [
      `${internal.url}/secret`,
      `${site.url}/to-internal`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]:9/',
    ]) {
      const response = await scrape({ url });
      expect(response.status).toBe(200);
      expect(response.body.data?.metadata).toMatchObject({
        statusCode: 403,
        error: expect.stringMatching(/^Blocked insecure target URL/),
      });
    }
    expect(internal.hits.get('/secret')).toBeUndefined();
  });

  it('503 while the database refuses connections, then recovers without a restart', async () => {
    const name = platform.database?.name ?? '';
    const admin = new Client({
      connectionString:
        process.env['TEST_DATABASE_URL'] ?? 'postgresql://quarry:quarry@127.0.0.1:5432/quarry',
    });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      const down = await scrape({ url: `${site.url}/` });
      expectError(down, 503, 'Service Unavailable');
      const ready = await call<ErrorBody>(platform.gateways[0].url, 'GET', '/readyz');
      expect(ready.status).toBe(503);
    } finally {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    let recovered = 0;
    for (let attempt = 0; attempt < 30 && recovered !== 200; attempt += 1) {
      recovered = (await scrape({ url: `${site.url}/` })).status;
      if (recovered !== 200) await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    expect(recovered).toBe(200);
  });
});
