import { randomBytes } from 'node:crypto';

import { createTestDatabase, TEST_KAFKA_BROKERS, type TestDatabase, uniqueName } from '@quarry/testing';

import { type ServiceProcess, startService } from './service-process';

export interface Platform {
  /** Round-robin over the gateways. */
  url: () => string;
  gateways: ServiceProcess[];
  workers: ServiceProcess[];
  /** doc-parser processes (PDF and office parsing), started with `docParsers` or startDocParser(). */
  docParsers: ServiceProcess[];
  apiKey: string;
  database?: TestDatabase;
  env: Record<string, string>;
  startWorker(extraEnv?: Record<string, string>): Promise<ServiceProcess>;
  startDocParser(extraEnv?: Record<string, string>): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  gateways?: number;
  workers?: number;
  /** doc-parser processes (default 0: only suites that parse documents start them). */
  docParsers?: number;
  env?: Record<string, string>;
  credits?: number;
  /** How long each service may take to answer /readyz (default 90 s; benchmarks on a loaded machine wait longer). */
  readyTimeoutMs?: number;
}

/**
 * The cluster mode on one machine: gateways and scrape workers as separate processes sharing a
 * fresh PostgreSQL database and a unique set of Kafka topics.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Platform> {
  const database = await createTestDatabase();
  const apiKey = `fc-${randomBytes(24).toString('hex')}`;
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    BUS_DRIVER: 'kafka',
    KAFKA_BROKERS: TEST_KAFKA_BROKERS.join(','),
    BUS_TOPIC_PREFIX: `${uniqueName('e2e')}.`,
    ALLOW_PRIVATE_NETWORKS: 'true',
    BOOTSTRAP_API_KEY: apiKey,
    BOOTSTRAP_CREDITS: String(options.credits ?? 1_000_000),
    BLOB_SIGNING_SECRET: randomBytes(16).toString('hex'),
    BLOB_DIR: `/tmp/${uniqueName('quarry-blobs')}`,
    DATABASE_MIGRATE_ON_START: 'true',
    // A killed worker's partitions move after 10 s instead of the default 30 s: the tests that kill
    // workers wait for that hand-over (the brokers accept 6 s and up).
    KAFKA_SESSION_TIMEOUT_MS: '10000',
    ...options.env,
  };
  const gateways: ServiceProcess[] = [];
  const workers: ServiceProcess[] = [];
  const docParsers: ServiceProcess[] = [];
  const platform: Platform = {
    url: (() => {
      let next = 0;
      return () => gateways[next++ % gateways.length].url;
    })(),
    gateways,
    workers,
    docParsers,
    apiKey,
    database,
    env,
    startWorker: async (extraEnv = {}) => {
      const worker = await startService(
        'scrape-worker',
        { ...env, ...extraEnv },
        { label: `worker-${workers.length + 1}`, readyTimeoutMs: options.readyTimeoutMs },
      );
      workers.push(worker);
      return worker;
    },
    startDocParser: async (extraEnv = {}) => {
      const parser = await startService(
        'doc-parser',
        { ...env, ...extraEnv },
        { label: `doc-parser-${docParsers.length + 1}` },
      );
      docParsers.push(parser);
      return parser;
    },
    stop: async () => {
      await Promise.allSettled([...gateways, ...workers, ...docParsers].map((service) => service.stop()));
      await database.drop();
    },
  };
  try {
    // The first gateway migrates the database and creates the topics; the other services then start
    // side by side (kept in their labels' order, so workers[0] is worker-1).
    gateways.push(
      await startService('gateway', env, { label: 'gateway-1', readyTimeoutMs: options.readyTimeoutMs }),
    );
    const started = (app: string, label: string) =>
      startService(app, env, { label, readyTimeoutMs: options.readyTimeoutMs });
    const failures = await Promise.all([
      allStarted(
        Array.from({ length: (options.gateways ?? 2) - 1 }, (_, index) =>
          started('gateway', `gateway-${index + 2}`),
        ),
        gateways,
      ),
      allStarted(
        Array.from({ length: options.workers ?? 2 }, (_, index) =>
          started('scrape-worker', `worker-${index + 1}`),
        ),
        workers,
      ),
      allStarted(
        Array.from({ length: options.docParsers ?? 0 }, (_, index) =>
          started('doc-parser', `doc-parser-${index + 1}`),
        ),
        docParsers,
      ),
    ]);
    const failure = failures.find((reason) => reason !== undefined);
    if (failure) throw failure;
  } catch (error) {
    await platform.stop();
    throw error;
  }
  return platform;
}

/**
 * Waits for services started side by side and adds those that started to `into`, in their order, so
 * the platform's stop() reaches them; the first start failure is returned (undefined when none).
 */
async function allStarted(starts: Promise<ServiceProcess>[], into: ServiceProcess[]): Promise<unknown> {
  const results = await Promise.allSettled(starts);
  for (const result of results) if (result.status === 'fulfilled') into.push(result.value);
  return results.find((result) => result.status === 'rejected')?.reason;
}

/** The one-process mode on embedded PGlite and the in-memory bus, as `make start` runs it. */
export async function startStandalone(
  env: Record<string, string> = {},
  options: { readyTimeoutMs?: number } = {},
): Promise<Platform> {
  const apiKey = `fc-${randomBytes(24).toString('hex')}`;
  const dataDir = `/tmp/${uniqueName('quarry-standalone')}`;
  const fullEnv: Record<string, string> = {
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_NETWORKS: 'true',
    BOOTSTRAP_API_KEY: apiKey,
    ...env,
  };
  const service = await startService('standalone', fullEnv, options);
  return {
    url: () => service.url,
    gateways: [service],
    workers: [],
    docParsers: [],
    apiKey,
    env: fullEnv,
    startWorker: () => Promise.reject(new Error('one-process mode has no separate workers')),
    startDocParser: () => Promise.reject(new Error('one-process mode parses documents in the same process')),
    stop: () => service.stop(),
  };
}
