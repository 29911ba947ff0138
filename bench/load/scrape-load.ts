/**
 * Load on the gateway: the same page scraped over and over (answered from the scrape cache at the
 * gateway when the cache exists, else the full round trip gateway → Kafka → worker → PostgreSQL →
 * job event), against the named baseline of a bare Fastify route returning the same JSON — both
 * driven by autocannon, in the same run, with the same settings.
 *
 *   make build infra-up && SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/load/scrape-load.ts [seconds=15] [connections=32]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startBasicSite } from '@quarry/testing';
import { startCluster } from '../../apps/platform-e2e/src/support/platform';

const seconds = Number(process.argv[2] ?? 15);
const connections = Number(process.argv[3] ?? 32);

interface Measure {
  target: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

async function measure(target: string, url: string, headers: Record<string, string>, body: string): Promise<Measure> {
  const result = await autocannon({ url, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, connections, duration: seconds, pipelining: 1 });
  return {
    target,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function main(): Promise<void> {
  const site = await startBasicSite();
  const platform = await startCluster({ gateways: 1, workers: 1, env: { RATE_LIMIT_PER_MINUTE: '0' } });
  const gateway = platform.gateways[0].url;
  const request = JSON.stringify({ url: `${site.url}/article`, formats: ['markdown'], maxAge: 3_600_000 });
  const headers = { authorization: `Bearer ${platform.apiKey}` };
  try {
    // Two requests: the first fills the cache (where there is one); the second shows which path repeats take.
    for (let i = 0; i < 2; i += 1) await fetch(`${gateway}/v2/scrape`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: request });
    const sample = await fetch(`${gateway}/v2/scrape`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: request });
    const answer = await sample.text();
    const cacheState = (JSON.parse(answer) as { data?: { metadata?: { cacheState?: string } } }).data?.metadata?.cacheState;
    const path = cacheState === 'hit' ? 'cache hit at the gateway (no bus, no worker)' : 'repeat scrape without cache (gateway → Kafka → worker → PostgreSQL → job event)';

    const bodyFile = join(tmpdir(), `quarry-load-body-${process.pid}.json`);
    writeFileSync(bodyFile, answer);
    const bare = spawn(process.execPath, [join(__dirname, 'bare-fastify.cjs'), bodyFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    const bareUrl = await new Promise<string>((resolve) => bare.stdout.once('data', (chunk: Buffer) => resolve((JSON.parse(chunk.toString()) as { url: string }).url)));
    try {
      const baseline = await measure('bare Fastify route, same JSON', `${bareUrl}/v2/scrape`, {}, request);
      const ours = await measure(`gateway: ${path}`, `${gateway}/v2/scrape`, headers, request);
      const rows = [baseline, ours];
      process.stdout.write(`\nscrape load, ${seconds} s per target, ${connections} connections, ${answer.length} B responses\n`);
      process.stdout.write(`${'target'.padEnd(100)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'non-2xx'.padStart(8)}\n`);
      for (const row of rows) process.stdout.write(`${row.target.padEnd(100)} ${String(row.requestsPerSecond).padStart(8)} ${String(row.p50Ms).padStart(8)} ${String(row.p99Ms).padStart(8)} ${String(row.non2xx + row.errors).padStart(8)}\n`);
      const ratio = ours.requestsPerSecond / Math.max(1, baseline.requestsPerSecond);
      process.stdout.write(`gateway / baseline throughput: ${ratio.toFixed(3)} (${(1 / Math.max(ratio, 1e-9)).toFixed(1)}x slower)\n`);
      const results = join(__dirname, '../results');
      mkdirSync(results, { recursive: true });
      writeFileSync(join(results, 'scrape-load.local.json'), `${JSON.stringify({ date: new Date().toISOString(), seconds, connections, path, rows, ratio }, null, 2)}\n`);
    } finally {
      bare.kill('SIGTERM');
    }
  } finally {
    await platform.stop();
    await site.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
