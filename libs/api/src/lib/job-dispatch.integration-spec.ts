import { randomUUID } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

import { type DynamicModule, Module } from '@nestjs/common';
import type { ISocketFactory } from 'kafkajs';
import pino from 'pino';

import { ScrapeGateway } from '@quarry/agent/worker';
import { CreditsService } from '@quarry/billing';
import { IdentityRepository, KeyManagementService } from '@quarry/identity';
import { DocumentRepository, JobOutcomeStore, JobRepository, JobWaiter } from '@quarry/jobs';
import { KafkaBus } from '@quarry/platform/bus';
import {
  PlatformModule,
  type PlatformRuntime,
  type RunningService,
  runService,
} from '@quarry/platform/runtime';
import {
  createTestDatabase,
  TEST_KAFKA_BROKERS,
  testConfig,
  type TestDatabase,
  uniqueName,
} from '@quarry/testing';

import { ApiModule } from './api.module';
import { configureApiHttp } from './api-http';

jest.setTimeout(180_000);

/** The gateway's public API, on the bus this test can cut off from the broker. */
@Module({})
class TestGatewayModule {
  static forRoot(runtime: PlatformRuntime): DynamicModule {
    return { module: TestGatewayModule, imports: [PlatformModule.forRoot(runtime), ApiModule] };
  }
}

interface JobRow {
  id: string;
  kind: string;
  status: string;
  error_code: string | null;
}

/**
 * One job path (JobDispatcher): with the broker unreachable, scrape, parse, interact and the agent's
 * scrape client fail the same way — 503 in the spec's error shape (Retry-After) and the job closed
 * (`failed`, SERVICE_UNAVAILABLE), so a late delivery is skipped and nothing keeps waiting.
 * Real PostgreSQL and a real Kafka broker, reached through sockets the test cuts.
 */
describe('broker down: one failure semantics for every job path', () => {
  const network = { cut: false, sockets: new Set<Socket>() };
  let closedPort = 0;
  let database: TestDatabase;
  let bus: KafkaBus;
  let service: RunningService;
  let apiKey: string;
  let teamId: string;
  let apiKeyId: string;
  let jobs: JobRepository;

  const post = async (path: string, body: unknown, form?: FormData) => {
    const response = await fetch(`${service.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(form ? {} : { 'content-type': 'application/json' }),
      },
      body: form ?? JSON.stringify(body),
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as Record<string, unknown>,
    };
  };

  const jobsOfTeam = async (kind: string): Promise<JobRow[]> =>
    service.runtime.database.sql.query<JobRow>(
      'SELECT id, kind, status, error_code FROM jobs WHERE team_id = $1 AND kind = $2 ORDER BY created_at',
      [teamId, kind],
    );

  /** What every path must show after a publish the broker did not take. */
  const expectUnavailable = async (
    answer: Awaited<ReturnType<typeof post>>,
    kind: string,
    before: number,
  ): Promise<void> => {
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ success: false, error: 'Service Unavailable' });
    expect(answer.retryAfter).toBe('5');
    const rows = await jobsOfTeam(kind);
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ status: 'failed', error_code: 'SERVICE_UNAVAILABLE' });
  };

  beforeAll(async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const socketFactory: ISocketFactory = ({ host, port, onConnect }) => {
      const socket = network.cut
        ? connect({ host: '127.0.0.1', port: closedPort }, onConnect)
        : connect({ host, port }, onConnect);
      network.sockets.add(socket);
      socket.on('close', () => network.sockets.delete(socket));
      return socket;
    };
    database = await createTestDatabase();
    bus = new KafkaBus(
      {
        brokers: TEST_KAFKA_BROKERS,
        clientId: 'job-dispatch-test',
        topicPrefix: `${uniqueName('t')}.`,
        replicationFactor: 1,
        socketFactory,
      },
      pino({ level: 'silent' }),
    );
    await bus.start();
    service = await runService(
      {
        name: 'gateway',
        migrates: false,
        module: (runtime) => {
          runtime.bus = bus;
          return TestGatewayModule.forRoot(runtime);
        },
        configureHttp: configureApiHttp,
      },
      testConfig({
        SERVICE_NAME: 'gateway',
        DATABASE_URL: database.url,
        BUS_DRIVER: 'memory',
        RATE_LIMIT_PER_MINUTE: '0',
      }),
    );
    const db = service.runtime.database;
    const created = await new KeyManagementService(new IdentityRepository(db)).createKey('broker-down');
    apiKey = created.key;
    teamId = created.teamId;
    apiKeyId = created.id;
    await new CreditsService(db).grant(teamId, 1_000);
    jobs = new JobRepository(db);
    await bus.subscriptionsReady();
    // The broker goes away for everything this process opens from now on.
    network.cut = true;
    for (const socket of network.sockets) socket.destroy(new Error('network cut'));
  });

  afterAll(async () => {
    await service?.close();
    await bus?.stop().catch(() => undefined);
    await database?.drop();
  });

  it('scrape: 503 and the job closed', async () => {
    const before = (await jobsOfTeam('scrape')).length;
    const answer = await post('/v2/scrape', { url: 'https://example.com/', timeout: 15_000 });
    await expectUnavailable(answer, 'scrape', before);
  });

  it('parse: 503 and the job closed', async () => {
    const before = (await jobsOfTeam('parse')).length;
    const form = new FormData();
    form.append('options', JSON.stringify({ timeout: 15_000 }));
    form.append('file', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'table.csv');
    const answer = await post('/v2/parse', undefined, form);
    await expectUnavailable(answer, 'parse', before);
  });

  it('interact: 503 and the call closed', async () => {
    const db = service.runtime.database;
    const scrapeId = randomUUID();
    // A finished scrape of the team, as the worker leaves it (the broker is not needed to record it).
    await jobs.create({
      id: scrapeId,
      teamId,
      apiKeyId,
      kind: 'scrape',
      input: { url: 'https://example.com/', formats: ['markdown'], timeout: 30_000 },
      zeroDataRetention: false,
    });
    await new JobOutcomeStore(db).complete({
      jobId: scrapeId,
      teamId,
      kind: 'scrape',
      apiKeyId,
      credits: 1,
      documents: [
        {
          sourceUrl: 'https://example.com/',
          url: 'https://example.com/',
          urlKey: 'example.com/',
          statusCode: 200,
          document: {
            markdown: '# Example',
            metadata: { sourceURL: 'https://example.com/', statusCode: 200 },
          } as never,
        },
      ],
    });
    const before = (await jobsOfTeam('interact')).length;
    const answer = await post(`/v2/scrape/${scrapeId}/interact`, { code: 'return 1', timeout: 15 });
    await expectUnavailable(answer, 'interact', before);
  });

  it("agent's scrape client: the page fails as unavailable and its job is closed", async () => {
    const db = service.runtime.database;
    const documents = new DocumentRepository(db);
    const gateway = new ScrapeGateway({
      jobs,
      documents,
      outcomes: new JobOutcomeStore(db),
      waiter: new JobWaiter(bus, jobs, pino({ level: 'silent' })),
      bus,
      metrics: service.runtime.metrics,
      retentionHours: 1,
    });
    const jobId = randomUUID();
    const started = Date.now();
    const outcome = await gateway.scrape({
      jobId,
      teamId,
      url: 'https://example.com/',
      parentJobId: randomUUID(),
      timeoutMs: 15_000,
      stop: async () => false,
    });
    expect(outcome).toEqual({ status: 'failed', error: 'Service Unavailable' });
    // Answered when the publish failed, not after waiting out the scrape's own timeout.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await jobs.find(jobId)).toMatchObject({
      status: 'failed',
      error: { code: 'SERVICE_UNAVAILABLE' },
    });
  });
});
