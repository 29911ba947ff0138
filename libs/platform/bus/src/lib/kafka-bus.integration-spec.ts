import { spawn } from 'node:child_process';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';

import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ConfigResourceTypes, type ISocketFactory, Kafka, logLevel } from 'kafkajs';
import pino from 'pino';

import { TRANSIENT_TOPIC_RETENTION_MS, TRANSIENT_TOPIC_SEGMENT_MS } from '@quarry/contracts';
import {
  HealthRegistry,
  PlatformMetrics,
  startTracing,
  type TracingHandle,
} from '@quarry/platform/observability';
import { TEST_KAFKA_BROKERS, uniqueName } from '@quarry/testing';

import { parentOf, runTraceChain, sample } from './fixtures/trace-chain';
import { KafkaBus } from './kafka-bus';
import { BusUnavailableError, isBusUnavailable } from './message-bus';

jest.setTimeout(120_000);

const logger = pino({ level: 'warn' });
const until = async (predicate: () => boolean, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const bus = (prefix: string) =>
  new KafkaBus(
    { brokers: TEST_KAFKA_BROKERS, clientId: 'test', topicPrefix: prefix, replicationFactor: 1 },
    logger,
  );

describe('KafkaBus against a real broker', () => {
  it('creates its topics and delivers to every group, once per group', async () => {
    const prefix = `${uniqueName('t')}.`;
    const sut = bus(prefix);
    await sut.start();
    const workers: unknown[] = [];
    const followers: unknown[] = [];
    await sut.subscribe(
      'scrapeJobs',
      { group: 'workers', concurrency: 4 },
      async (message) => void workers.push(message.value),
    );
    await sut.subscribe(
      'scrapeJobs',
      { group: 'followers', concurrency: 4 },
      async (message) => void followers.push(message.value),
    );
    await sut.subscriptionsReady();
    for (let i = 0; i < 20; i += 1)
      await sut.publish('scrapeJobs', { i }, { key: `k${i}`, headers: { traceparent: `t${i}` } });
    await until(() => workers.length === 20 && followers.length === 20);
    expect(new Set(workers.map((value) => (value as { i: number }).i)).size).toBe(20);
    await sut.stop();
  });

  it('gives the transient topics a short retention, also on topics created before it existed', async () => {
    const prefix = `${uniqueName('t')}.`;
    const kafka = new Kafka({
      clientId: 'retention-test',
      brokers: TEST_KAFKA_BROKERS,
      logLevel: logLevel.NOTHING,
    });
    const admin = kafka.admin();
    await admin.connect();
    try {
      // An older release created job.events with the broker defaults.
      await admin.createTopics({
        waitForLeaders: true,
        topics: [{ topic: `${prefix}job.events`, numPartitions: 3, replicationFactor: 1 }],
      });
      const sut = bus(prefix);
      await sut.start();
      await sut.stop();
      const names = [
        'scrape.jobs',
        'job.events',
        'job.events.dead-letter',
        'document.parse.jobs',
        'document.parse.results',
        'crawl.tasks',
        'agent.work',
        'monitor.checks',
      ];
      const describe = async () => {
        const described = await admin.describeConfigs({
          includeSynonyms: false,
          resources: names.map((name) => ({
            type: ConfigResourceTypes.TOPIC,
            name: `${prefix}${name}`,
            configNames: ['retention.ms', 'segment.ms'],
          })),
        });
        return Object.fromEntries(
          described.resources.map((resource) => [
            resource.resourceName.slice(prefix.length),
            Object.fromEntries(
              resource.configEntries.map((entry) => [
                entry.configName,
                { value: entry.configValue, isDefault: entry.isDefault },
              ]),
            ),
          ]),
        );
      };
      // A changed topic config reaches the broker through the controller's metadata log: a moment later.
      let config = await describe();
      for (let attempt = 0; attempt < 50 && config['job.events']['retention.ms'].isDefault; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        config = await describe();
      }
      for (const name of [
        'scrape.jobs',
        'job.events',
        'job.events.dead-letter',
        'document.parse.jobs',
        'document.parse.results',
      ]) {
        expect({ name, ...config[name] }).toEqual({
          name,
          'retention.ms': { value: String(TRANSIENT_TOPIC_RETENTION_MS), isDefault: false },
          'segment.ms': { value: String(TRANSIENT_TOPIC_SEGMENT_MS), isDefault: false },
        });
      }
      // Crawl and agent work may wait in a backlog: the broker's retention applies.
      expect(config['crawl.tasks']['retention.ms'].isDefault).toBe(true);
      expect(config['agent.work']['retention.ms'].isDefault).toBe(true);
      expect(config['monitor.checks']['retention.ms'].isDefault).toBe(true);
    } finally {
      await admin.disconnect();
    }
  });

  it('fails a publish with BusUnavailableError and reports unhealthy when the broker becomes unreachable, then recovers', async () => {
    // The real broker, reached through sockets this test can cut (nothing shared is stopped).
    const network = { cut: false, sockets: new Set<Socket>() };
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const socketFactory: ISocketFactory = ({ host, port, onConnect }) => {
      const socket = network.cut
        ? connect({ host: '127.0.0.1', port: closedPort }, onConnect)
        : connect({ host, port }, onConnect);
      network.sockets.add(socket);
      socket.on('close', () => network.sockets.delete(socket));
      return socket;
    };
    const sut = new KafkaBus(
      {
        brokers: TEST_KAFKA_BROKERS,
        clientId: 'test',
        topicPrefix: `${uniqueName('t')}.`,
        replicationFactor: 1,
        publishTimeoutMs: 3_000,
        socketFactory,
      },
      logger,
    );
    const health = new HealthRegistry();
    health.register('bus', () => sut.healthy());
    health.markStarted();
    await sut.start();
    try {
      await sut.publish('scrapeJobs', { ok: 1 });
      expect((await health.report()).ready).toBe(true);

      network.cut = true;
      for (const socket of network.sockets) socket.destroy(new Error('network cut'));
      const started = Date.now();
      const failure = await sut.publish('scrapeJobs', { lost: 1 }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(BusUnavailableError);
      expect(isBusUnavailable(failure)).toBe(true);
      expect(Date.now() - started).toBeLessThan(6_000);
      const report = await health.report();
      expect(report.ready).toBe(false);
      expect(report.checks['bus']?.ok).toBe(false);

      network.cut = false;
      let recovered = false;
      for (let attempt = 0; attempt < 30 && !recovered; attempt += 1) {
        recovered = await sut.publish('scrapeJobs', { back: 1 }).then(
          () => true,
          () => false,
        );
      }
      expect(recovered).toBe(true);
      expect((await health.report()).ready).toBe(true);

      // A caller with time left (timeoutMs) waits out an outage shorter than that: the message is taken.
      network.cut = true;
      for (const socket of network.sockets) socket.destroy(new Error('network cut'));
      const patient = sut.publish('scrapeJobs', { patient: 1 }, { timeoutMs: 20_000 });
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      network.cut = false;
      await expect(patient).resolves.toBeUndefined();
    } finally {
      network.cut = false;
      await sut.stop(1_000);
    }
  });

  it('redelivers a message whose worker was killed before committing', async () => {
    const prefix = `${uniqueName('t')}.`;
    const child = spawn(
      process.execPath,
      [
        '-r',
        '@swc-node/register',
        join(__dirname, 'fixtures/stuck-consumer.ts'),
        TEST_KAFKA_BROKERS.join(','),
        prefix,
      ],
      {
        env: { ...process.env, SWC_NODE_PROJECT: join(__dirname, '../../../../../tsconfig.base.json') },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await until(() => output.includes('ready'), 90_000);
      const producer = bus(prefix);
      await producer.start();
      await producer.publish('scrapeJobs', { job: 'a' }, { key: 'a' });
      await until(() => output.includes('received'));
      child.kill('SIGKILL');
      await producer.stop();

      const second = bus(prefix);
      await second.start();
      const seen: unknown[] = [];
      await second.subscribe(
        'scrapeJobs',
        { group: 'workers', concurrency: 1 },
        async (message) => void seen.push(message.value),
      );
      await until(() => seen.length === 1, 90_000);
      expect(seen).toEqual([{ job: 'a' }]);
      await second.stop();
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('retries a failing handler and commits after it succeeds', async () => {
    const prefix = `${uniqueName('t')}.`;
    const sut = bus(prefix);
    await sut.start();
    const attempts: number[] = [];
    await sut.subscribe('scrapeJobs', { group: 'workers', concurrency: 2 }, async (message) => {
      attempts.push(message.attempt);
      if (message.attempt < 2) throw new Error('transient');
    });
    await sut.subscriptionsReady();
    await sut.publish('scrapeJobs', { job: 'r' });
    await until(() => attempts.length === 2);
    await sut.stop();

    const again = bus(prefix);
    await again.start();
    const replayed: unknown[] = [];
    await again.subscribe(
      'scrapeJobs',
      { group: 'workers', concurrency: 2 },
      async (message) => void replayed.push(message.value),
    );
    await again.subscriptionsReady();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(replayed).toEqual([]);
    await again.stop();
  });
});

describe('KafkaBus tracing and metrics against a real broker', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: TracingHandle;
  beforeAll(async () => {
    tracing = await startTracing({
      serviceName: 'bus-test',
      sampleRatio: 1,
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
  });
  afterAll(() => tracing.shutdown());

  it('carries the trace context in Kafka headers: request → job → retry → completion event', async () => {
    const metrics = new PlatformMetrics({ service: 'bus-test', defaultMetrics: false });
    const sut = new KafkaBus(
      {
        brokers: TEST_KAFKA_BROKERS,
        clientId: 'test',
        topicPrefix: `${uniqueName('t')}.`,
        replicationFactor: 1,
      },
      logger,
      metrics,
    );
    await sut.start();
    const chain = await runTraceChain(sut, () => exporter.getFinishedSpans());
    await sut.stop();
    expect(new Set(chain.all.map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(chain.sendJob.attributes['messaging.system']).toBe('kafka');
    expect(chain.sendJob.name).toMatch(/^send t_.*\.scrape\.jobs$/);
    expect(parentOf(chain.sendJob)).toBe(chain.request.spanContext().spanId);
    expect(chain.processJob).toHaveLength(2);
    for (const span of chain.processJob) expect(parentOf(span)).toBe(chain.sendJob.spanContext().spanId);
    const succeeded = chain.processJob.find((span) => span.attributes['quarry.delivery.attempt'] === 2);
    expect(parentOf(chain.sendEvent)).toBe(succeeded?.spanContext().spanId);
    expect(parentOf(chain.processEvent)).toBe(chain.sendEvent.spanContext().spanId);
    expect(await sample(metrics.busConsumed, { topic: 'scrapeJobs', outcome: 'error' })).toBe(1);
    expect(await sample(metrics.busConsumed, { topic: 'scrapeJobs', outcome: 'ok' })).toBe(1);
  });

  it('reports committed-offset lag per topic and group', async () => {
    const prefix = `${uniqueName('t')}.`;
    const producer = bus(prefix);
    await producer.start();
    for (let i = 0; i < 30; i += 1) await producer.publish('scrapeJobs', { i }, { key: `k${i}` });
    const sut = bus(prefix);
    await sut.start();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handled = new Set<number>();
    await sut.subscribe<{ i: number }>(
      'scrapeJobs',
      { group: 'workers', concurrency: 4 },
      async (message) => {
        await gate;
        handled.add(message.value.i);
      },
    );
    await sut.subscriptionsReady();
    const [before] = await sut.consumerLag();
    expect(before).toEqual({ topic: `${prefix}scrape.jobs`, group: 'workers', lag: 30 });
    release();
    await until(() => handled.size === 30);
    let lag = -1;
    for (
      const deadline = Date.now() + 30_000;
      Date.now() < deadline && lag !== 0;
      await new Promise((resolve) => setTimeout(resolve, 250))
    ) {
      lag = (await sut.consumerLag())[0].lag;
    }
    expect(lag).toBe(0);
    await Promise.all([sut.stop(), producer.stop()]);
  });
});
