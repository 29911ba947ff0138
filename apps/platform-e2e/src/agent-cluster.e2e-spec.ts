import { type FixtureServer, uniqueName } from '@quarry/testing';

import { prompt, schema, useAgentCluster, UUID } from './support/agent-cluster-support';
import {
  checkTraceInvariants,
  newTeamKey,
  sql,
  type TraceEvent,
  traceOf,
  waitForAgent,
  waitForTrace,
} from './support/agent-support';
import { call } from './support/api-client';
import type { ServiceProcess } from './support/service-process';

jest.setTimeout(300_000);

describe('agent runs on a cluster (gateway, scrape worker, agent orchestrator on Kafka and PostgreSQL), no language model', () => {
  const cluster = useAgentCluster();
  const { orchestrators, startOrchestrator } = cluster;
  let site: FixtureServer;
  let databaseUrl: string;
  let gateway: string;

  beforeAll(() => {
    ({ site, databaseUrl, gateway } = cluster);
  });

  it('runs the deterministic strategy end to end: index search, sub-agents, link following, extraction, billing once', async () => {
    const apiKey = await newTeamKey(databaseUrl, uniqueName('lifecycle'), { credits: 1_000 });
    const started = await call<{ success: boolean; id: string; threadId: string }>(
      gateway,
      'POST',
      '/v2/agent',
      {
        apiKey,
        body: { prompt, urls: [`${site.url}/shop/`], schema, origin: 'js-sdk@4.42.0' },
      },
    );
    expect(started.status).toBe(200);
    // every run opens a thread of its own (turn 1) unless it continues one
    expect(started.body).toEqual({
      success: true,
      id: expect.stringMatching(UUID),
      threadId: expect.stringMatching(UUID),
      threadTurn: 1,
    });
    const id = started.body.id;
    const status = await waitForAgent(gateway, apiKey, id);
    expect(status).toEqual({
      success: true,
      status: 'completed',
      model: 'spark-2',
      expiresAt: expect.any(String),
      creditsUsed: expect.any(Number),
      data: { name: 'Acme Pro', price: 49, currency: 'USD' },
      threadId: started.body.threadId,
      threadTurn: 1,
      mode: 'extract',
      // No model is configured: the run says which offline fallback produced its data.
      warning: expect.stringContaining('no language model is configured'),
    });
    const expiresIn = Date.parse(status.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(23 * 3_600_000);
    // Two pages read (1 credit each) and the extraction surcharge.
    expect(status.creditsUsed).toBe(2 + 4);

    const events = await traceOf(gateway, apiKey, id);
    checkTraceInvariants(events, id);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('run.started');
    expect(types[types.length - 1]).toBe('run.finished');
    expect(events[events.length - 1]).toMatchObject({ outcome: 'succeeded', error: null });
    expect(events.find((event) => event.type === 'reasoning.summary')?.['text']).toMatch(
      /No language model is configured .* deterministic strategy/,
    );
    const tools = events
      .filter((event) => event.type === 'tool_call.started')
      .map((event) => event['toolName']);
    expect(tools).toEqual(['search_index', 'scrape', 'map', 'scrape', 'map', 'extract']);
    const readers = events.filter((event) => event.agent.role === 'subagent');
    expect(new Set(readers.map((event) => event.agent.name))).toEqual(new Set(['reader-1.1', 'reader-2.1']));
    for (const event of readers) expect(event.agent.parentId).toBe(events[0].agent.id);

    const artifacts = events.filter((event) => event.type === 'artifact.updated') as (TraceEvent & {
      artifact: { snapshotId: string; artifactId: string };
    })[];
    const result = artifacts[artifacts.length - 1];
    expect(result.artifact).toMatchObject({
      kind: 'json',
      artifactId: 'result',
      change: 'update',
      snapshotId: expect.stringMatching(UUID),
    });
    const snapshot = await call<{ success: boolean; id: string; snapshotId: string; snapshot: string }>(
      gateway,
      'GET',
      `/v2/agent/${id}/snapshots/${result.artifact.snapshotId}`,
      { apiKey },
    );
    expect(snapshot.status).toBe(200);
    expect(snapshot.body).toEqual({
      success: true,
      id,
      snapshotId: result.artifact.snapshotId,
      snapshot: JSON.stringify(status.data),
    });
    const sources = await call<{ snapshot: string }>(
      gateway,
      'GET',
      `/v2/agent/${id}/snapshots/${artifacts[0].artifact.snapshotId}`,
      { apiKey },
    );
    expect(JSON.parse(sources.body.snapshot)).toEqual([
      expect.objectContaining({ url: `${site.url}/shop/`, ok: true }),
    ]);

    const list = await call<{
      success: boolean;
      agents: { id: string; status: string; options: { prompt: string; model: string } }[];
    }>(gateway, 'GET', '/v2/agent', { apiKey });
    expect(list.body.agents[0]).toMatchObject({
      id,
      status: 'completed',
      origin: 'js-sdk@4.42.0',
      settings: { hidden: false, starred: false },
      options: { prompt, model: 'spark-2' },
    });

    const ledger = await sql<{ amount: number; job_id: string }>(
      databaseUrl,
      `SELECT amount, job_id FROM credit_ledger WHERE kind = 'charge' AND team_id = (SELECT team_id FROM jobs WHERE id = $1)`,
      [id],
    );
    // One charge for the run; the scrapes it made charged nothing themselves.
    expect(ledger).toEqual([{ amount: -6, job_id: id }]);
  });

  it('ends a sub-agent whose page cannot be read as failed with a structured tool error; the run goes on', async () => {
    const apiKey = await newTeamKey(databaseUrl, uniqueName('subagent-error'), { credits: 1_000 });
    const started = await call<{ id: string }>(gateway, 'POST', '/v2/agent', {
      apiKey,
      body: {
        prompt: 'What do these pages say about widgets?',
        urls: [`${site.url}/p/1`, `${site.url}/missing-page`],
      },
    });
    const id = started.body.id;
    expect((await waitForAgent(gateway, apiKey, id)).status).toBe('completed');
    const events = await traceOf(gateway, apiKey, id);
    checkTraceInvariants(events, id);
    const reader = events.find(
      (event) =>
        event.type === 'tool_call.started' &&
        (event['parameters'] as { url?: string }).url === `${site.url}/missing-page`,
    )?.agent.id;
    expect(reader).toBeDefined();
    const own = events.filter((event) => event.agent.id === reader);
    const error = {
      code: 'internal',
      source: 'tool',
      retryable: true,
      message: 'The page could not be read: Not Found',
    };
    expect(own.find((event) => event.type === 'error.occurred')).toMatchObject({ error });
    expect(own[own.length - 1]).toMatchObject({ type: 'agent.finished', outcome: 'failed', error });
    expect(events[events.length - 1]).toMatchObject({
      type: 'run.finished',
      outcome: 'succeeded',
      error: null,
    });
  });

  it('fails a run that reaches maxCredits: no data, creditsUsed 0, trace outcome credit_limit_reached, nothing billed', async () => {
    const team = uniqueName('capped');
    const apiKey = await newTeamKey(databaseUrl, team, { credits: 1_000 });
    const balance = async () =>
      (await sql<{ credits: number }>(databaseUrl, 'SELECT credits FROM teams WHERE name = $1', [team]))[0]
        .credits;
    const before = await balance();
    const started = await call<{ id: string }>(gateway, 'POST', '/v2/agent', {
      apiKey,
      body: {
        prompt: 'widgets',
        urls: [`${site.url}/p/1`, `${site.url}/p/2`, `${site.url}/p/3`],
        maxCredits: 2,
        strictConstrainToURLs: true,
      },
    });
    const id = started.body.id;
    const status = await waitForAgent(gateway, apiKey, id);
    expect(status).toEqual({
      success: true,
      status: 'failed',
      model: 'spark-2',
      expiresAt: expect.any(String),
      creditsUsed: 0,
      error: expect.stringContaining('credit limit (maxCredits: 2)'),
      threadId: expect.stringMatching(UUID),
      threadTurn: 1,
      mode: 'extract',
    });
    expect(status).not.toHaveProperty('data');
    const events = await traceOf(gateway, apiKey, id);
    checkTraceInvariants(events, id);
    const finished = events[events.length - 1];
    expect(finished).toMatchObject({
      type: 'run.finished',
      outcome: 'credit_limit_reached',
      error: { code: 'credit_limit_reached', source: 'billing', retryable: false },
    });
    expect(
      events.some(
        (event) =>
          event.type === 'error.occurred' &&
          (event['error'] as { code: string }).code === 'credit_limit_reached',
      ),
    ).toBe(true);
    // It read what the cap allowed (2 pages), then stopped.
    expect(
      events.filter((event) => event.type === 'tool_call.started' && event['toolName'] === 'scrape'),
    ).toHaveLength(2);
    expect(await balance()).toBe(before);
    expect(await sql(databaseUrl, `SELECT 1 FROM credit_ledger WHERE job_id = $1`, [id])).toEqual([]);
    expect((await call(gateway, 'GET', `/v2/agent/${id}/trace`, { apiKey })).body).toMatchObject({
      creditsUsed: 0,
    });
  });

  it('cancels a running run: cancelling, then failed with a cancel message; concurrent cancels get one 409; sub-agents stop with parent_finished', async () => {
    const apiKey = await newTeamKey(databaseUrl, uniqueName('cancel'), { credits: 1_000 });
    const started = await call<{ id: string }>(gateway, 'POST', '/v2/agent', {
      apiKey,
      body: {
        prompt: 'slow pages',
        urls: [`${site.url}/very-slow/1`, `${site.url}/very-slow/2`],
        strictConstrainToURLs: true,
      },
    });
    const id = started.body.id;
    await waitForTrace(gateway, apiKey, id, (events) =>
      events.some((event) => event.type === 'tool_call.started' && event['toolName'] === 'scrape'),
    );
    const [first, second] = await Promise.all([
      call(gateway, 'DELETE', `/v2/agent/${id}`, { apiKey }),
      call(gateway, 'DELETE', `/v2/agent/${id}`, { apiKey }),
    ]);
    const answers = [first, second].sort((a, b) => a.status - b.status);
    expect(answers.map((answer) => answer.status)).toEqual([200, 409]);
    expect(answers[0].body).toEqual({ success: true });
    expect(answers[1].body).toEqual({ success: false, error: 'Agent is already cancelled' });
    const status = await waitForAgent(gateway, apiKey, id, { timeoutMs: 30_000 });
    expect(status).toMatchObject({ status: 'failed', creditsUsed: 0, error: 'The agent run was cancelled.' });
    expect(status).not.toHaveProperty('data');
    expect(await call(gateway, 'DELETE', `/v2/agent/${id}`, { apiKey })).toMatchObject({
      status: 409,
      body: { success: false, error: 'Agent already finished' },
    });
    const events = await traceOf(gateway, apiKey, id);
    checkTraceInvariants(events, id);
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === 'run.cancel_requested')).toHaveLength(1);
    expect(types.indexOf('run.cancel_requested')).toBeLessThan(types.indexOf('run.finished'));
    expect(events[events.length - 1]).toMatchObject({
      type: 'run.finished',
      outcome: 'cancelled',
      error: { code: 'cancelled', retryable: false },
    });
    const stopped = events.filter(
      (event) => event.type === 'agent.finished' && event.agent.role === 'subagent',
    );
    expect(stopped.length).toBe(2);
    for (const event of stopped)
      expect(event).toMatchObject({
        outcome: 'cancelled',
        error: { code: 'parent_finished', source: 'system', retryable: false },
      });
    expect(await sql(databaseUrl, `SELECT 1 FROM credit_ledger WHERE job_id = $1`, [id])).toEqual([]);
  });

  it('settles cancel-versus-completion races consistently: either cancelled and unbilled, or completed, billed and 409', async () => {
    const apiKey = await newTeamKey(databaseUrl, uniqueName('race'), { credits: 1_000 });
    const outcomes: string[] = [];
    for (const delayMs of [0, 150, 400, 900, 1_600]) {
      const started = await call<{ id: string }>(gateway, 'POST', '/v2/agent', {
        apiKey,
        body: { prompt: 'widgets', urls: [`${site.url}/p/3`], strictConstrainToURLs: true },
      });
      const id = started.body.id;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const cancel = await call(gateway, 'DELETE', `/v2/agent/${id}`, { apiKey });
      const status = await waitForAgent(gateway, apiKey, id, { timeoutMs: 30_000 });
      const charged = await sql(databaseUrl, `SELECT 1 FROM credit_ledger WHERE job_id = $1`, [id]);
      if (cancel.status === 200) {
        expect(status).toMatchObject({
          status: 'failed',
          creditsUsed: 0,
          error: 'The agent run was cancelled.',
        });
        expect(charged).toEqual([]);
        outcomes.push('cancelled');
      } else {
        expect(cancel).toMatchObject({ status: 409, body: { error: 'Agent already finished' } });
        expect(status).toMatchObject({ status: 'completed', creditsUsed: 5 });
        expect(charged).toHaveLength(1);
        outcomes.push('completed');
      }
      checkTraceInvariants(await traceOf(gateway, apiKey, id), id);
    }
    expect(outcomes).toContain('cancelled');
  });

  it('continues a run from its last recorded step after the orchestrator is killed (SIGKILL) and another one starts', async () => {
    const apiKey = await newTeamKey(databaseUrl, uniqueName('restart'), { credits: 1_000 });
    const started = await call<{ id: string }>(gateway, 'POST', '/v2/agent', {
      apiKey,
      body: { prompt, urls: [`${site.url}/slowshop/`], schema },
    });
    const id = started.body.id;
    // Kill it while the second round's sub-agent waits for its (slow) page.
    await waitForTrace(
      gateway,
      apiKey,
      id,
      (events) => events.some((event) => event.type === 'agent.started' && event.agent.name === 'reader-2.1'),
      90_000,
    );
    const victim = orchestrators.shift() as ServiceProcess;
    await victim.kill();
    const midway = await call<{ status: string }>(gateway, 'GET', `/v2/agent/${id}`, { apiKey });
    expect(midway.body.status).toBe('processing');
    await startOrchestrator();
    const status = await waitForAgent(gateway, apiKey, id, { timeoutMs: 90_000 });
    expect(status).toMatchObject({
      status: 'completed',
      data: { name: 'Acme Pro', price: 49, currency: 'USD' },
      creditsUsed: 6,
    });
    const events = await traceOf(gateway, apiKey, id);
    checkTraceInvariants(events, id);
    const count = (predicate: (event: TraceEvent) => boolean) => events.filter(predicate).length;
    expect(count((event) => event.type === 'run.finished')).toBe(1);
    expect(count((event) => event.type === 'agent.started' && event.agent.name === 'reader-1.1')).toBe(1);
    expect(count((event) => event.type === 'agent.started' && event.agent.name === 'reader-2.1')).toBe(1);
    expect(count((event) => event.type === 'tool_call.finished' && event['toolName'] === 'scrape')).toBe(2);
    // The page being read when the orchestrator died was fetched once: the new orchestrator found its scrape job.
    expect(site.hits.get('/slowshop/pricing-pro')).toBe(1);
    expect(site.hits.get('/slowshop/')).toBe(1);
    expect(await sql(databaseUrl, `SELECT amount FROM credit_ledger WHERE job_id = $1`, [id])).toEqual([
      { amount: -6 },
    ]);
  });
});
