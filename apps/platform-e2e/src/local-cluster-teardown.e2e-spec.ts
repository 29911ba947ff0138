import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { TEST_DATABASE_URL } from '@quarry/testing';

import { LocalCluster } from './support/local-cluster';
import { REPO_ROOT } from './support/service-process';

/**
 * The teardown of the fault suite's cluster and of `.ci/run`, run for real with stand-in
 * infrastructure scripts that record their calls (the real ones would start three Kafka brokers,
 * which `make test-faults` itself does): whatever they started is stopped, also when starting or a
 * test fails, and nothing that was running before them.
 */
describe('teardown of the local cluster and of CI', () => {
  let dir: string;
  const calls = () => readFileSync(join(dir, 'calls.log'), 'utf8').trim().split('\n').filter(Boolean);

  /** A stand-in script: records `<label> <arguments>` (label: `$PG_CLUSTER:$PGPORT` by default), then runs `body`. */
  const stub = (name: string, body: string, label = '${PG_CLUSTER:-}:${PGPORT:-}') => {
    const path = join(dir, name);
    writeFileSync(path, `#!/usr/bin/env bash\necho "${label} $*" >> "$(dirname "$0")/calls.log"\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  };
  const open = (port: number) =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  const listen = (port: number) =>
    new Promise<Server>((resolve, reject) => {
      const server = createServer((socket) => socket.destroy());
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
  const free = async () => {
    const server = await listen(0);
    const port = (server.address() as { port: number }).port;
    await new Promise((resolve) => server.close(resolve));
    return port;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-teardown-'));
    writeFileSync(join(dir, 'calls.log'), '');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stops the Kafka cluster and PostgreSQL it started when starting fails half-way', async () => {
    const port = await free();
    const scripts = {
      postgres: stub('postgres.sh', `[ "$1" = up ] && echo "${TEST_DATABASE_URL}"; exit 0`),
      kafka: stub('kafka.sh', '[ "$1" = up ] && exit 1; exit 0'),
    };
    await expect(
      LocalCluster.start({ postgres: { cluster: 'teardown-test', port }, databaseName: 'quarry', scripts }),
    ).rejects.toThrow(/kafka\.sh up cluster failed/);
    expect(calls()).toEqual([
      `teardown-test:${port} up`,
      ': up cluster',
      ': down cluster',
      `teardown-test:${port} down`,
    ]);
  });

  it('leaves a Kafka cluster that was already running alone, and stops only what it started', async () => {
    const port = await free();
    const brokers = await Promise.all([19092, 19192, 19292].map(listen)).catch(() => undefined);
    if (!brokers)
      throw new Error('ports 19092, 19192 and 19292 are taken: is a local cluster (make cluster) running?');
    try {
      const scripts = {
        postgres: stub('postgres.sh', `[ "$1" = up ] && echo "${TEST_DATABASE_URL}"; exit 0`),
        kafka: stub('kafka.sh', '[ "$1" = up ] && exit 1; exit 0'),
      };
      await expect(
        LocalCluster.start({ postgres: { cluster: 'teardown-test', port }, databaseName: 'quarry', scripts }),
      ).rejects.toThrow();
      expect(calls()).toEqual([`teardown-test:${port} up`, ': up cluster', `teardown-test:${port} down`]);
    } finally {
      await Promise.all(brokers.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });

  /**
   * Runs .ci/run with stand-ins for make and the infrastructure scripts; `interrupt` sends SIGINT to
   * its process group (as Ctrl-C does) while `make test-faults` runs.
   */
  const ciRun = (make: string, interrupt = false) =>
    new Promise<number | null>((resolve) => {
      stub('kafka.sh', 'exit 0');
      stub('postgres.sh', 'exit 0');
      stub('make', make, 'make');
      const child = spawn(join(REPO_ROOT, '.ci/run'), {
        // the stand-in `make` comes first on PATH
        env: { PATH: `${dir}:${process.env['PATH'] ?? ''}`, QUARRY_INFRA_DIR: dir },
        stdio: 'ignore',
        detached: true,
      });
      if (interrupt)
        setTimeout(() => {
          if (child.pid) process.kill(-child.pid, 'SIGINT');
        }, 2_000);
      child.on('exit', (code) => resolve(code));
    });
  /** What .ci/run must stop: the infrastructure that was not running before it (here the shared 5432 and 9092 usually are). */
  const expectedStops = async () => {
    const stops: string[] = [];
    if (!(await open(19092))) stops.push(': down cluster');
    if (!(await open(25432))) stops.push('quarry-faults:25432 down');
    if (!(await open(9092))) stops.push(': down single');
    if (!(await open(5432))) stops.push(': down');
    return stops;
  };

  it('.ci/run stops what it started after make test-faults fails, and keeps its exit status', async () => {
    const stops = await expectedStops();
    const status = await ciRun('[ "$1" = test-faults ] && exit 2; exit 0');
    expect(status).toBe(2);
    expect(calls()).toEqual(['make test', 'make test-faults', ...stops]);
  });

  it('.ci/run stops what it started when it is interrupted', async () => {
    const stops = await expectedStops();
    const status = await ciRun('[ "$1" = test-faults ] && sleep 30; exit 0', true);
    expect(status).toBe(130);
    expect(calls()).toEqual(['make test', 'make test-faults', ...stops]);
  });

  it('.ci/run stops nothing that was running before it', async () => {
    const listeners = await Promise.all([19092, 25432].map(listen)).catch(() => undefined);
    if (!listeners)
      throw new Error('ports 19092 or 25432 are taken: is a local cluster (make cluster) running?');
    try {
      const status = await ciRun('exit 0');
      expect(status).toBe(0);
      expect(calls()).toEqual(['make test', 'make test-faults', ...(await expectedStops())]);
      expect(calls().some((line) => line.includes('down cluster') || line.startsWith('quarry-faults'))).toBe(
        false,
      );
    } finally {
      await Promise.all(listeners.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });
});
