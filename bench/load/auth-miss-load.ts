/**
 * Load of unknown API keys on the gateway (issue 12): 3,000 distinct keys that no team owns, sent
 * round-robin and each answered 401, at full speed and paced (one round of the keys then takes
 * 20 s, longer than a 15 s cache entry) — against the named baseline of one unknown key sent over
 * and over (the same 401 path, the key always remembered), all driven by autocannon in the same
 * run. The gateway's `quarry_auth_key_lookups_total{source="database"}` says how many requests
 * reached the database. Then a key is used while unknown, created in the database (as the CLI does,
 * from another process) and polled: the time until it works is reported (the negative cache must
 * not hide it for more than about a second).
 *
 *   make build infra-up && SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/load/auth-miss-load.ts [seconds=15] [connections=32] [keys=3000]
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import autocannon from 'autocannon';
import { Client } from 'pg';

import { startCluster } from '../../apps/platform-e2e/src/support/platform';
import { counter } from './prometheus.util';

const seconds = Number(process.argv[2] ?? 15);
const connections = Number(process.argv[3] ?? 32);
const keyCount = Number(process.argv[4] ?? 3_000);
const pacedRate = Math.max(1, Math.round(keyCount / 20));

interface Measure {
  target: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  unauthorized: number;
  other: number;
  databaseLookups: number;
}

async function databaseLookups(gateway: string): Promise<number> {
  const text = await (await fetch(`${gateway}/metrics`)).text();
  return counter(text, 'quarry_auth_key_lookups_total', { source: 'database' });
}

async function measure(
  target: string,
  gateway: string,
  keys: string[],
  pace: { duration: number; overallRate?: number } = { duration: seconds },
): Promise<Measure> {
  let next = 0;
  const before = await databaseLookups(gateway);
  const result = await autocannon({
    url: `${gateway}/v2/team/credit-usage`,
    method: 'GET',
    connections,
    duration: pace.duration,
    ...(pace.overallRate ? { overallRate: pace.overallRate } : {}),
    pipelining: 1,
    requests: [
      {
        setupRequest: (request) => {
          request.headers = { ...request.headers, authorization: `Bearer ${keys[next++ % keys.length]}` };
          return request;
        },
      },
    ],
  });
  const after = await databaseLookups(gateway);
  return {
    target,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    unauthorized: result['4xx'],
    other: result['2xx'] + result.errors + result.timeouts,
    databaseLookups: after - before,
  };
}

/** Uses a key while it is unknown, creates it in the database, and measures how long until it is accepted. */
async function freshKeyDelay(gateway: string, databaseUrl: string): Promise<number> {
  const key = `fc-${randomBytes(24).toString('hex')}`;
  const ask = () => fetch(`${gateway}/v2/team/credit-usage`, { headers: { authorization: `Bearer ${key}` } });
  for (let i = 0; i < 3; i += 1)
    if ((await ask()).status !== 401) throw new Error('an unknown key was accepted');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const [team] = (await client.query<{ id: string }>(`SELECT id FROM teams WHERE name = 'default'`)).rows;
    await client.query('INSERT INTO api_keys (id, team_id, prefix, hash) VALUES ($1, $2, $3, $4)', [
      randomUUID(),
      team.id,
      key.slice(0, 8),
      createHash('sha256').update(key, 'utf8').digest('hex'),
    ]);
  } finally {
    await client.end();
  }
  const created = Date.now();
  while (Date.now() - created < 30_000) {
    if ((await ask()).status === 200) return Date.now() - created;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the new key was not accepted within 30 s');
}

async function main(): Promise<void> {
  const platform = await startCluster({ gateways: 1, workers: 0, env: { RATE_LIMIT_PER_MINUTE: '0' } });
  const gateway = platform.gateways[0].url;
  try {
    const keys = Array.from({ length: keyCount }, () => `fc-${randomBytes(24).toString('hex')}`);
    const baseline = await measure('one unknown key, repeated', gateway, keys.slice(0, 1));
    const ours = await measure(`${keyCount} distinct unknown keys, round-robin`, gateway, keys);
    // Paced so that one round of the keys (20 s) outlasts a 15 s cache entry: each request a lookup, unless remembered longer.
    const others = Array.from({ length: keyCount }, () => `fc-${randomBytes(24).toString('hex')}`);
    const paced = await measure(`${keyCount} other unknown keys at ${pacedRate} req/s`, gateway, others, {
      duration: 40,
      overallRate: pacedRate,
    });
    const delays: number[] = [];
    for (let i = 0; i < 5; i += 1) delays.push(await freshKeyDelay(gateway, platform.database?.url ?? ''));
    process.stdout.write(`\nunknown-key load, ${seconds} s per target, ${connections} connections\n`);
    process.stdout.write(
      `${'target'.padEnd(48)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'401s'.padStart(8)} ${'other'.padStart(6)} ${'db lookups'.padStart(11)}\n`,
    );
    for (const row of [baseline, ours, paced])
      process.stdout.write(
        `${row.target.padEnd(48)} ${String(row.requestsPerSecond).padStart(8)} ${String(row.p50Ms).padStart(8)} ${String(row.p99Ms).padStart(8)} ${String(row.unauthorized).padStart(8)} ${String(row.other).padStart(6)} ${String(row.databaseLookups).padStart(11)}\n`,
      );
    process.stdout.write(
      `distinct / repeated throughput: ${(ours.requestsPerSecond / Math.max(1, baseline.requestsPerSecond)).toFixed(3)}\n`,
    );
    process.stdout.write(`a key created after it was refused works after: ${delays.join(', ')} ms\n`);
    const results = join(__dirname, '../results');
    mkdirSync(results, { recursive: true });
    writeFileSync(
      join(results, 'auth-miss-load.local.json'),
      `${JSON.stringify({ date: new Date().toISOString(), seconds, connections, keyCount, rows: [baseline, ours, paced], freshKeyDelaysMs: delays }, null, 2)}\n`,
    );
  } finally {
    await platform.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
