/**
 * Our side of the crawl benchmark: the built services crawl the benchmark site through the public
 * API, exactly as a client would. `node -r @swc-node/register bench/crawl/quarry-run.ts <url> <concurrency> <standalone|cluster> [workers=1]`
 * (cluster: one gateway and `workers` scrape-worker processes on the shared Kafka broker and PostgreSQL)
 * prints `{pages, seconds, cpuSeconds, markdownPages}` (CPU of our service processes and their content
 * worker processes; PostgreSQL's backends are measured separately, Kafka is not counted).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openSync, readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';

import { Client } from 'pg';

import { dropDatabase } from '@quarry/testing';

import { treeCpuSeconds } from '../support/result.util';

const ROOT = join(__dirname, '../..');
const DATABASE = process.env['TEST_DATABASE_URL'] ?? 'postgresql://quarry:quarry@127.0.0.1:5432/quarry';
const BROKERS = process.env['TEST_KAFKA_BROKERS'] ?? '127.0.0.1:9092';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 10 ms
}

async function start(app: string, env: Record<string, string>, port: number): Promise<ChildProcess> {
  // BENCH_PROFILE_DIR=<dir> writes a V8 CPU profile of every service process (node --cpu-prof).
  const profile = process.env['BENCH_PROFILE_DIR']
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_PROFILE_DIR']}`]
    : [];
  const child = spawn(process.execPath, [...profile, join(ROOT, 'dist/apps', app, 'main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    // BENCH_LOG=<file> keeps the services' logs for diagnosis.
    stdio: [
      'ignore',
      process.env['BENCH_LOG'] ? openSync(process.env['BENCH_LOG'], 'a') : 'ignore',
      'inherit',
    ],
  });
  const deadline = Date.now() + 300_000; // a loaded machine starts services slowly
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${app} exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL'); // not yet in the caller's list: nothing else would stop it
      throw new Error(`${app} not ready`);
    }
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return child;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/**
 * CPU used by the PostgreSQL backends serving our database (same host), an approximation: backends
 * that exited during the run are not counted.
 */
async function backendCpuSeconds(database: string): Promise<number | null> {
  const client = new Client({ connectionString: DATABASE });
  await client.connect();
  try {
    const rows = (
      await client.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [
        database,
      ])
    ).rows as { pid: number }[];
    let total = 0;
    for (const row of rows) {
      try {
        total += cpuSecondsOf(row.pid);
      } catch {
        return null; // PostgreSQL runs elsewhere
      }
    }
    return total;
  } finally {
    await client.end();
  }
}

interface DatabaseWork {
  transactions: number;
  rowsInserted: number;
  rowsUpdated: number;
  rowsDeleted: number;
}

/**
 * Committed transactions and rows written in our database so far (pg_stat_database, all backends).
 * Backends report their counters when idle, at most once a second: read it after a pause.
 */
async function databaseWork(database: string): Promise<DatabaseWork> {
  const client = new Client({ connectionString: DATABASE });
  await client.connect();
  try {
    const rows = (
      await client.query(
        `SELECT xact_commit AS transactions, tup_inserted AS "rowsInserted", tup_updated AS "rowsUpdated",
                tup_deleted AS "rowsDeleted"
         FROM pg_stat_database WHERE datname = $1`,
        [database],
      )
    ).rows as Record<keyof DatabaseWork, string>[];
    const row = rows[0];
    return {
      transactions: Number(row?.transactions ?? 0),
      rowsInserted: Number(row?.rowsInserted ?? 0),
      rowsUpdated: Number(row?.rowsUpdated ?? 0),
      rowsDeleted: Number(row?.rowsDeleted ?? 0),
    };
  } finally {
    await client.end();
  }
}

const STATS_FLUSH_MS = 1_500;

/** Waits until every stored document has its search vector (at most five minutes). */
async function waitForSearchIndex(database: string): Promise<void> {
  const client = new Client({ connectionString: database });
  await client.connect();
  try {
    const deadline = Date.now() + 300_000;
    for (;;) {
      const rows = (await client.query(`SELECT count(*) AS n FROM documents WHERE search IS NULL`)).rows as {
        n: string;
      }[];
      if (Number(rows[0]?.n ?? 0) === 0 || Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const [siteUrl, concurrencyText, mode, workersText] = process.argv.slice(2);
  const workers = Math.max(1, Number(workersText ?? 1));
  const concurrency = Number(concurrencyText);
  const name = `quarry_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: DATABASE });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(DATABASE);
  url.pathname = `/${name}`;
  const apiKey = `fc-${randomBytes(16).toString('hex')}`;
  const env: Record<string, string> = {
    DATABASE_URL: url.toString(),
    BOOTSTRAP_API_KEY: apiKey,
    ALLOW_PRIVATE_NETWORKS: 'true',
    TEAM_CONCURRENCY_LIMIT: String(concurrency),
    CRAWL_WORKER_CONCURRENCY: String(concurrency),
    WORKER_CONCURRENCY: String(concurrency),
    RATE_LIMIT_PER_MINUTE: '0',
    DATA_DIR: `/tmp/${name}`,
  };
  if (mode === 'cluster')
    Object.assign(env, { BUS_DRIVER: 'kafka', KAFKA_BROKERS: BROKERS, BUS_TOPIC_PREFIX: `${name}.` });
  else env['BUS_DRIVER'] = 'memory';
  const processes: ChildProcess[] = [];
  try {
    const port = await freePort();
    processes.push(await start(mode === 'cluster' ? 'gateway' : 'standalone', env, port));
    if (mode === 'cluster')
      for (let worker = 0; worker < workers; worker += 1)
        processes.push(
          await start('scrape-worker', { ...env, DATABASE_MIGRATE_ON_START: 'false' }, await freePort()),
        );
    const api = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    await new Promise((resolve) => setTimeout(resolve, STATS_FLUSH_MS));
    const workBefore = await databaseWork(name);
    const cpuBefore = processes.reduce((sum, child) => sum + treeCpuSeconds(child.pid as number), 0);
    const started = performance.now();
    const response = await fetch(`${api}/v2/crawl`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        url: `${siteUrl}/`,
        limit: 10_000,
        sitemap: 'skip',
        maxConcurrency: concurrency,
        scrapeOptions: { formats: ['markdown'], maxAge: 0 },
      }),
    });
    const { id } = (await response.json()) as { id: string };
    let status: { status: string; completed: number } = { status: 'scraping', completed: 0 };
    while (status.status === 'scraping') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await (await fetch(`${api}/v2/crawl/${id}?limit=1`, { headers })).json()) as typeof status;
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuSeconds =
      processes.reduce((sum, child) => sum + treeCpuSeconds(child.pid as number), 0) - cpuBefore;
    const postgresCpuSeconds = await backendCpuSeconds(name);
    // What the crawl asked of PostgreSQL per stored page (the search indexing after it not included):
    // the write load that grows with the crawl rate whatever the number of workers.
    await new Promise((resolve) => setTimeout(resolve, STATS_FLUSH_MS));
    const workAfter = await databaseWork(name);
    const perPage = (key: keyof DatabaseWork) =>
      Math.round(((workAfter[key] - workBefore[key]) / Math.max(1, status.completed)) * 100) / 100;
    const postgresPerPage = {
      transactions: perPage('transactions'),
      rowsInserted: perPage('rowsInserted'),
      rowsUpdated: perPage('rowsUpdated'),
      rowsDeleted: perPage('rowsDeleted'),
    };
    let markdownPages = 0;
    for (let skip = 0; skip < status.completed; skip += 100) {
      const page = (await (
        await fetch(`${api}/v2/crawl/${id}?skip=${skip}&limit=100`, { headers })
      ).json()) as { data: { markdown?: string }[] };
      markdownPages += page.data.filter((document) => (document.markdown ?? '').length > 200).length;
    }
    // Search vectors are computed off the write path (docs/crawl.md "Search"): the work is counted
    // after the crawl, once the indexer has caught up.
    const cpuAtEnd = processes.reduce((sum, child) => sum + treeCpuSeconds(child.pid as number), 0);
    const indexStarted = performance.now();
    await waitForSearchIndex(url.toString());
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    const postgresAfterIndex = await backendCpuSeconds(name);
    const indexCpuSeconds =
      processes.reduce((sum, child) => sum + treeCpuSeconds(child.pid as number), 0) -
      cpuAtEnd +
      (postgresAfterIndex !== null && postgresCpuSeconds !== null
        ? postgresAfterIndex - postgresCpuSeconds
        : 0);
    process.stdout.write(
      `${JSON.stringify({ status: status.status, pages: status.completed, seconds, cpuSeconds, postgresCpuSeconds, postgresPerPage, markdownPages, indexSeconds, indexCpuSeconds })}\n`,
    );
  } finally {
    await Promise.all(processes.map(stop));
    if (process.env['BENCH_KEEP_DB']) process.stderr.write(`kept database ${name}\n`);
    else await dropDatabase(DATABASE, name);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
