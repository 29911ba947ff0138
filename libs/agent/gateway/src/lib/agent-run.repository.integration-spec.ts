import { randomUUID } from 'node:crypto';

import pino from 'pino';

import {
  AGENT_MESSAGES,
  AgentRunRepository,
  initialMemory,
  orchestrator,
  type PendingEvent,
  requestCancel,
} from '@quarry/agent/domain';
import { CreditsService } from '@quarry/billing';
import { type AgentRequestInput, agentRequestSchema, AppError } from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { KafkaBus } from '@quarry/platform/bus';
import type { Database } from '@quarry/platform/database';
import { AddressPolicy, GuardedHttpClient, WebhookTargetPolicy } from '@quarry/platform/net';
import { PlatformMetrics } from '@quarry/platform/observability';
import {
  createTestDatabase,
  TEST_KAFKA_BROKERS,
  testConfig,
  type TestDatabase,
  uniqueName,
} from '@quarry/testing';
import { WebhookOutboxRepository } from '@quarry/webhooks';

import { AgentService } from './agent.service';

/** The webhook check with DNS at the boundary: every name resolves to a public address (there is no resolver to ask here). */
const publicWebhookTargets = () =>
  new WebhookTargetPolicy(
    new GuardedHttpClient(new AddressPolicy(true), { userAgent: 'test', maxBytes: 1_000 }, async () => [
      { address: '93.184.216.34', family: 4 },
    ]),
  );

jest.setTimeout(120_000);

const logger = pino({ level: 'silent' });

describe('agent runs on PostgreSQL (repository and service)', () => {
  let database: TestDatabase;
  let db: Database;
  let runs: AgentRunRepository;
  let credits: CreditsService;
  let teamId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await database.open();
    credits = new CreditsService(db);
    runs = new AgentRunRepository(db, credits, new WebhookOutboxRepository(db));
    const team = await db.prisma.team.create({ data: { name: uniqueName('team') } });
    teamId = team.id;
    await credits.grant(teamId, 1_000);
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  const newRun = async (input: Partial<AgentRequestInput> = {}) => {
    const id = randomUUID();
    const request = agentRequestSchema.parse({
      prompt: 'find the price',
      urls: ['https://a.example/'],
      ...input,
    });
    await runs.create({
      id,
      teamId,
      request,
      memory: initialMemory(request.urls ?? [], 'deterministic'),
      expiresAt: new Date(Date.now() + 3_600_000),
      events: [],
    });
    return id;
  };
  const event = (runId: string, key: string): PendingEvent => ({
    key,
    agent: orchestrator(runId),
    body: { type: 'progress.reported', phase: 'working', message: key },
  });

  it('numbers concurrent trace writes without gaps and records each key once', async () => {
    const id = await newRun();
    const writers = Array.from({ length: 24 }, (_, index) =>
      runs.record(id, [event(id, `k${index % 12}`), event(id, `k${(index + 1) % 12}`)]),
    );
    await Promise.all(writers);
    const events = await runs.events(id);
    expect(events.map((e) => e.producerSequence)).toEqual(
      Array.from({ length: 12 }, (_, index) => index + 1),
    );
    expect(new Set(events.map((e) => (e as { message?: string }).message)).size).toBe(12);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(12);
    for (const e of events)
      expect(e).toMatchObject({
        schemaVersion: 1,
        runId: id,
        agent: { role: 'orchestrator', name: 'orchestrator' },
        type: 'progress.reported',
      });
  });

  it('lets exactly one of many concurrent cancels through; the others see it cancelling', async () => {
    const id = await newRun();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        runs.requestCancel(id, teamId, (state) => requestCancel(state).ok, [
          {
            key: 'cancel:requested',
            agent: orchestrator(id),
            body: { type: 'run.cancel_requested', reason: 'user' },
          },
        ]),
      ),
    );
    expect(results.filter((state) => state === 'queued')).toHaveLength(1);
    expect(results.filter((state) => state === 'cancelling')).toHaveLength(9);
    expect((await runs.events(id)).filter((e) => e.type === 'run.cancel_requested')).toHaveLength(1);
    // Another team's cancel finds nothing.
    expect(await runs.requestCancel(id, randomUUID(), () => true, [])).toBeUndefined();
  });

  it('guards a step by state and step number, and finishing charges a succeeded run once', async () => {
    const id = await newRun();
    expect(await runs.update(id, { whenState: ['queued'], state: 'running', step: 1 })).toBe(true);
    expect(await runs.update(id, { whenState: ['queued'], state: 'running', step: 1 })).toBe(false);
    expect(await runs.update(id, { whenStep: 0, step: 2 })).toBe(false);
    const before = await credits.balance(teamId);
    const finish = () =>
      runs.finish(id, {
        whenState: ['running'],
        state: 'completed',
        outcome: 'succeeded',
        error: null,
        data: { ok: 1 },
        credits: 7,
        events: [],
        stoppedTaskEvents: () => [],
      });
    expect(await finish()).toBe(true);
    expect(await finish()).toBe(false);
    expect(await credits.balance(teamId)).toBe(before - 7);
    const job = await db.prisma.job.findUnique({ where: { id } });
    expect(job).toMatchObject({ status: 'completed', creditsUsed: 7, kind: 'agent' });
  });

  it('does not charge a failed run and stops its unfinished sub-agents with parent_finished', async () => {
    const id = await newRun();
    await runs.update(id, {
      whenState: ['queued'],
      state: 'running',
      step: 1,
      tasks: [
        {
          id: randomUUID(),
          round: 1,
          input: { url: 'https://a.example/', name: 'reader-1.1', scrapeJobId: randomUUID() },
        },
      ],
    });
    const before = await credits.balance(teamId);
    await runs.finish(id, {
      whenState: ['running'],
      state: 'failed',
      outcome: 'credit_limit_reached',
      error: { code: 'credit_limit_reached', source: 'billing', retryable: false, message: 'limit' },
      credits: 0,
      events: [
        {
          key: 'finish:run',
          agent: orchestrator(id),
          body: { type: 'run.finished', outcome: 'credit_limit_reached', error: null },
        },
      ],
      stoppedTaskEvents: (task, name) => [
        {
          key: `task:${task}:finished`,
          agent: { id: task, role: 'subagent', name, parentId: orchestrator(id).id },
          body: {
            type: 'agent.finished',
            outcome: 'cancelled',
            durationMs: 0,
            error: { code: 'parent_finished', source: 'system', retryable: false, message: 'parent' },
          },
        },
      ],
    });
    expect(await credits.balance(teamId)).toBe(before);
    const tasks = await runs.tasksOfRound(id, 1);
    expect(tasks.map((task) => task.state)).toEqual(['stopped']);
    const events = await runs.events(id);
    expect(events.map((e) => e.type)).toEqual(['agent.finished', 'run.finished']);
    expect(events[0]).toMatchObject({
      agent: { role: 'subagent', name: 'reader-1.1' },
      error: { code: 'parent_finished' },
    });
    expect(await db.prisma.job.findUnique({ where: { id } })).toMatchObject({
      status: 'failed',
      creditsUsed: 0,
    });
  });

  it('answers 500 "Failed to passthrough agent request." when the run cannot be submitted, and records the run as failed', async () => {
    const config = testConfig({
      KAFKA_BROKERS: TEST_KAFKA_BROKERS.join(','),
      BUS_TOPIC_PREFIX: `${uniqueName('agent')}.`,
    });
    const bus = new KafkaBus(
      {
        brokers: TEST_KAFKA_BROKERS,
        clientId: 'test',
        topicPrefix: config.bus.topicPrefix,
        replicationFactor: 1,
      },
      logger,
    );
    await bus.start();
    await bus.stop(); // the orchestrators' topic can no longer be reached
    const sut = new AgentService({
      runs,
      credits,
      bus,
      config,
      metrics: new PlatformMetrics({ service: 'test', defaultMetrics: false }),
      logger,
      webhookTargets: publicWebhookTargets(),
      webhookDeliveries: new WebhookOutboxRepository(db),
    });
    const auth: AuthContext = { teamId, teamName: 't', scopes: ['*'], zeroDataRetention: false };
    const error = (await sut
      .start(auth, agentRequestSchema.parse({ prompt: 'x', urls: ['https://a.example/'] }))
      .catch((caught: unknown) => caught)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.status).toBe(500);
    expect(error.message).toBe(AGENT_MESSAGES.passthroughFailed);
    const listed = await runs.listForTeam(teamId, undefined, 50);
    const failed = listed.find(
      (run) => run.state === 'failed' && run.errorMessage === AGENT_MESSAGES.passthroughFailed,
    );
    expect(failed).toBeDefined();
  });
});
