/**
 * Load on the gateway: cache-hit scrapes — the same page scraped over and over, every repeat
 * answered from the scrape cache at the gateway (no bus, no worker; the hit is recorded as a job
 * and billed) — against the named baseline of a bare Fastify route returning the same JSON, both
 * driven by autocannon, in the same run, with the same settings.
 *
 * It measures cache hits or nothing: the run fails when the warm-up answer is not a hit
 * (`metadata.cacheState === 'hit'`), and when the gateway's own counters show that any measured
 * request missed the cache or published a scrape job (`quarry_cache_lookups_total`,
 * `quarry_jobs_queued_total{kind="scrape"}` before and after), or answered other than 2xx.
 *
 * Measured in the cluster (one gateway process, Kafka, PostgreSQL) and in the one-process mode (memory
 * bus, PGlite), each torn down before the next; the baseline runs last, alone.
 *
 *   make build infra-up && SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/load/scrape-load.ts [seconds=15] [connections=32] [cluster,standalone]
 *
 * BENCH_QUICK=1: 2 s per target. BENCH_PROFILE_DIR=<dir>: the measured gateway / one-process server
 * writes a V8 CPU profile of the measured window there, `<pid>-2.cpuprofile` (summarise with
 * bench/support/profile-summary.ts; bench/support/cpu-profile.preload.cjs).
 * In the cluster, PostgreSQL statements and transactions per request are counted from
 * pg_stat_database (xact_commit) and pg_stat_user_tables (rows inserted, updated, fetched).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import autocannon from 'autocannon';
import { Client } from 'pg';

import { startBasicSite } from '@quarry/testing';

import { type Platform, startCluster, startStandalone } from '../../apps/platform-e2e/src/support/platform';
import { profilerEnv } from '../support/cpu-profile.util';
import { emitResult, QUICK, row } from '../support/result.util';
import { counter } from './prometheus.util';

const seconds = Number(process.argv[2] ?? (QUICK ? 2 : 15));
const connections = Number(process.argv[3] ?? 32);
/** Deployments measured, in order: `cluster` (one gateway, Kafka, PostgreSQL) and `standalone` (one process). */
const modes = (process.argv[4] ?? 'cluster,standalone').split(',') as Mode[];

interface Measure {
  target: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
}

async function measure(
  target: string,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<Measure> {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    connections,
    duration: seconds,
    pipelining: 1,
  });
  return {
    target,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** The gateway's cache and queue counters. */
async function gatewayCounters(gateway: string): Promise<{ hits: number; misses: number; queued: number }> {
  const text = await (await fetch(`${gateway}/metrics`)).text();
  return {
    hits: counter(text, 'quarry_cache_lookups_total', { result: 'hit' }),
    misses: counter(text, 'quarry_cache_lookups_total', { result: 'miss' }),
    queued: counter(text, 'quarry_jobs_queued_total', { kind: 'scrape' }),
  };
}

/** Fills the cache, checks the repeat is a hit, and returns the hit's answer. */
async function warmCache(gateway: string, headers: Record<string, string>, request: string): Promise<string> {
  // The first request scrapes and fills the cache; the repeats must be answered from it.
  for (let i = 0; i < 2; i += 1)
    await fetch(`${gateway}/v2/scrape`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: request,
    });
  const sample = await fetch(`${gateway}/v2/scrape`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: request,
  });
  const answer = await sample.text();
  const cacheState = (JSON.parse(answer) as { data?: { metadata?: { cacheState?: string } } }).data?.metadata
    ?.cacheState;
  if (sample.status !== 200 || cacheState !== 'hit') {
    throw new Error(
      `the repeat scrape is not a cache hit (HTTP ${sample.status}, metadata.cacheState=${String(cacheState)}): refusing to measure uncached round trips`,
    );
  }
  return answer;
}

/** Measures cache hits on one deployment and verifies with its counters that every measured request was one. */
async function measureHits(
  mode: Mode,
  platform: Platform,
  request: string,
): Promise<{ measure: Measure; verified: Record<string, number>; answer: string }> {
  const gateway = platform.gateways[0].url;
  const headers = { authorization: `Bearer ${platform.apiKey}` };
  const answer = await warmCache(gateway, headers, request);
  process.stdout.write(`measuring ${mode}: pid ${platform.gateways[0].process.pid}\n`);
  const database = platform.database;
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const databaseBefore = database ? await databaseActivity(database.url, database.name) : undefined;
  const before = await gatewayCounters(gateway);
  const pid = platform.gateways[0].process.pid;
  const cpuBefore = processCpuMs(pid);
  const profiled = process.env['BENCH_PROFILE_DIR'] ? platform.gateways[0].process : undefined;
  profiled?.kill('SIGWINCH'); // profile 1: start-up and warm-up; profile 2: the measured window
  const ours = await measure(
    `${mode === 'cluster' ? 'cluster gateway' : 'one process'}: cache hit (no bus, no worker)`,
    `${gateway}/v2/scrape`,
    headers,
    request,
  );
  profiled?.kill('SIGWINCH');
  const cpuAfter = processCpuMs(pid);
  const after = await gatewayCounters(gateway);
  let perRequest: Record<string, number> | undefined;
  if (database && databaseBefore) {
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const databaseAfter = await databaseActivity(database.url, database.name);
    // Per request the gateway answered (its own hit counter: autocannon may have given up on some).
    const answered = Math.max(1, after.hits - before.hits);
    const per = (key: keyof DatabaseActivity) =>
      Math.round((100 * (databaseAfter[key] - databaseBefore[key])) / answered) / 100;
    // Includes background work of the gateway and the idle worker in the window (and our two statistics reads).
    perRequest = {
      transactions: per('transactions'),
      rowsInserted: per('inserted'),
      rowsUpdated: per('updated'),
      indexScans: per('indexScans'),
    };
    process.stdout.write(`PostgreSQL per cache-hit request (${mode}): ${JSON.stringify(perRequest)}\n`);
  }
  const measured = {
    hits: after.hits - before.hits,
    misses: after.misses - before.misses,
    queued: after.queued - before.queued,
  };
  // Every measured request a hit: no miss, no scrape job published, every answer 2xx (autocannon may
  // abandon a few requests at the end of the run, which the gateway may still have answered).
  if (
    ours.ok === 0 ||
    measured.misses > 0 ||
    measured.queued > 0 ||
    ours.non2xx > 0 ||
    ours.errors > 0 ||
    measured.hits < ours.ok
  ) {
    throw new Error(
      `${mode}: not every measured request was a cache hit: ${JSON.stringify({ ...measured, answered2xx: ours.ok, non2xx: ours.non2xx, errors: ours.errors })}`,
    );
  }
  process.stdout.write(
    `verified (${mode}): ${measured.hits} cache hits for ${ours.ok} 2xx answers, 0 misses, 0 scrape jobs published\n`,
  );
  // CPU of the measured process per answered hit: steadier than req/s on a machine shared with other work.
  const cpuPerHitMs =
    cpuBefore !== undefined && cpuAfter !== undefined
      ? Math.round((1000 * (cpuAfter - cpuBefore)) / Math.max(1, measured.hits)) / 1000
      : undefined;
  if (cpuPerHitMs !== undefined)
    process.stdout.write(`${mode} process CPU per cache hit: ${cpuPerHitMs} ms (user + system)\n`);
  return {
    measure: ours,
    verified: {
      ...measured,
      ...(cpuPerHitMs !== undefined ? { process_cpu_ms_per_hit: cpuPerHitMs } : {}),
      ...(perRequest
        ? Object.fromEntries(
            Object.entries(perRequest).map(([key, value]) => [`postgres_${key}_per_request`, value]),
          )
        : {}),
    },
    answer,
  };
}

type Mode = 'cluster' | 'standalone';

/** User + system CPU time of a process so far (Linux /proc), in ms; undefined elsewhere. */
function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime), counted from the state field (3) after the command.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

interface DatabaseActivity {
  transactions: number;
  inserted: number;
  updated: number;
  indexScans: number;
}

/** Transactions committed and row activity in our test database (cluster mode: PostgreSQL on the host). */
async function databaseActivity(url: string, name: string): Promise<DatabaseActivity> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    // Statistics are flushed by each backend at most once a second, and read through a snapshot.
    await client.query('SELECT pg_stat_clear_snapshot()');
    const database = await client.query<{ xact_commit: string }>(
      'SELECT xact_commit FROM pg_stat_database WHERE datname = $1',
      [name],
    );
    const tables = await client.query<{ ins: string; upd: string; idx: string }>(
      'SELECT COALESCE(SUM(n_tup_ins), 0) AS ins, COALESCE(SUM(n_tup_upd), 0) AS upd, COALESCE(SUM(idx_scan), 0) AS idx FROM pg_stat_user_tables',
    );
    return {
      transactions: Number(database.rows[0]?.xact_commit ?? 0),
      inserted: Number(tables.rows[0]?.ins ?? 0),
      updated: Number(tables.rows[0]?.upd ?? 0),
      indexScans: Number(tables.rows[0]?.idx ?? 0),
    };
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const site = await startBasicSite();
  const request = JSON.stringify({ url: `${site.url}/article`, formats: ['markdown'], maxAge: 3_600_000 });
  const env: Record<string, string> = { RATE_LIMIT_PER_MINUTE: '0', ...profilerEnv() };
  const ours: Measure[] = [];
  const verified: Record<string, Record<string, number>> = {};
  let answer = '';
  try {
    for (const mode of modes) {
      const platform =
        mode === 'cluster'
          ? await startCluster({ gateways: 1, workers: 1, env, readyTimeoutMs: 300_000 })
          : await startStandalone(env, { readyTimeoutMs: 300_000 });
      try {
        const result = await measureHits(mode, platform, request);
        answer ||= result.answer;
        ours.push(result.measure);
        verified[mode] = result.verified;
      } finally {
        await platform.stop();
      }
    }
  } finally {
    await site.close();
  }

  // The baseline: a bare Fastify route answering the same JSON, measured after ours (nothing else running).
  const bodyFile = join(tmpdir(), `quarry-load-body-${process.pid}.json`);
  writeFileSync(bodyFile, answer);
  const bare = spawn(process.execPath, [join(__dirname, 'bare-fastify.cjs'), bodyFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let baseline: Measure;
  try {
    const bareUrl = await new Promise<string>((resolve) =>
      bare.stdout.once('data', (chunk: Buffer) =>
        resolve((JSON.parse(chunk.toString()) as { url: string }).url),
      ),
    );
    baseline = await measure('bare Fastify route, same JSON', `${bareUrl}/v2/scrape`, {}, request);
  } finally {
    bare.kill('SIGTERM');
  }
  const rows = [baseline, ...ours];
  process.stdout.write(
    `\nscrape load, ${seconds} s per target, ${connections} connections, ${answer.length} B responses\n`,
  );
  process.stdout.write(
    `${'target'.padEnd(60)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'non-2xx'.padStart(8)}\n`,
  );
  for (const entry of rows)
    process.stdout.write(
      `${entry.target.padEnd(60)} ${String(entry.requestsPerSecond).padStart(8)} ${String(entry.p50Ms).padStart(8)} ${String(entry.p99Ms).padStart(8)} ${String(entry.non2xx + entry.errors).padStart(8)}\n`,
    );
  for (const [index, mode] of modes.entries())
    process.stdout.write(
      `${mode} / baseline throughput: ${(ours[index].requestsPerSecond / Math.max(1, baseline.requestsPerSecond)).toFixed(3)}\n`,
    );
  const results = join(__dirname, '../results');
  mkdirSync(results, { recursive: true });
  writeFileSync(
    join(results, 'scrape-load.local.json'),
    `${JSON.stringify({ date: new Date().toISOString(), seconds, connections, verified, rows }, null, 2)}\n`,
  );
  emitResult(
    'gateway',
    modes.flatMap((mode, index) => [
      row({
        metric: `cache-hit scrapes req/s, ${connections} connections, ${mode === 'cluster' ? 'cluster gateway' : 'one process'}`,
        ours: ours[index].requestsPerSecond,
        baseline: baseline.requestsPerSecond,
        baselineName: 'bare Fastify route, same JSON',
        unit: 'req/s',
        comparison: 'ratio',
        target: { op: '>=', value: 0.25 },
        note: `p50 ${ours[index].p50Ms} ms vs ${baseline.p50Ms} ms`,
      }),
      row({
        metric: `cache-hit scrapes p99, ${connections} connections, ${mode === 'cluster' ? 'cluster gateway' : 'one process'}`,
        ours: ours[index].p99Ms,
        baseline: baseline.p99Ms,
        baselineName: 'bare Fastify route, same JSON',
        unit: 'ms',
        comparison: 'value',
        target: { op: '<=', value: 50 },
      }),
    ]),
    { seconds, connections, responseBytes: answer.length, verified, rows },
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
