import { randomUUID } from 'node:crypto';

import { type DynamicModule, Module } from '@nestjs/common';

import { CreditsService } from '@quarry/billing';
import { IdentityRepository, KeyManagementService } from '@quarry/identity';
import { JobOutcomeStore, JobRepository } from '@quarry/jobs';
import {
  PlatformModule,
  type PlatformRuntime,
  type RunningService,
  runService,
} from '@quarry/platform/runtime';
import {
  createTestDatabase,
  type FixtureServer,
  startFixtureServer,
  testConfig,
  type TestDatabase,
} from '@quarry/testing';

import { OperatorApiModule } from '../admin/operator-api.module';
import { ApiModule } from '../api.module';
import { configureApiHttp } from '../api-http';

const ADMIN_KEY = `admin-${'9'.repeat(40)}`;

/** What the gateway serves: the public API and the admin API. */
@Module({})
class TestGatewayModule {
  static forRoot(runtime: PlatformRuntime): DynamicModule {
    return {
      module: TestGatewayModule,
      imports: [PlatformModule.forRoot(runtime), ApiModule, OperatorApiModule],
    };
  }
}

interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/** The team routes (`/v2/team…`) and the admin API (`/admin/v1`) over HTTP, on a real PostgreSQL database. */
describe('team and admin routes', () => {
  let database: TestDatabase;
  let service: RunningService;
  let worker: FixtureServer;
  let keyA: string;
  let keyB: string;
  let teamA: string;

  const call = async <T = Record<string, unknown>>(
    method: string,
    path: string,
    key?: string,
    body?: unknown,
  ): Promise<Answer<T>> => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json()) as T };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    // another service's /readyz, as a scrape worker answers it when its browser is down
    worker = await startFixtureServer({
      '/readyz': (_request, response) =>
        void response.writeHead(503, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            success: false,
            error: 'Service Unavailable',
            details: { browser: { ok: false, error: 'browser disconnected', ms: 1 } },
          }),
        ),
    });
    service = await runService(
      {
        name: 'gateway',
        migrates: false,
        module: (runtime) => TestGatewayModule.forRoot(runtime),
        configureHttp: configureApiHttp,
      },
      testConfig({
        SERVICE_NAME: 'gateway',
        DATABASE_URL: database.url,
        BUS_DRIVER: 'memory',
        ADMIN_API_KEY: ADMIN_KEY,
        PUBLIC_URL: 'http://api.test',
        ADMIN_HEALTH_URLS: `scrape-worker=${worker.url},doc-parser=http://127.0.0.1:9`,
        GRAFANA_URL: 'https://grafana.test/',
        RATE_LIMIT_PER_MINUTE: '0',
      }),
    );
    const db = service.runtime.database;
    const identity = new KeyManagementService(new IdentityRepository(db));
    const a = await identity.createKey('team-a', { name: 'ci' });
    const b = await identity.createKey('team-b');
    keyA = a.key;
    keyB = b.key;
    teamA = a.teamId;
    const credits = new CreditsService(db);
    await credits.grant(a.teamId, 1_000);
    const jobs = new JobRepository(db);
    const outcomes = new JobOutcomeStore(db);
    // team A: a scrape with its document, a failed crawl, a monitor check; team B: a scrape
    const scrapeId = randomUUID();
    await jobs.create({
      id: scrapeId,
      teamId: a.teamId,
      apiKeyId: a.id,
      kind: 'scrape',
      input: { url: 'https://a.example/page' },
      zeroDataRetention: false,
    });
    await outcomes.complete({
      jobId: scrapeId,
      teamId: a.teamId,
      kind: 'scrape',
      apiKeyId: a.id,
      credits: 3,
      documents: [
        {
          sourceUrl: 'https://a.example/page',
          url: 'https://a.example/page',
          urlKey: 'a.example/page',
          statusCode: 200,
          document: {
            markdown: '# Page A',
            metadata: { title: 'Page A', sourceURL: 'https://a.example/page', statusCode: 200 },
          } as never,
        },
      ],
    });
    const crawlId = randomUUID();
    await jobs.create({
      id: crawlId,
      teamId: a.teamId,
      kind: 'crawl',
      input: { url: 'https://a.example/' },
      zeroDataRetention: false,
    });
    await jobs.setStatus(crawlId, 'failed', {
      code: 'SCRAPE_SITE_ERROR',
      message: 'The target site could not be loaded',
    });
    const monitorId = randomUUID();
    await db.sql.query(
      `INSERT INTO monitors (id, team_id, name, status, cron, timezone, targets, retention_days, judge_enabled)
       VALUES ($1, $2, 'Pricing page', 'active', '0 * * * *', 'UTC', '[]'::jsonb, 30, false)`,
      [monitorId, a.teamId],
    );
    await db.sql.query(
      `INSERT INTO monitor_checks (id, monitor_id, team_id, status, trigger, billing_status, summary, target_results, actual_credits, started_at, finished_at, created_at)
       VALUES ($1, $2, $3, 'partial', 'manual', 'confirmed', '{}'::jsonb, '[]'::jsonb, 2, now() - interval '3 seconds', now(), now() + interval '1 second')`,
      [randomUUID(), monitorId, a.teamId],
    );
    const otherId = randomUUID();
    await jobs.create({
      id: otherId,
      teamId: b.teamId,
      kind: 'scrape',
      input: { url: 'https://b.example/' },
      zeroDataRetention: false,
    });
  }, 120_000);

  afterAll(async () => {
    await service?.close();
    await worker?.close();
    await database?.drop();
  });

  it('lists the team’s jobs of every kind and its monitor checks, newest first, and never another team’s', async () => {
    const all = await call<{
      success: boolean;
      data: {
        id: string;
        kind: string;
        status: string;
        detail: string | null;
        target: string | null;
        creditsUsed: number;
        error: unknown;
        durationMs: number | null;
      }[];
    }>('GET', '/v2/team/jobs', keyA);
    expect(all.status).toBe(200);
    expect(all.body.data.map((item) => item.kind)).toEqual(['monitor_check', 'crawl', 'scrape']);
    expect(all.body.data[0]).toMatchObject({
      status: 'completed',
      detail: 'partial',
      target: 'Pricing page',
      creditsUsed: 2,
    });
    expect(all.body.data[0].durationMs).toBeGreaterThanOrEqual(2_000);
    expect(all.body.data[1]).toMatchObject({
      status: 'failed',
      error: { code: 'SCRAPE_SITE_ERROR', message: 'The target site could not be loaded' },
    });
    expect(all.body.data[2]).toMatchObject({
      status: 'completed',
      target: 'https://a.example/page',
      creditsUsed: 3,
      error: null,
    });
    const other = await call<{ data: { target: string }[] }>('GET', '/v2/team/jobs', keyB);
    expect(other.body.data.map((item) => item.target)).toEqual(['https://b.example/']);
  });

  it('filters by kind and status and pages with an opaque cursor in `next`', async () => {
    const failed = await call<{ data: { kind: string }[] }>('GET', '/v2/team/jobs?status=failed', keyA);
    expect(failed.body.data.map((item) => item.kind)).toEqual(['crawl']);
    const checks = await call<{ data: { kind: string }[] }>('GET', '/v2/team/jobs?kind=monitor_check', keyA);
    expect(checks.body.data.map((item) => item.kind)).toEqual(['monitor_check']);
    const first = await call<{ data: { kind: string }[]; next: string }>(
      'GET',
      '/v2/team/jobs?limit=2',
      keyA,
    );
    expect(first.body.data.map((item) => item.kind)).toEqual(['monitor_check', 'crawl']);
    expect(first.body.next).toMatch(
      /^http:\/\/api\.test\/v2\/team\/jobs\?limit=2&cursor=\d+\.[0-9a-f-]{36}$/,
    );
    const next = new URL(first.body.next);
    const second = await call<{ data: { kind: string }[]; next?: string }>(
      'GET',
      `${next.pathname}${next.search}`,
      keyA,
    );
    expect(second.body.data.map((item) => item.kind)).toEqual(['scrape']);
    expect(second.body.next).toBeUndefined();
    const bad = await call('GET', '/v2/team/jobs?kind=teleport&limit=1000', keyA);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, error: expect.stringMatching(/kind|limit/) });
    expect((await call('GET', '/v2/team/jobs')).status).toBe(401);
  });

  it('shows one job with its documents and serves a document only to its team', async () => {
    const list = await call<{ data: { id: string; kind: string }[] }>(
      'GET',
      '/v2/team/jobs?kind=scrape',
      keyA,
    );
    const scrapeId = list.body.data[0].id;
    const detail = await call<{
      data: { input: unknown; documents: { id: string; title: string }[]; documentCount: number };
    }>('GET', `/v2/team/jobs/${scrapeId}`, keyA);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({
      input: { url: 'https://a.example/page' },
      documentCount: 1,
      documents: [{ title: 'Page A' }],
    });
    const documentId = detail.body.data.documents[0].id;
    const document = await call<{ data: { markdown: string } }>(
      'GET',
      `/v2/team/jobs/${scrapeId}/documents/${documentId}`,
      keyA,
    );
    expect(document.body.data.markdown).toBe('# Page A');
    expect((await call('GET', `/v2/team/jobs/${scrapeId}`, keyB)).status).toBe(404);
    expect((await call('GET', `/v2/team/jobs/${scrapeId}/documents/${documentId}`, keyB)).status).toBe(404);
    expect((await call('GET', `/v2/team/jobs/${scrapeId}/documents/${randomUUID()}`, keyA)).status).toBe(404);
    expect((await call('GET', '/v2/team/jobs/not-a-uuid', keyA)).status).toBe(400);
    // a scrape answered from the cache stores no document of its own: it lists the cached one
    const hitId = randomUUID();
    const jobs = new JobRepository(service.runtime.database);
    await jobs.create({
      id: hitId,
      teamId: teamA,
      kind: 'scrape',
      input: { url: 'https://a.example/page' },
      zeroDataRetention: false,
    });
    await new JobOutcomeStore(service.runtime.database).complete({
      jobId: hitId,
      teamId: teamA,
      kind: 'scrape',
      credits: 0,
      result: { cachedDocumentId: documentId, overlay: { metadata: {} } },
    });
    const hit = await call<{ data: { documents: { id: string }[]; documentCount: number } }>(
      'GET',
      `/v2/team/jobs/${hitId}`,
      keyA,
    );
    expect(hit.body.data).toMatchObject({ documentCount: 1, documents: [{ id: documentId }] });
    expect((await call('GET', `/v2/team/jobs/${hitId}/documents/${documentId}`, keyA)).status).toBe(200);
  });

  it('answers the team, its limits and its usage per day and endpoint', async () => {
    const team = await call<{ data: Record<string, unknown> }>('GET', '/v2/team', keyA);
    expect(team.body.data).toMatchObject({
      name: 'team-a',
      credits: 997,
      rateLimitPerMinute: 0,
      maxConcurrency: 2,
      apiKey: { name: 'ci', scopes: ['*'] },
    });
    const usage = await call<{
      days: { date: string; credits: number; creditsByEndpoint: Record<string, number> }[];
      totals: { credits: number };
    }>('GET', '/v2/team/usage/daily?days=7', keyA);
    expect(usage.body.days).toHaveLength(7);
    expect(usage.body.days[6]).toMatchObject({
      date: new Date().toISOString().slice(0, 10),
      credits: 3,
      creditsByEndpoint: { scrape: 3 },
    });
    expect(usage.body.totals.credits).toBe(3);
    expect((await call('GET', '/v2/team/usage/daily?days=0', keyA)).status).toBe(400);
  });

  it('keeps the admin API behind ADMIN_API_KEY: team keys are refused', async () => {
    expect((await call('GET', '/admin/v1/teams')).status).toBe(401);
    expect((await call('GET', '/admin/v1/teams', keyA)).status).toBe(401);
    expect((await call('GET', '/admin/v1/teams', `${ADMIN_KEY}x`)).status).toBe(401);
    const teams = await call<{ data: { name: string; credits: number; activeKeys: number }[] }>(
      'GET',
      '/admin/v1/teams',
      ADMIN_KEY,
    );
    expect(teams.status).toBe(200);
    expect(teams.body.data.map((team) => team.name)).toEqual(['team-a', 'team-b']);
    expect(teams.body.data[0]).toMatchObject({ credits: 997, activeKeys: 1 });
  });

  it('creates a team and a key (shown once), grants credits, sets limits and revokes the key, which then gets 401', async () => {
    const created = await call<{ data: { id: string; credits: number; concurrencyLimit: number } }>(
      'POST',
      '/admin/v1/teams',
      ADMIN_KEY,
      { name: 'team-c', credits: 50, concurrencyLimit: 3 },
    );
    expect(created.body.data).toMatchObject({ credits: 50, concurrencyLimit: 3 });
    expect((await call('POST', '/admin/v1/teams', ADMIN_KEY, { name: 'team-c' })).status).toBe(409);
    const teamId = created.body.data.id;
    const key = await call<{ key: string; data: { id: string; prefix: string } }>(
      'POST',
      `/admin/v1/teams/${teamId}/keys`,
      ADMIN_KEY,
      { name: 'console' },
    );
    expect(key.body.key).toMatch(/^fc-[0-9a-f]{48}$/);
    expect(key.body.key.startsWith(key.body.data.prefix)).toBe(true);
    const listed = await call<{ data: Record<string, unknown>[] }>(
      'GET',
      `/admin/v1/teams/${teamId}/keys`,
      ADMIN_KEY,
    );
    expect(JSON.stringify(listed.body)).not.toContain(key.body.key);
    expect((await call('GET', '/v2/team', key.body.key)).status).toBe(200);
    const granted = await call<{ data: { credits: number } }>(
      'POST',
      `/admin/v1/teams/${teamId}/credits`,
      ADMIN_KEY,
      { amount: 25 },
    );
    expect(granted.body.data.credits).toBe(75);
    const limited = await call<{ data: { rateLimitPerMinute: number; zeroDataRetention: boolean } }>(
      'PATCH',
      `/admin/v1/teams/${teamId}`,
      ADMIN_KEY,
      { rateLimitPerMinute: 30, zeroDataRetention: true },
    );
    expect(limited.body.data).toMatchObject({ rateLimitPerMinute: 30, zeroDataRetention: true });
    expect((await call('PATCH', `/admin/v1/teams/${teamId}`, ADMIN_KEY, {})).status).toBe(400);
    expect((await call('POST', `/admin/v1/teams/${teamId}/credits`, ADMIN_KEY, { amount: 0 })).status).toBe(
      400,
    );
    // a balance out of bounds (above the 32-bit column, or below zero with nothing held) is refused in the spec shape, not a 500
    const grant = (amount: number) =>
      call<{ success: boolean; error: string }>('POST', `/admin/v1/teams/${teamId}/credits`, ADMIN_KEY, {
        amount,
      });
    expect((await grant(1_000_000_000)).status).toBe(200);
    expect((await grant(1_000_000_000)).status).toBe(200);
    const overflow = await grant(1_000_000_000);
    expect(overflow.status).toBe(409);
    expect(overflow.body.success).toBe(false);
    expect(overflow.body.error).toContain('above 2,147,483,647 credits');
    const below = await grant(-1_000_000_000);
    expect(below.status).toBe(200);
    expect((await grant(-1_000_000_000)).status).toBe(200);
    expect((await grant(-76)).status).toBe(409);
    expect((await grant(-75)).body).toMatchObject({ success: true, data: { credits: 0 } });
    const revoked = await call<{ data: { revokedAt: string } }>(
      'DELETE',
      `/admin/v1/keys/${key.body.data.id}`,
      ADMIN_KEY,
    );
    expect(revoked.body.data.revokedAt).toEqual(expect.any(String));
    expect((await call('GET', '/v2/team', key.body.key)).status).toBe(401);
    expect((await call('DELETE', `/admin/v1/keys/${key.body.data.id}`, ADMIN_KEY)).status).toBe(409);
    expect((await call('DELETE', `/admin/v1/keys/${randomUUID()}`, ADMIN_KEY)).status).toBe(404);
    expect((await call('GET', `/admin/v1/teams/${randomUUID()}/keys`, ADMIN_KEY)).status).toBe(404);
    expect((await call('GET', '/admin/v1/teams/nope/keys', ADMIN_KEY)).status).toBe(400);
    expect(teamA).not.toBe(teamId);
  });

  it('reports the readiness of this process and of the configured services', async () => {
    const system = await call<{
      services: Record<string, unknown>[];
      dashboards: { title: string; url: string }[];
    }>('GET', '/admin/v1/system', ADMIN_KEY);
    expect(system.status).toBe(200);
    expect(system.body.services).toEqual([
      expect.objectContaining({
        name: 'gateway',
        ready: true,
        checks: expect.objectContaining({
          database: expect.objectContaining({ ok: true }),
          bus: expect.objectContaining({ ok: true }),
        }),
      }),
      {
        name: 'scrape-worker',
        ready: false,
        checks: { browser: { ok: false, error: 'browser disconnected', ms: 1 } },
      },
      expect.objectContaining({ name: 'doc-parser', ready: false, checks: {}, error: expect.any(String) }),
    ]);
    expect(system.body.dashboards).toContainEqual({
      title: 'Overview',
      url: 'https://grafana.test/d/quarry-overview',
    });
  });
});
