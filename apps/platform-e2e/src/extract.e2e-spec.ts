import { randomUUID } from 'node:crypto';

import { type FixtureServer, startFixtureServer, uniqueName } from '@quarry/testing';

import { newTeamKey } from './support/agent-support';
import { call } from './support/api-client';
import {
  type CrawlCluster,
  eventually,
  type FakeSearxng,
  startCrawlCluster,
  startFakeSearxng,
  startWebhookReceiver,
  type WebhookReceiver,
} from './support/crawl-support';
import {
  agentFinished,
  catalogSearchResults,
  extractClusterEnv,
  type ExtractStatus,
  fixtures,
  PRODUCT_SCHEMA,
  startOrchestrator,
  teamClients,
  UUID,
  ZOD_PRODUCT,
} from './support/extract-support';
import type { ServiceProcess } from './support/service-process';

jest.setTimeout(300_000);

describe('extract (SDK 4.42) on a cluster: gateway, scrape worker and agent orchestrator on Kafka, no language model', () => {
  let site: FixtureServer;
  let searxng: FakeSearxng;
  let receiver: WebhookReceiver;
  let platform: CrawlCluster;
  let orchestrator: ServiceProcess;
  let databaseUrl: string;

  const teamClient = teamClients(() => ({ apiUrl: platform.publicUrl, databaseUrl }));
  const hooksFor = (id: string) => receiver.received.filter((hook) => hook.body.id === id);

  beforeAll(async () => {
    site = await startFixtureServer(fixtures());
    searxng = await startFakeSearxng(catalogSearchResults(site.url));
    receiver = await startWebhookReceiver();
    platform = await startCrawlCluster({
      workers: 1,
      env: extractClusterEnv(searxng.url),
    });
    databaseUrl = platform.env['DATABASE_URL'];
    orchestrator = await startOrchestrator(platform.env);
  });
  afterAll(async () => {
    await orchestrator?.stop();
    await platform?.stop();
    await receiver?.close();
    await searxng?.close();
    await site?.close();
  });

  it('extract() reads a JSON-LD product page into a Zod schema offline, says so in warning, bills the page + 4', async () => {
    const { firecrawl } = await teamClient(100);
    const before = Date.now();
    const result = (await firecrawl.extract({
      urls: [`${site.url}/shoe`],
      prompt: 'The name and price of the shoe',
      schema: ZOD_PRODUCT,
      pollInterval: 1,
      timeout: 120,
    })) as ExtractStatus;
    expect(result).toMatchObject({
      success: true,
      status: 'completed',
      data: { name: 'Trail Runner 3', price: 129 },
      creditsUsed: 5,
      tokensUsed: 0,
    });
    expect(result.warning).toMatch(
      /^json: no language model is configured \(LLM_BASE_URL\); values were read from the page's structured data/,
    );
    expect(result.sources).toBeUndefined();
    const expires = Date.parse(result.expiresAt as string);
    expect(expires).toBeGreaterThanOrEqual(before + 24 * 3_600_000 - 5_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000 + 5_000);
    expect((await firecrawl.getCreditUsage()).remainingCredits).toBe(95);
  });

  it('startExtract and getExtractStatus: start shape with invalid URLs, processing then completed, showSources', async () => {
    const { firecrawl } = await teamClient();
    const started = await firecrawl.startExtract({
      urls: [`${site.url}/slow-shoe`, 'not a url'],
      schema: PRODUCT_SCHEMA,
      showSources: true,
    });
    expect(started).toEqual({
      success: true,
      id: expect.stringMatching(UUID),
      urlTrace: [],
      invalidURLs: ['not a url'],
    });
    const id = started.id as string;
    const processing = (await firecrawl.getExtractStatus(id)) as ExtractStatus;
    expect(processing).toEqual({
      success: true,
      status: 'processing',
      data: [],
      expiresAt: expect.any(String),
      tokensUsed: 0,
      creditsUsed: 0,
    });
    const done = await eventually(async () => {
      const status = (await firecrawl.getExtractStatus(id)) as ExtractStatus;
      return status.status === 'processing' ? undefined : status;
    }, 90_000);
    expect(done).toMatchObject({
      success: true,
      status: 'completed',
      data: { name: 'Trail Runner 3', price: 129 },
      sources: { name: [`${site.url}/slow-shoe`], price: [`${site.url}/slow-shoe`] },
      expiresAt: processing.expiresAt,
      creditsUsed: 5,
    });
  });

  it('expands a URL ending in /* to the pages a map of that site finds', async () => {
    const { firecrawl } = await teamClient();
    const result = await firecrawl.extract({
      urls: [`${site.url}/shop/*`],
      prompt: 'Every product of the shop with its price',
      schema: {
        type: 'object',
        properties: {
          products: {
            type: 'array',
            items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
          },
        },
      },
      pollInterval: 1,
      timeout: 120,
    });
    expect(result.status).toBe('completed');
    const products = (result.data as { products: { name: string; price: number }[] }).products;
    expect(products).toHaveLength(2);
    expect(products).toEqual(
      expect.arrayContaining([
        { name: 'Arc Floor Lamp', price: 199 },
        { name: 'Oak Chair', price: 89 },
      ]),
    );
    // /shop, /shop/lamp and /shop/chair were read (1 credit each), plus the extraction.
    expect(result.creditsUsed).toBe(3 + 4);
  });

  it('enableWebSearch finds pages through the configured search provider for a prompt without URLs', async () => {
    const { firecrawl } = await teamClient();
    const prompt = 'What does the Aurora Desk Lamp cost?';
    const result = await firecrawl.extract({
      prompt,
      enableWebSearch: true,
      schema: PRODUCT_SCHEMA,
      pollInterval: 1,
      timeout: 120,
    });
    expect(result).toMatchObject({ status: 'completed', data: { name: 'Aurora Desk Lamp', price: 59 } });
    expect(searxng.requests.some((request) => request.get('q') === prompt)).toBe(true);
  });

  it('delivers extract.started then extract.completed with the result, extract.failed for a failed job, as subscribed', async () => {
    const { firecrawl } = await teamClient();
    const started = await firecrawl.startExtract({
      urls: [`${site.url}/shoe`],
      schema: PRODUCT_SCHEMA,
      webhook: { url: receiver.url, metadata: { run: 'ok' } },
    });
    const id = started.id as string;
    const hooks = await eventually(async () => {
      const received = hooksFor(id);
      return received.length >= 2 ? received : undefined;
    }, 90_000);
    expect(hooks.map((hook) => hook.body.type)).toEqual(['extract.started', 'extract.completed']);
    expect(hooks[0].body).toMatchObject({ success: true, id, data: [], metadata: { run: 'ok' } });
    expect(hooks[1].body).toMatchObject({
      success: true,
      id,
      webhookId: expect.stringMatching(UUID),
      metadata: { run: 'ok' },
      data: [
        { success: true, status: 'completed', data: { name: 'Trail Runner 3', price: 129 }, creditsUsed: 5 },
      ],
    });
    expect(await firecrawl.getExtractStatus(id)).toMatchObject(hooks[1].body.data[0] as object);

    const failedStart = await firecrawl.startExtract({
      urls: [`${site.url}/missing`],
      schema: PRODUCT_SCHEMA,
      webhook: { url: receiver.url, events: ['failed'] },
    });
    const failedId = failedStart.id as string;
    const failed = await eventually(async () => {
      const status = (await firecrawl.getExtractStatus(failedId)) as ExtractStatus;
      return status.status === 'processing' ? undefined : status;
    }, 90_000);
    expect(failed).toEqual({
      success: false,
      status: 'failed',
      data: [],
      error: expect.stringMatching(/^None of the 1 page\(s\) of the extract job could be read \(.+\)\.$/),
      expiresAt: expect.any(String),
      tokensUsed: 0,
      creditsUsed: 0,
      // the job has a webhook: how its delivery is going
      webhookDelivery: expect.objectContaining({ failed: 0 }),
    });
    await eventually(async () => (hooksFor(failedId).length ? true : undefined));
    // `failed` was the only subscribed event: no started event before it, nothing after it.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(hooksFor(failedId).map((hook) => hook.body)).toEqual([
      {
        success: false,
        type: 'extract.failed',
        id: failedId,
        webhookId: expect.stringMatching(UUID),
        data: [],
        error: failed.error,
        metadata: {},
      },
    ]);
  });

  it('delivers agent.started, an agent.action per page read, then agent.completed; a cancelled run agent.cancelled, as subscribed', async () => {
    const { firecrawl } = await teamClient();
    const started = (await firecrawl.startAgent({
      prompt: 'The name and price of the shoe',
      urls: [`${site.url}/shoe`],
      schema: PRODUCT_SCHEMA,
      webhook: { url: receiver.url, metadata: { run: 'agent' } },
    })) as { id: string };
    const id = started.id;
    const status = await agentFinished(firecrawl, id);
    expect(status).toMatchObject({ status: 'completed', data: { name: 'Trail Runner 3', price: 129 } });
    const hooks = await eventually(async () => {
      const received = hooksFor(id);
      return received.some((hook) => hook.body.type === 'agent.completed') ? received : undefined;
    }, 30_000);
    const types = hooks.map((hook) => hook.body.type);
    expect(types[0]).toBe('agent.started');
    expect(types[types.length - 1]).toBe('agent.completed');
    const actions = hooks.filter((hook) => hook.body.type === 'agent.action');
    expect(actions.length).toBe(types.length - 2);
    expect(actions.map((hook) => hook.body.data[0])).toContainEqual({
      url: `${site.url}/shoe`,
      ok: true,
      statusCode: 200,
      title: 'Trail Runner 3 | Shop',
    });
    for (const hook of hooks)
      expect(hook.body).toMatchObject({
        id,
        metadata: { run: 'agent' },
        webhookId: expect.stringMatching(UUID),
      });
    // the completed event carries the final status, as GET /v2/agent/:id answers it (less the
    // state of the webhook deliveries, which the status adds and an event cannot carry about itself)
    const { webhookDelivery, ...runStatus } = status as typeof status & { webhookDelivery?: unknown };
    expect(webhookDelivery).toMatchObject({ failed: 0 });
    expect(hooks[hooks.length - 1].body).toMatchObject({ success: true, data: [runStatus] });

    const cancelled = (await firecrawl.startAgent({
      prompt: 'The name and price of the shoe',
      urls: [`${site.url}/slow-shoe`],
      webhook: { url: receiver.url, events: ['cancelled'] },
    })) as { id: string };
    expect(await firecrawl.cancelAgent(cancelled.id)).toBe(true);
    await eventually(async () => (hooksFor(cancelled.id).length ? true : undefined), 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(hooksFor(cancelled.id).map((hook) => hook.body)).toEqual([
      {
        success: false,
        type: 'agent.cancelled',
        id: cancelled.id,
        webhookId: expect.stringMatching(UUID),
        data: [],
        error: 'The agent run was cancelled.',
        metadata: {},
      },
    ]);
  });

  it('an agent run without URLs also searches the web when a provider is configured, and reads what it finds', async () => {
    const { firecrawl } = await teamClient();
    const started = await firecrawl.startAgent({
      prompt: 'The Aurora desk lamp and its price',
      schema: PRODUCT_SCHEMA,
    });
    const status = await agentFinished(firecrawl, started.id);
    expect(status).toMatchObject({ status: 'completed', data: { name: 'Aurora Desk Lamp', price: 59 } });
    const trace = await firecrawl.getAgentTrace(started.id);
    const events = trace.events as unknown as { type: string; toolName?: string; result?: unknown }[];
    const web = events.find(
      (event) => event.type === 'tool_call.finished' && event.toolName === 'web_search',
    );
    expect(web?.result).toEqual({
      results: [{ url: `${site.url}/catalog/aurora`, title: 'Aurora Desk Lamp' }],
    });
  });

  it('threads: every run opens or continues one; a chat follow-up reads the thread pages and answers in message', async () => {
    const { firecrawl, apiKey } = await teamClient();
    const waitFor = (id: string) => agentFinished(firecrawl, id);
    const first = await firecrawl.startAgent({
      prompt: 'The name and price of the shoe',
      urls: [`${site.url}/shoe`],
      schema: PRODUCT_SCHEMA,
    });
    expect(first).toMatchObject({ success: true, threadId: expect.stringMatching(UUID), threadTurn: 1 });
    const threadId = first.threadId as string;
    expect(await waitFor(first.id)).toMatchObject({
      status: 'completed',
      data: { name: 'Trail Runner 3', price: 129 },
      threadId,
      threadTurn: 1,
      mode: 'extract',
    });

    // the follow-up gives no URL: it starts from the page the thread already read
    const second = await firecrawl.startAgent({
      prompt: 'What is the outsole of the shoe like?',
      threadId,
      mode: 'chat',
    });
    expect(second).toMatchObject({ threadId, threadTurn: 2 });
    const reply = await waitFor(second.id);
    expect(reply).toMatchObject({ status: 'completed', threadId, threadTurn: 2, mode: 'chat' });
    expect(reply.message).toMatch(/grippy outsole/i);
    expect(reply.data).toBeUndefined();

    const thread = await firecrawl.getAgentThread(threadId, { includeData: true });
    expect(thread).toMatchObject({
      success: true,
      thread: {
        id: threadId,
        status: 'idle',
        runs: [
          { id: first.id, turn: 1 },
          { id: second.id, turn: 2 },
        ],
      },
    });
    const [turn1, turn2] = thread.thread?.runs ?? [];
    expect(turn1).toMatchObject({
      mode: 'extract',
      prompt: 'The name and price of the shoe',
      urls: [`${site.url}/shoe`],
      status: 'succeeded',
      creditsUsed: expect.any(Number),
      message: null,
      data: { name: 'Trail Runner 3', price: 129 },
    });
    expect(turn2).toMatchObject({ mode: 'chat', status: 'succeeded', message: reply.message });
    expect(Date.parse(turn2.finishedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(turn2.createdAt));
    // without includeData the runs carry no data
    const plain = await firecrawl.getAgentThread(threadId);
    expect(plain.thread?.runs.every((run) => run.data === undefined)).toBe(true);

    // a thread with a run in progress refuses the next turn; unknown and foreign threads are 404
    const slow = await firecrawl.startAgent({ prompt: 'The shoe price', urls: [`${site.url}/slow-shoe`] });
    const busy = await call(platform.publicUrl, 'POST', '/v2/agent', {
      apiKey,
      body: { prompt: 'And the colour?', threadId: slow.threadId },
    });
    expect(busy).toMatchObject({
      status: 409,
      body: { success: false, error: expect.stringMatching(/in progress/) },
    });
    expect(await firecrawl.cancelAgent(slow.id)).toBe(true);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await call(platform.publicUrl, 'GET', `/v2/agent/threads/${unknown}`, { apiKey })).toMatchObject({
      status: 404,
      body: { success: false, error: 'Agent thread not found' },
    });
    expect(
      await call(platform.publicUrl, 'POST', '/v2/agent', {
        apiKey,
        body: { prompt: 'x', threadId: unknown },
      }),
    ).toMatchObject({ status: 404, body: { error: 'Agent thread not found' } });
    expect((await call(platform.publicUrl, 'GET', '/v2/agent/threads/not-a-uuid', { apiKey })).status).toBe(
      400,
    );
    const stranger = await teamClient();
    expect(
      await call(platform.publicUrl, 'GET', `/v2/agent/threads/${threadId}`, { apiKey: stranger.apiKey }),
    ).toMatchObject({ status: 404, body: { error: 'Agent thread not found' } });
  });

  it('answers the extract errors with their exact texts; extract and agent jobs do not see each other', async () => {
    const { apiKey, firecrawl } = await teamClient();
    const gateway = platform.publicUrl;
    const post = (body: unknown, key = apiKey) => call(gateway, 'POST', '/v2/extract', { apiKey: key, body });

    expect(await call(gateway, 'GET', '/v2/extract/not-a-uuid', { apiKey })).toMatchObject({
      status: 400,
      body: { success: false, error: 'Invalid job ID format. Job ID must be a valid UUID.' },
    });
    await expect(firecrawl.getExtractStatus('not-a-uuid')).rejects.toMatchObject({
      status: 400,
      message: 'Invalid job ID format. Job ID must be a valid UUID.',
    });
    expect(await call(gateway, 'GET', `/v2/extract/${randomUUID()}`, { apiKey })).toMatchObject({
      status: 404,
      body: { success: false, error: 'Extract job not found' },
    });
    await expect(firecrawl.getExtractStatus(randomUUID())).rejects.toMatchObject({
      status: 404,
      message: 'Extract job not found',
    });

    // Another team's job is not found; agent routes do not serve extract jobs, nor the reverse.
    const mine = await firecrawl.startExtract({ urls: [`${site.url}/shoe`], schema: PRODUCT_SCHEMA });
    const other = await teamClient();
    expect(await call(gateway, 'GET', `/v2/extract/${mine.id}`, { apiKey: other.apiKey })).toMatchObject({
      status: 404,
      body: { success: false, error: 'Extract job not found' },
    });
    expect(await call(gateway, 'GET', `/v2/agent/${mine.id}`, { apiKey })).toMatchObject({
      status: 404,
      body: { success: false, error: 'Agent job not found' },
    });
    expect(await call(gateway, 'DELETE', `/v2/agent/${mine.id}`, { apiKey })).toMatchObject({ status: 404 });
    const agents = await call<{ agents: { id: string }[] }>(gateway, 'GET', '/v2/agent', { apiKey });
    expect(agents.body.agents.map((agent) => agent.id)).not.toContain(mine.id);
    const agent = await call<{ id: string }>(gateway, 'POST', '/v2/agent', {
      apiKey,
      body: { prompt: 'shoe price', urls: [`${site.url}/shoe`] },
    });
    expect(await call(gateway, 'GET', `/v2/extract/${agent.body.id}`, { apiKey })).toMatchObject({
      status: 404,
    });

    // Request validation (docs/extract.md#api).
    expect(await post({ schema: PRODUCT_SCHEMA })).toMatchObject({
      status: 400,
      body: { success: false, code: 'BAD_REQUEST', error: "Either 'urls' or 'prompt' must be provided." },
    });
    const eleven = Array.from({ length: 11 }, (_, index) => `${site.url}/p${index}`);
    expect(await post({ urls: eleven })).toMatchObject({
      status: 400,
      body: { error: 'Maximum of 10 URLs allowed per request while in beta.' },
    });
    expect(await post({ prompt: 'x', surprise: true })).toMatchObject({
      status: 400,
      body: {
        error: 'Unrecognized key in body -- please review the v2 API documentation for request body changes',
      },
    });
    expect(
      await post({ prompt: 'x', schema: { type: 'object', properties: { price: { type: 'numbr' } } } }),
    ).toMatchObject({
      status: 422,
      body: { success: false, error: expect.stringMatching(/^Invalid JSON schema: /) },
    });
    expect(await post({ prompt: 'x', schema: { type: 'object', additionalProperties: true } })).toMatchObject(
      {
        status: 400,
        body: {
          error:
            'The json schema must define properties when it is an object that allows additional properties',
        },
      },
    );
    expect(await post({ urls: [`${site.url}/shoe`, 'nope'], ignoreInvalidURLs: false })).toMatchObject({
      status: 400,
      body: { success: false, error: 'Invalid URL' },
    });
    expect(await post({ urls: ['nope', 'ftp://x.example.com'], prompt: 'x' })).toMatchObject({
      status: 400,
      body: { success: false, error: 'No valid URLs provided' },
    });
    expect(await call(gateway, 'POST', '/v2/extract', { body: { prompt: 'x' } })).toMatchObject({
      status: 401,
      body: { success: false, error: 'Unauthorized: Invalid token' },
    });
    const poor = await newTeamKey(databaseUrl, uniqueName('poor'), { credits: 19 });
    expect(await post({ prompt: 'x' }, poor)).toMatchObject({
      status: 402,
      body: { success: false, error: 'Payment Required: Insufficient credits' },
    });
    const zdr = await newTeamKey(databaseUrl, uniqueName('zdr'), { credits: 1_000, zeroDataRetention: true });
    expect(await post({ urls: [`${site.url}/shoe`] }, zdr)).toMatchObject({
      status: 400,
      body: {
        success: false,
        error:
          'Your team has zero data retention enabled. This is not supported on extract, which includes agent jobs.',
      },
    });
  });
});
