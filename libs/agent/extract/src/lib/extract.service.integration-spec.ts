import pino from 'pino';

import { AgentRunRepository, extractWebhookEvents, orchestrator } from '@quarry/agent/domain';
import { CreditsService } from '@quarry/billing';
import {
  type AgentWorkMessage,
  AppError,
  EXTRACT_MESSAGES,
  type ExtractRequestInput,
  extractRequestSchema,
  webhookSchema,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { MemoryBus } from '@quarry/platform/bus';
import type { Database } from '@quarry/platform/database';
import { AddressPolicy, GuardedHttpClient, WebhookTargetPolicy } from '@quarry/platform/net';
import { PlatformMetrics } from '@quarry/platform/observability';
import { createTestDatabase, testConfig, type TestDatabase, uniqueName } from '@quarry/testing';
import { WebhookOutboxRepository } from '@quarry/webhooks';

import { ExtractService } from './extract.service';

/** The webhook check with DNS at the boundary: every name resolves to a public address (there is no resolver to ask here). */
const publicWebhookTargets = () =>
  new WebhookTargetPolicy(
    new GuardedHttpClient(new AddressPolicy(true), { userAgent: 'test', maxBytes: 1_000 }, async () => [
      { address: '93.184.216.34', family: 4 },
    ]),
  );

jest.setTimeout(120_000);

const logger = pino({ level: 'silent' });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('extract jobs on PostgreSQL (service and repository)', () => {
  let database: TestDatabase;
  let db: Database;
  let runs: AgentRunRepository;
  let credits: CreditsService;
  let bus: MemoryBus;
  let auth: AuthContext;
  let sut: ExtractService;
  const announced: AgentWorkMessage[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await database.open();
    credits = new CreditsService(db);
    runs = new AgentRunRepository(db, credits, new WebhookOutboxRepository(db));
    const team = await db.prisma.team.create({ data: { name: uniqueName('team') } });
    auth = { teamId: team.id, teamName: team.name, scopes: ['*'], zeroDataRetention: false };
    await credits.grant(team.id, 1_000);
    bus = new MemoryBus(logger);
    await bus.start();
    await bus.subscribe<AgentWorkMessage>('agentWork', { group: 'test', concurrency: 1 }, async (message) => {
      announced.push(message.value);
    });
    sut = new ExtractService({
      runs,
      credits,
      bus,
      config: testConfig({ JOB_RETENTION_HOURS: '24' }),
      metrics: new PlatformMetrics({ service: 'test', defaultMetrics: false }),
      logger,
      webhookTargets: publicWebhookTargets(),
      webhookDeliveries: new WebhookOutboxRepository(db),
    });
  });
  afterAll(async () => {
    await bus.stop();
    await db.close();
    await database.drop();
  });

  const start = (input: ExtractRequestInput) => sut.start(auth, extractRequestSchema.parse(input));

  it('records a queued job of kind extract with its webhook stream, announces it, and polls as processing', async () => {
    const before = Date.now();
    const response = await start({
      urls: ['https://a.example/p', 'not a url'],
      prompt: 'the price',
      webhook: 'https://hooks.example.com/x',
    });
    expect(response).toEqual({
      success: true,
      id: expect.stringMatching(UUID),
      urlTrace: [],
      invalidURLs: ['not a url'],
    });
    const id = response.id;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(announced).toContainEqual({ type: 'advance', runId: id, teamId: auth.teamId });
    expect(await db.prisma.job.findUnique({ where: { id } })).toMatchObject({
      kind: 'extract',
      status: 'queued',
    });
    const run = await runs.find(id);
    expect(run).toMatchObject({ kind: 'extract', model: 'extract', state: 'queued', prompt: 'the price' });
    expect(run?.extract?.urls).toEqual(['https://a.example/p']);
    expect(await db.prisma.webhookStream.findUnique({ where: { jobId: id } })).toMatchObject({
      target: { url: 'https://hooks.example.com/x', events: ['completed', 'failed', 'page', 'started'] },
    });
    const status = await sut.status(auth, id);
    expect(status).toEqual({
      success: true,
      status: 'processing',
      data: [],
      expiresAt: expect.any(String),
      tokensUsed: 0,
      creditsUsed: 0,
      // the job has a webhook: nothing sent before an orchestrator starts it
      webhookDelivery: { delivered: 0, pending: 0, failed: 0 },
    });
    const expires = Date.parse(status.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 24 * 3_600_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
    // Agent routes look for agent runs only.
    expect(await runs.findForTeam(id, auth.teamId)).toBeUndefined();
    expect((await runs.listForTeam(auth.teamId, undefined, 50)).map((listed) => listed.id)).not.toContain(id);
  });

  it('writes each webhook event once, with the state change that causes it, and charges a completed job once', async () => {
    const webhook = webhookSchema.parse('https://hooks.example.com/y');
    const { id } = await start({ urls: ['https://a.example/q'], webhook: 'https://hooks.example.com/y' });
    const balance = await credits.balance(auth.teamId);
    const startStep = () =>
      runs.update(id, {
        whenState: ['queued'],
        state: 'running',
        step: 1,
        warning: 'a note from the start',
        webhooks: extractWebhookEvents(webhook, 'started'),
      });
    expect(await Promise.all([startStep(), startStep()])).toEqual(expect.arrayContaining([true, false]));
    const finish = () =>
      runs.finish(id, {
        whenState: ['running'],
        state: 'completed',
        outcome: 'succeeded',
        error: null,
        data: { price: 12 },
        credits: 5,
        events: [
          {
            key: 'finish:run',
            agent: orchestrator(id),
            body: { type: 'run.finished', outcome: 'succeeded', error: null },
          },
        ],
        stoppedTaskEvents: () => [],
        warning: 'a note from the start json: fallback',
        sources: { price: ['https://a.example/q'] },
        webhooks: extractWebhookEvents(webhook, 'completed', { result: { status: 'completed' } }),
      });
    expect((await Promise.all([finish(), finish(), finish()])).filter(Boolean)).toHaveLength(1);
    const deliveries = await db.prisma.webhookDelivery.findMany({
      where: { jobId: id },
      orderBy: { seq: 'asc' },
    });
    expect(deliveries.map((delivery) => [delivery.type, delivery.payload])).toEqual([
      ['extract.started', { success: true }],
      ['extract.completed', { success: true, document: { status: 'completed' } }],
    ]);
    expect(await credits.balance(auth.teamId)).toBe(balance - 5);
    expect(await sut.status(auth, id)).toMatchObject({
      success: true,
      status: 'completed',
      data: { price: 12 },
      warning: 'a note from the start json: fallback',
      creditsUsed: 5,
    });
    expect((await sut.status(auth, id)).sources).toBeUndefined(); // showSources was not asked for
  });

  it('refuses zero-data-retention teams and invalid schemas, needs a valid URL, hides expired and foreign jobs', async () => {
    const refused = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: unknown) => error as AppError,
      );
    const zdr = await refused(
      sut.start({ ...auth, zeroDataRetention: true }, extractRequestSchema.parse({ prompt: 'x' })),
    );
    expect(zdr).toMatchObject({ status: 400, message: expect.stringContaining('not supported on extract') });
    expect(
      await refused(start({ prompt: 'x', schema: { type: 'object', properties: { a: { type: 'nope' } } } })),
    ).toMatchObject({
      status: 422,
      message: expect.stringMatching(/^Invalid JSON schema: /),
    });
    expect(await refused(start({ urls: ['nope'], prompt: 'x' }))).toMatchObject({
      status: 400,
      message: EXTRACT_MESSAGES.noValidUrls,
      details: { invalidURLs: ['nope'] },
    });
    expect(
      await refused(start({ urls: ['https://a.example/', 'nope'], ignoreInvalidURLs: false })),
    ).toMatchObject({
      status: 400,
      code: 'INVALID_URL',
      details: [{ path: ['urls', 1] }],
    });
    const { id } = await start({ prompt: 'x' });
    const other = {
      ...auth,
      teamId: (await db.prisma.team.create({ data: { name: uniqueName('other') } })).id,
    };
    expect(await refused(sut.status(other, id))).toMatchObject({
      status: 404,
      message: 'Extract job not found',
    });
    await db.prisma.agentRun.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(await refused(sut.status(auth, id))).toMatchObject({
      status: 404,
      message: 'Extract job not found',
    });
  });
});
