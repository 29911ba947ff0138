import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

import { Client } from 'pg';

import { REPO_ROOT, type ServiceProcess, startService } from './service-process';

/**
 * The platform as separate processes on one machine, as `make cluster` runs it and the fault tests
 * break it: N gateways behind a round-robin proxy, M scrape workers, one agent orchestrator and one
 * document parser (sharing BLOB_DIR with the gateways and workers), a 3-broker Kafka cluster and a
 * PostgreSQL cluster of its own (`quarry-faults` on 25432 by default — stopping it never touches the
 * shared 5432).
 */
export interface LocalClusterOptions {
  gateways?: number;
  workers?: number;
  /** Extra environment of every service. */
  env?: Record<string, string>;
  /** First port: proxy = base, gateways = base+1…, workers = base+11…, agent orchestrator = base+21, doc-parser = base+22. */
  basePort?: number;
  postgres?: { cluster: string; port: number };
  /** Use this database instead of creating a fresh one. */
  databaseName?: string;
  log?: (line: string) => void;
  /** The infrastructure scripts (tests of the teardown replace them). */
  scripts?: { kafka: string; postgres: string };
}

/** What `stop()` does with the Kafka cluster and PostgreSQL: leave them, or stop those this cluster started. */
export type InfrastructureOnStop = 'keep' | 'stop-started';

export interface ClusterService {
  name: string;
  app: string;
  port: number;
  url: string;
  process?: ChildProcess;
  handle?: ServiceProcess;
  running: boolean;
}

/** Apps started once each, after the gateways and workers (ports base+21, base+22). */
const SINGLE_APPS = ['agent-orchestrator', 'doc-parser'];
const KAFKA_SCRIPT = join(REPO_ROOT, 'scripts/infra/kafka.sh');
const POSTGRES_SCRIPT = join(REPO_ROOT, 'scripts/infra/postgres.sh');
/** The brokers of `kafka.sh up cluster`. */
const KAFKA_CLUSTER_PORTS = [19092, 19192, 19292];
const PROXY_SCRIPT = join(REPO_ROOT, 'scripts/ops/round-robin-proxy.mjs');

function run(command: string, args: string[], env: Record<string, string> = {}): string {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 240_000,
  });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return result.stdout.trim();
}

export class LocalCluster {
  readonly gateways: ClusterService[] = [];
  readonly workers: ClusterService[] = [];
  readonly others: ClusterService[] = [];
  proxy?: { url: string; process: ChildProcess };
  brokers: string[] = [];
  databaseUrl = '';
  adminDatabaseUrl = '';
  apiKey = `fc-${randomBytes(24).toString('hex')}`;
  env: Record<string, string> = {};
  readonly logs = new Map<string, string[]>();
  /** Infrastructure that was not running before this cluster started it (and so is its to stop). */
  private readonly started = { kafka: false, postgres: false };

  private constructor(
    private readonly options: Required<Omit<LocalClusterOptions, 'databaseName'>> & { databaseName?: string },
  ) {}

  static async start(options: LocalClusterOptions = {}): Promise<LocalCluster> {
    const cluster = new LocalCluster({
      gateways: options.gateways ?? 2,
      workers: options.workers ?? 3,
      env: options.env ?? {},
      basePort: options.basePort ?? 3100,
      postgres: options.postgres ?? { cluster: 'quarry-faults', port: 25432 },
      databaseName: options.databaseName,
      log: options.log ?? (() => undefined),
      scripts: options.scripts ?? { kafka: KAFKA_SCRIPT, postgres: POSTGRES_SCRIPT },
    });
    try {
      await cluster.boot();
    } catch (error) {
      await cluster.stop({ infrastructure: 'stop-started' });
      throw error;
    }
    return cluster;
  }

  get url(): string {
    if (!this.proxy) throw new Error('the cluster is not started');
    return this.proxy.url;
  }

  get services(): ClusterService[] {
    return [...this.gateways, ...this.workers, ...this.others];
  }

  private async boot(): Promise<void> {
    const { log, postgres, scripts } = this.options;
    log(`PostgreSQL cluster ${postgres.cluster} on ${postgres.port}`);
    // Noted before starting anything, so that a start failing half-way still stops what it began.
    this.started.postgres = !(await portOpen(postgres.port));
    this.started.kafka = !(await Promise.all(KAFKA_CLUSTER_PORTS.map(portOpen))).every(Boolean);
    this.adminDatabaseUrl = run(scripts.postgres, ['up'], {
      PG_CLUSTER: postgres.cluster,
      PGPORT: String(postgres.port),
    });
    const database =
      this.options.databaseName ??
      `quarry_cluster_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    if (!this.options.databaseName) await this.sql('postgres', `CREATE DATABASE "${database}"`);
    this.databaseUrl = this.adminDatabaseUrl.replace(/\/[^/]+$/, `/${database}`);
    log(`Kafka: 3 brokers on 127.0.0.1:${KAFKA_CLUSTER_PORTS.join(',')}`);
    run(scripts.kafka, ['up', 'cluster']);
    this.brokers = run(scripts.kafka, ['brokers', 'cluster']).split(',');
    await this.waitForKafka();
    this.env = {
      NODE_ENV: 'production',
      DATABASE_URL: this.databaseUrl,
      KAFKA_BROKERS: this.brokers.join(','),
      BUS_TOPIC_PREFIX: `cluster-${randomBytes(4).toString('hex')}.`,
      BOOTSTRAP_API_KEY: this.apiKey,
      BLOB_SIGNING_SECRET: randomBytes(16).toString('hex'),
      BLOB_DIR: join(REPO_ROOT, '.cache/cluster/blobs'),
      DATA_DIR: join(REPO_ROOT, '.cache/cluster/data'),
      DATABASE_MIGRATE_ON_START: 'true',
      LOG_LEVEL: 'info',
      ...this.options.env,
    };
    mkdirSync(this.env['BLOB_DIR'], { recursive: true });
    const base = this.options.basePort;
    // The first gateway migrates the fresh database; the others and the workers start in parallel.
    for (let i = 0; i < this.options.gateways; i += 1)
      this.gateways.push(this.describe('gateway', `gateway-${i + 1}`, base + 1 + i));
    for (let i = 0; i < this.options.workers; i += 1)
      this.workers.push(this.describe('scrape-worker', `worker-${i + 1}`, base + 11 + i));
    SINGLE_APPS.forEach((app, index) => this.others.push(this.describe(app, app, base + 21 + index)));
    await this.startService(this.gateways[0]);
    await Promise.all(this.services.slice(1).map((service) => this.startService(service)));
    const proxy = spawn(
      process.execPath,
      [
        PROXY_SCRIPT,
        '--port',
        String(base),
        ...this.gateways.flatMap((gateway) => ['--upstream', `127.0.0.1:${gateway.port}`]),
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.capture('proxy', proxy);
    await waitFor(
      async () =>
        (await fetch(`http://127.0.0.1:${base}/livez`).then(
          (response) => response.ok,
          () => false,
        )) || undefined,
      15_000,
      'proxy',
    );
    this.proxy = { url: `http://127.0.0.1:${base}`, process: proxy };
    log(
      `ready: ${this.url} (${this.gateways.length} gateways, ${this.workers.length} workers${this.others.length ? `, ${this.others.map((other) => other.app).join(', ')}` : ''})`,
    );
  }

  private describe(app: string, name: string, port: number): ClusterService {
    return { app, name, port, url: `http://127.0.0.1:${port}`, running: false };
  }

  /** Starts (or restarts) a service and waits for /readyz. */
  async startService(service: ClusterService): Promise<void> {
    const handle = await startService(
      service.app,
      {
        ...this.env,
        PORT: String(service.port),
        HOST: '127.0.0.1',
        SERVICE_NAME: service.app,
        NODE_ENV: this.env['NODE_ENV'],
      },
      { label: service.name, readyTimeoutMs: 120_000 },
    );
    service.handle = handle;
    service.process = handle.process;
    service.running = true;
    this.logs.set(service.name, handle.logs);
    handle.process.once('exit', () => (service.running = false));
  }

  /** kill -9 (a crash) or SIGTERM (a graceful stop) of one service. */
  async killService(service: ClusterService, signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): Promise<void> {
    const child = service.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
    service.running = false;
  }

  /** Kafka broker 1–3: `kill -9`, or start again (same data, no re-format). */
  kafka(action: 'kill' | 'start', broker: 1 | 2 | 3): void {
    run(this.options.scripts.kafka, [action, String(broker)]);
  }

  /** Stops (fast shutdown: connections are cut) or starts this cluster's own PostgreSQL. */
  postgres(action: 'stop' | 'start'): void {
    const { postgres } = this.options;
    run(this.options.scripts.postgres, [action === 'stop' ? 'down' : 'up'], {
      PG_CLUSTER: postgres.cluster,
      PGPORT: String(postgres.port),
    });
  }

  /** A query on the cluster's database (or another database of the same server). */
  async sql<T extends Record<string, unknown>>(
    database: string | undefined,
    text: string,
    values: unknown[] = [],
  ): Promise<T[]> {
    const url = database
      ? (this.adminDatabaseUrl || this.databaseUrl).replace(/\/[^/]+$/, `/${database}`)
      : this.databaseUrl;
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /**
   * Stops the proxy and every service, and with `stop-started` the Kafka cluster and PostgreSQL this
   * cluster started (not those already running before it, e.g. a `make cluster`). Safe to call again
   * and after a failure at any point (a broker killed by a test, PostgreSQL stopped): each step is.
   */
  async stop(options: { infrastructure?: InfrastructureOnStop } = {}): Promise<void> {
    if (this.proxy && this.proxy.process.exitCode === null) this.proxy.process.kill('SIGTERM');
    await Promise.allSettled(this.services.map((service) => service.handle?.stop() ?? Promise.resolve()));
    if (options.infrastructure !== 'stop-started') return;
    const { scripts, postgres, log } = this.options;
    if (this.started.kafka) {
      log('stopping the Kafka cluster it started');
      spawnSync(scripts.kafka, ['down', 'cluster'], { stdio: 'ignore', timeout: 240_000 });
      this.started.kafka = false;
    }
    if (this.started.postgres) {
      log(`stopping PostgreSQL ${postgres.cluster} on ${postgres.port}, which it started`);
      spawnSync(scripts.postgres, ['down'], {
        stdio: 'ignore',
        timeout: 120_000,
        env: { ...process.env, PG_CLUSTER: postgres.cluster, PGPORT: String(postgres.port) },
      });
      this.started.postgres = false;
    }
  }

  /** The last log lines of every process (for failure messages). */
  tail(lines = 20): string {
    return [...this.logs].map(([name, log]) => `--- ${name}\n${log.slice(-lines).join('\n')}`).join('\n');
  }

  private capture(name: string, child: ChildProcess): void {
    const lines: string[] = [];
    this.logs.set(name, lines);
    const add = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(line);
      if (lines.length > 2_000) lines.splice(0, lines.length - 2_000);
    };
    child.stdout?.on('data', add);
    child.stderr?.on('data', add);
  }

  private async waitForKafka(): Promise<void> {
    const { Kafka, logLevel } = await import('kafkajs');
    const admin = new Kafka({
      clientId: 'local-cluster',
      brokers: this.brokers,
      logLevel: logLevel.NOTHING,
    }).admin();
    await waitFor(
      async () => {
        try {
          await admin.connect();
          const cluster = await admin.describeCluster();
          return cluster.brokers.length === 3 && cluster.controller !== null ? true : undefined;
        } catch {
          return undefined;
        }
      },
      120_000,
      'a Kafka cluster of 3 brokers with a controller',
    );
    // A group lookup makes a fresh cluster create its offsets topic now, so services do not all
    // start against a coordinator that is still loading.
    await waitFor(
      () =>
        admin.describeGroups(['local-cluster-warmup']).then(
          () => true,
          () => undefined,
        ),
      120_000,
      'the group coordinator',
    );
    await admin.disconnect();
  }
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
