import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';

import {
  type FakeLlmServer,
  type FixtureServer,
  startFakeLlmServer,
  startFixtureServer,
  uniqueName,
} from '@quarry/testing';

import { checkTraceInvariants, sql, traceOf, waitForAgent } from './support/agent-support';
import { call } from './support/api-client';
import { type Platform, startCluster } from './support/platform';
import { type ServiceProcess, startService } from './support/service-process';

jest.setTimeout(600_000);

/**
 * Poison work (issue 12): work whose processing ends its process every time. A run's extraction
 * asks the language model (the fake OpenAI server) and a monitor check's search target asks the web
 * search provider, and neither ever answers; the test kills the process while it waits, restarts
 * it, and shows the work is attempted WORK_MAX_ATTEMPTS (WORK_MAX_ATTEMPTS) times, then
 * quarantined with its reason, unbilled, and never delivered again.
 */
const MAX_ATTEMPTS = 2;
const POISON_ENV = {
  WORK_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
  AGENT_LEASE_MS: '2000',
  AGENT_SWEEP_INTERVAL_MS: '500',
  LLM_MAX_ATTEMPTS: '1',
  LLM_TIMEOUT_MS: '300000',
  ALLOW_PRIVATE_NETWORKS: 'true',
};
const PRODUCT = `<!doctype html><html><head><title>Poison Pill Pro</title></head><body><main>
<h1>Poison Pill Pro</h1><p>The Poison Pill Pro plan costs 49 dollars per month and includes ten seats.</p>
</main></body></html>`;
const schema = { type: 'object', properties: { plan: { type: 'string' }, price: { type: 'number' } } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('poison work is retried a bounded number of times, then quarantined', () => {
  let site: FixtureServer;
  let llm: FakeLlmServer;
  /** Extraction calls the model received (each one is an attempt at the run's extraction step). */
  const extractions = () =>
    llm.calls.filter((request) => request.responseFormat?.name === 'extraction').length;
  const waitForExtractions = async (count: number, explain: () => Promise<unknown>, timeoutMs = 180_000) => {
    const deadline = Date.now() + timeoutMs;
    while (extractions() < count) {
      if (Date.now() > deadline)
        throw new Error(
          `${count} extraction call(s) expected, saw ${extractions()} (model calls: ${llm.calls.map((request) => request.responseFormat?.name ?? 'text').join(', ')}); ${JSON.stringify(await explain())}`,
        );
      await sleep(100);
    }
  };

  beforeAll(async () => {
    site = await startFixtureServer({
      '/pricing': (_request, response) =>
        void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PRODUCT),
    });
    // Every model call stalls: the process is killed while it waits.
    llm = await startFakeLlmServer(() => new Promise(() => undefined));
  });
  afterAll(async () => {
    await llm?.close();
    await site?.close();
  });
  beforeEach(() => {
    llm.calls.length = 0;
  });

  it('in one process (embedded PostgreSQL, in-memory bus): an extract job whose step kills the server is quarantined after WORK_MAX_ATTEMPTS', async () => {
    const apiKey = `fc-${randomBytes(24).toString('hex')}`;
    const env = {
      ...POISON_ENV,
      DATA_DIR: `/tmp/${uniqueName('quarry-poison')}`,
      BOOTSTRAP_API_KEY: apiKey,
      LLM_BASE_URL: llm.url,
    };
    let server: ServiceProcess = await startService('standalone', env);
    try {
      const started = await call<{ id: string }>(server.url, 'POST', '/v2/extract', {
        apiKey,
        body: { urls: [`${site.url}/pricing`], prompt: 'The plan and its monthly price', schema },
      });
      expect(started.status).toBe(200);
      const id = started.body.id;
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
        await waitForExtractions(
          attempt,
          async () => (await call(server.url, 'GET', `/v2/extract/${id}`, { apiKey })).body,
        );
        await server.kill();
        server = await startService('standalone', env, { label: `standalone-${attempt + 1}` });
      }
      const deadline = Date.now() + 120_000;
      let status = await call<Record<string, unknown>>(server.url, 'GET', `/v2/extract/${id}`, { apiKey });
      while (status.body['status'] === 'processing' && Date.now() < deadline) {
        await sleep(300);
        status = await call<Record<string, unknown>>(server.url, 'GET', `/v2/extract/${id}`, { apiKey });
      }
      expect(status.body).toMatchObject({ success: false, status: 'failed', creditsUsed: 0 });
      expect(status.body['error']).toMatch(
        new RegExp(
          `^The extract job was quarantined: its step \\d+ was attempted ${MAX_ATTEMPTS} times and no attempt finished .*Nothing was billed\\.$`,
        ),
      );
      // Never delivered again: no further model call, however long the sweeper runs.
      await sleep(4_000);
      expect(extractions()).toBe(MAX_ATTEMPTS);
    } finally {
      await server.stop();
      rmSync(env.DATA_DIR, { recursive: true, force: true });
    }
  });

  it('in one process: a monitor check whose work kills the server is quarantined after WORK_MAX_ATTEMPTS; the monitor keeps its schedule', async () => {
    // The check's search target asks the web search provider, which never answers.
    const provider = await startFixtureServer({ '*': () => new Promise(() => undefined) });
    const apiKey = `fc-${randomBytes(24).toString('hex')}`;
    const env = {
      ...POISON_ENV,
      DATA_DIR: `/tmp/${uniqueName('quarry-poison')}`,
      BOOTSTRAP_API_KEY: apiKey,
      SEARCH_PROVIDER_URL: provider.url,
      SEARCH_PROVIDER_TIMEOUT_MS: '300000',
      WORK_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      MONITOR_CHECK_LEASE_MS: '2000',
      MONITOR_SCHEDULER_INTERVAL_MS: '500',
    };
    const searches = () => provider.hits.get('/search') ?? 0;
    let server: ServiceProcess = await startService('standalone', env);
    try {
      const created = await call<{ data: { id: string; nextRunAt: string } }>(
        server.url,
        'POST',
        '/v2/monitor',
        {
          apiKey,
          body: {
            name: 'Poison search',
            schedule: { cron: '0 9 * * 1' },
            targets: [{ type: 'search', queries: ['poison pill pricing'] }],
            judgeEnabled: false,
          },
        },
      );
      expect(created.status).toBe(200);
      const monitorId = created.body.data.id;
      const run = await call<{ id: string }>(server.url, 'POST', `/v2/monitor/${monitorId}/run`, { apiKey });
      expect(run.status).toBe(200);
      const checkId = run.body.id;
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
        const deadline = Date.now() + 180_000;
        while (searches() < attempt) {
          if (Date.now() > deadline)
            throw new Error(`search ${attempt} never came: ${server.logs.slice(-10).join('\n')}`);
          await sleep(100);
        }
        await server.kill();
        server = await startService('standalone', env, { label: `standalone-${attempt + 1}` });
      }
      const checkUrl = `/v2/monitor/${monitorId}/checks/${checkId}`;
      const deadline = Date.now() + 120_000;
      let check = await call<{ data: Record<string, unknown> }>(server.url, 'GET', checkUrl, { apiKey });
      while (['queued', 'running'].includes(String(check.body.data?.['status'])) && Date.now() < deadline) {
        await sleep(300);
        check = await call<{ data: Record<string, unknown> }>(server.url, 'GET', checkUrl, { apiKey });
      }
      expect(check.body.data).toMatchObject({ status: 'failed' });
      expect(check.body.data['error']).toBe(
        `The check was quarantined: it was attempted ${MAX_ATTEMPTS} times and no attempt finished (each failed or ended its orchestrator process), so it is not retried. Its unfinished crawls and batches were cancelled.`,
      );
      const monitor = await call<{ data: Record<string, unknown> }>(
        server.url,
        'GET',
        `/v2/monitor/${monitorId}`,
        {
          apiKey,
        },
      );
      expect(monitor.body.data).toMatchObject({ status: 'active', nextRunAt: created.body.data.nextRunAt });
      await sleep(3_000);
      expect(searches()).toBe(MAX_ATTEMPTS);
    } finally {
      await server.stop();
      await provider.close();
      rmSync(env.DATA_DIR, { recursive: true, force: true });
    }
  });

  describe('over Kafka (gateway, scrape worker, agent orchestrator processes)', () => {
    let platform: Platform;
    const orchestrators: ServiceProcess[] = [];
    const startOrchestrator = async () => {
      const service = await startService('agent-orchestrator', platform.env, {
        label: `orchestrator-${orchestrators.length + 1}`,
      });
      orchestrators.push(service);
      return service;
    };

    beforeAll(async () => {
      platform = await startCluster({
        gateways: 1,
        workers: 1,
        env: { ...POISON_ENV, LLM_BASE_URL: llm.url },
      });
    });
    afterAll(async () => {
      await Promise.allSettled(orchestrators.map((service) => service.stop()));
      await platform?.stop();
    });

    it('an agent run whose step kills its orchestrator is retried WORK_MAX_ATTEMPTS times, then quarantined with its reason', async () => {
      let orchestrator = await startOrchestrator();
      const gateway = platform.url();
      const apiKey = platform.apiKey;
      const started = await call<{ id: string }>(gateway, 'POST', '/v2/agent', {
        apiKey,
        body: { prompt: 'What does the Poison Pill Pro plan cost?', urls: [`${site.url}/pricing`], schema },
      });
      expect(started.status).toBe(200);
      const id = started.body.id;
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
        await waitForExtractions(attempt, async () => ({
          status: (await call(gateway, 'GET', `/v2/agent/${id}`, { apiKey })).body,
          trace: (await traceOf(gateway, apiKey, id)).map((event) => [
            event.type,
            event['toolName'],
            event['result'] ?? event['error'],
          ]),
          logs: orchestrator.logs.slice(-15),
        }));
        await orchestrator.kill();
        expect(
          (await call<{ status: string }>(gateway, 'GET', `/v2/agent/${id}`, { apiKey })).body.status,
        ).toBe('processing');
        orchestrator = await startOrchestrator();
      }
      const status = await waitForAgent(gateway, apiKey, id, { timeoutMs: 120_000 });
      expect(status).toMatchObject({ success: true, status: 'failed', creditsUsed: 0 });
      expect(status.error).toMatch(
        new RegExp(
          `^The agent run was quarantined: its step \\d+ was attempted ${MAX_ATTEMPTS} times and no attempt finished .*Nothing was billed\\.$`,
        ),
      );
      const events = await traceOf(gateway, apiKey, id);
      checkTraceInvariants(events, id);
      expect(events.filter((event) => event.type === 'run.finished')).toEqual([
        expect.objectContaining({ outcome: 'failed', error: expect.objectContaining({ code: 'internal' }) }),
      ]);
      await sleep(4_000);
      expect(extractions()).toBe(MAX_ATTEMPTS);
      expect(
        await sql(platform.database?.url as string, 'SELECT amount FROM credit_ledger WHERE job_id = $1', [
          id,
        ]),
      ).toEqual([]);
    });
  });
});
