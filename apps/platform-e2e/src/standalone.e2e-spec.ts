import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { BASIC_SITE, type FixtureServer, startBasicSite } from '@quarry/testing';

import { call } from './support/api-client';
import { type Platform, startStandalone } from './support/platform';
import { REPO_ROOT } from './support/service-process';

/** `make start`: one process on embedded PGlite and the in-memory bus, administered by the CLI while it runs. */
describe('one-process mode', () => {
  let platform: Platform;
  let site: FixtureServer;

  beforeAll(async () => {
    site = await startBasicSite();
    platform = await startStandalone();
  });
  afterAll(async () => {
    await platform?.stop();
    await site?.close();
  });

  const cli = (args: string[]) => {
    const result = spawnSync(process.execPath, [join(REPO_ROOT, 'dist/apps/cli/main.js'), ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env['PATH'] ?? '', DATA_DIR: platform.env['DATA_DIR'] },
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    return result.stdout.trim().split('\n');
  };

  it('serves GET / and readiness', async () => {
    const root = await call(platform.url(), 'GET', '/');
    expect(root.status).toBe(200);
    expect(root.body).toMatchObject({
      message: expect.any(String),
      documentation_url: expect.stringMatching(/^http/),
    });
    expect((await call(platform.url(), 'GET', '/readyz')).status).toBe(200);
    expect((await call(platform.url(), 'GET', '/livez')).status).toBe(200);
    const openapi = await call<{
      openapi: string;
      paths: Record<
        string,
        Record<
          string,
          { responses: Record<string, { content: Record<string, { schema: Record<string, unknown> }> }> }
        >
      >;
      components: { schemas: { Error: { required: string[]; properties: Record<string, unknown> } } };
    }>(platform.url(), 'GET', '/v2/openapi.json');
    expect(openapi.body.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining(['/v2/scrape', '/v2/scrape/{jobId}']),
    );
    // the answers are published from the zod contracts: the scrape document and the error body
    const scrapeOk = openapi.body.paths['/v2/scrape']['post'].responses['200'].content['application/json']
      .schema as {
      required: string[];
      properties: { data: { required: string[]; properties: Record<string, unknown> } };
    };
    expect(scrapeOk.required).toEqual(['success', 'data']);
    expect(scrapeOk.properties.data.required).toEqual(['metadata']);
    expect(Object.keys(scrapeOk.properties.data.properties)).toEqual(
      expect.arrayContaining(['markdown', 'changeTracking', 'blocks', 'actions']),
    );
    expect(openapi.body.components.schemas.Error.required).toEqual(['success', 'error']);
  });

  it('scrapes with the bootstrap key', async () => {
    const response = await call<{ success: boolean; data: { markdown: string } }>(
      platform.url(),
      'POST',
      '/v2/scrape',
      {
        apiKey: platform.apiKey,
        body: { url: `${site.url}/article` },
      },
    );
    expect(response.status).toBe(200);
    expect(response.body.data.markdown).toContain(BASIC_SITE.articleMarker);
  });

  it('creates and revokes keys from the CLI while the server owns the embedded database', async () => {
    const lines = cli(['keys', 'create', '--team', 'cli-team', '--credits', '5']);
    const key = lines[lines.length - 1];
    expect(key).toMatch(/^fc-[0-9a-f]{48}$/);
    const ok = await call(platform.url(), 'POST', '/v2/scrape', {
      apiKey: key,
      body: { url: `${site.url}/` },
    });
    expect(ok.status).toBe(200);
    cli(['keys', 'revoke', key]);
    // Revocation reaches the in-memory key cache within its TTL.
    let status = 200;
    for (let attempt = 0; attempt < 40 && status !== 401; attempt += 1) {
      status = (
        await call(platform.url(), 'POST', '/v2/scrape', { apiKey: key, body: { url: `${site.url}/` } })
      ).status;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(status).toBe(401);
  });

  it('exposes Prometheus metrics', async () => {
    const metrics = await call<string>(platform.url(), 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('quarry_http_requests_total');
    expect(metrics.body).toContain('quarry_jobs_finished_total');
  });
});
