import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';

import { type FixtureServer, TEST_KAFKA_BROKERS, uniqueName } from '@quarry/testing';

import { useAgentCluster } from './support/agent-cluster-support';
import { newTeamKey, waitForAgent } from './support/agent-support';
import { call } from './support/api-client';
import { type Platform, startCluster } from './support/platform';

// The agent errors (docs/agent.md#api) on the cluster of agent-cluster.e2e-spec.ts (same setup), and a submission
// Kafka refuses.
jest.setTimeout(300_000);

describe('agent runs on a cluster (gateway, scrape worker, agent orchestrator on Kafka and PostgreSQL), no language model', () => {
  const cluster = useAgentCluster();
  let site: FixtureServer;
  let databaseUrl: string;
  let gateway: string;

  beforeAll(() => {
    ({ site, databaseUrl, gateway } = cluster);
  });

  it('answers every agent error (docs/agent.md#api) with its exact message', async () => {
    const apiKey = await newTeamKey(databaseUrl, uniqueName('errors'), { credits: 1_000 });
    const otherKey = await newTeamKey(databaseUrl, uniqueName('other'), { credits: 1_000 });
    const unknown = '8b0c3a5e-1d2f-4a6b-9c7d-0e1f2a3b4c5d';
    const invalidJobId = {
      success: false,
      error: 'Invalid job ID format. Job ID must be a valid UUID.',
      code: 'BAD_REQUEST',
    };
    for (const [method, path] of [
      ['GET', '/v2/agent/not-a-uuid'],
      ['DELETE', '/v2/agent/not-a-uuid'],
      ['GET', '/v2/agent/not-a-uuid/trace'],
      ['GET', '/v2/agent/not-a-uuid/snapshots/also-bad'],
    ]) {
      const response = await call(gateway, method, path, { apiKey });
      expect({ path, status: response.status, body: response.body }).toEqual({
        path,
        status: 400,
        body: invalidJobId,
      });
    }
    const notFound = { success: false, error: 'Agent job not found' };
    for (const [method, path] of [
      ['GET', `/v2/agent/${unknown}`],
      ['DELETE', `/v2/agent/${unknown}`],
      ['GET', `/v2/agent/${unknown}/trace`],
      ['GET', `/v2/agent/${unknown}/snapshots/${unknown}`],
    ]) {
      const response = await call(gateway, method, path, { apiKey });
      expect({ path, status: response.status, body: response.body }).toEqual({
        path,
        status: 404,
        body: notFound,
      });
    }

    const started = await call<{ id: string }>(gateway, 'POST', '/v2/agent', {
      apiKey,
      body: { prompt: 'widgets', urls: [`${site.url}/p/1`], strictConstrainToURLs: true },
    });
    const id = started.body.id;
    await waitForAgent(gateway, apiKey, id);
    // Another team's job is reported exactly like an unknown one.
    for (const [method, path] of [
      ['GET', `/v2/agent/${id}`],
      ['DELETE', `/v2/agent/${id}`],
      ['GET', `/v2/agent/${id}/trace`],
    ]) {
      const response = await call(gateway, method, path, { apiKey: otherKey });
      expect({ path, status: response.status, body: response.body }).toEqual({
        path,
        status: 404,
        body: notFound,
      });
    }
    expect((await call(gateway, 'GET', `/v2/agent/${id}/snapshots/bad`, { apiKey })).body).toEqual({
      success: false,
      error: 'Invalid snapshot ID',
      code: 'BAD_REQUEST',
    });
    expect(await call(gateway, 'GET', `/v2/agent/${id}/snapshots/${unknown}`, { apiKey })).toMatchObject({
      status: 404,
      body: { success: false, error: 'Snapshot not found' },
    });
    expect(await call(gateway, 'DELETE', `/v2/agent/${id}`, { apiKey })).toMatchObject({
      status: 409,
      body: { success: false, error: 'Agent already finished' },
    });

    // Runs of the first-generation models have no trace or snapshots.
    const legacy = await call<{ id: string }>(gateway, 'POST', '/v2/agent', {
      apiKey,
      body: {
        prompt: 'widgets',
        urls: [`${site.url}/p/2`],
        model: 'spark-1-pro',
        strictConstrainToURLs: true,
      },
    });
    const legacyStatus = await waitForAgent(gateway, apiKey, legacy.body.id);
    expect(legacyStatus.model).toBe('spark-1-pro');
    expect(await call(gateway, 'GET', `/v2/agent/${legacy.body.id}/trace`, { apiKey })).toMatchObject({
      status: 400,
      body: {
        success: false,
        error: 'Traces are only available for agent jobs created with the spark-2 model.',
      },
    });
    expect(
      await call(gateway, 'GET', `/v2/agent/${legacy.body.id}/snapshots/${unknown}`, { apiKey }),
    ).toMatchObject({
      status: 400,
      body: {
        success: false,
        error: 'Snapshots are only available for agent jobs created with the spark-2 model.',
      },
    });

    // Zero-data-retention teams cannot run agent jobs.
    const zdrKey = await newTeamKey(databaseUrl, uniqueName('zdr'), {
      credits: 1_000,
      zeroDataRetention: true,
    });
    const zdr = await call(gateway, 'POST', '/v2/agent', { apiKey: zdrKey, body: { prompt: 'widgets' } });
    expect(zdr.status).toBe(400);
    expect(zdr.body).toMatchObject({
      success: false,
      error: expect.stringContaining('zero data retention enabled'),
    });
    expect((zdr.body as { error: string }).error).toContain('not supported on extract');
    // …nor read, trace, snapshot, cancel or list them (checked before the job is looked up).
    for (const [method, path] of [
      ['GET', `/v2/agent/${unknown}`],
      ['GET', `/v2/agent/${unknown}/trace`],
      ['GET', `/v2/agent/${unknown}/snapshots/${unknown}`],
      ['DELETE', `/v2/agent/${unknown}`],
      ['GET', '/v2/agent'],
    ]) {
      const response = await call(gateway, method, path, { apiKey: zdrKey });
      expect({ path: `${method} ${path}`, status: response.status, body: response.body }).toEqual({
        path: `${method} ${path}`,
        status: 400,
        body: { success: false, code: 'BAD_REQUEST', error: (zdr.body as { error: string }).error },
      });
    }

    // Request validation, authentication, credits.
    expect(
      await call(gateway, 'POST', '/v2/agent', { apiKey, body: { urls: [`${site.url}/p/1`] } }),
    ).toMatchObject({ status: 400, body: { success: false, code: 'BAD_REQUEST' } });
    expect(
      await call(gateway, 'POST', '/v2/agent', { apiKey, body: { prompt: 'x', surprise: true } }),
    ).toMatchObject({
      status: 400,
      body: {
        success: false,
        error: 'Unrecognized key in body -- please review the v2 API documentation for request body changes',
      },
    });
    expect(
      await call(gateway, 'POST', '/v2/agent', { apiKey, body: { prompt: 'x', model: 'spark-9' } }),
    ).toMatchObject({ status: 400 });
    expect(
      await call(gateway, 'POST', '/v2/agent', {
        apiKey,
        body: { prompt: 'x', schema: { type: 'object', properties: { a: { type: 'strnig' } } } },
      }),
    ).toMatchObject({
      status: 422,
      body: { success: false, error: expect.stringMatching(/^Invalid JSON schema: /) },
    });
    expect(await call(gateway, 'POST', '/v2/agent', { body: { prompt: 'x' } })).toMatchObject({
      status: 401,
      body: { success: false, error: 'Unauthorized: Invalid token' },
    });
    const poorKey = await newTeamKey(databaseUrl, uniqueName('poor'), { credits: 19 });
    expect(
      await call(gateway, 'POST', '/v2/agent', { apiKey: poorKey, body: { prompt: 'x' } }),
    ).toMatchObject({
      status: 402,
      body: { success: false, error: 'Payment Required: Insufficient credits' },
    });
  });
});

describe('agent submission refused by Kafka', () => {
  let platform: Platform;

  beforeAll(async () => {
    platform = await startCluster({ gateways: 1, workers: 0 });
  });
  afterAll(() => platform?.stop());

  it('answers 500 "Failed to passthrough agent request." and records the run as failed', async () => {
    // The broker rejects every message on the orchestrators' topic (record too large): a real refusal on submission.
    const admin = new Kafka({
      clientId: 'agent-passthrough-e2e',
      brokers: TEST_KAFKA_BROKERS,
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    try {
      await admin.alterConfigs({
        validateOnly: false,
        resources: [
          {
            type: ConfigResourceTypes.TOPIC,
            name: `${platform.env['BUS_TOPIC_PREFIX']}agent.work`,
            configEntries: [{ name: 'max.message.bytes', value: '16' }],
          },
        ],
      });
    } finally {
      await admin.disconnect();
    }
    const response = await call(platform.url(), 'POST', '/v2/agent', {
      apiKey: platform.apiKey,
      body: { prompt: 'widgets', urls: ['https://example.com/'] },
    });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      success: false,
      code: 'UNKNOWN_ERROR',
      error: 'Failed to passthrough agent request.',
      errorId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const list = await call<{ agents: { status: string }[] }>(platform.url(), 'GET', '/v2/agent', {
      apiKey: platform.apiKey,
    });
    expect(list.body.agents.map((agent) => agent.status)).toEqual(['failed']);
  });
});
