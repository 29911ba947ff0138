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

/** Sum of the samples of a counter in a Prometheus exposition whose labels include `labels`. */
function counter(exposition: string, name: string, labels: Record<string, string>): number {
  let total = 0;
  for (const line of exposition.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) total += Number(match[3]);
  }
  return total;
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

async function main(): Promise<void> {
  const site = await startBasicSite();
  const platform = await startCluster({ gateways: 1, workers: 1, env: { RATE_LIMIT_PER_MINUTE: '0' } });
  const gateway = platform.gateways[0].url;
  const request = JSON.stringify({ url: `${site.url}/article`, formats: ['markdown'], maxAge: 3_600_000 });
  const headers = { authorization: `Bearer ${platform.apiKey}` };
  try {
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
    const cacheState = (JSON.parse(answer) as { data?: { metadata?: { cacheState?: string } } }).data
      ?.metadata?.cacheState;
    if (sample.status !== 200 || cacheState !== 'hit') {
      throw new Error(
        `the repeat scrape is not a cache hit (HTTP ${sample.status}, metadata.cacheState=${String(cacheState)}): refusing to measure uncached round trips`,
      );
    }
    const path = 'cache hit at the gateway (no bus, no worker)';

    const bodyFile = join(tmpdir(), `quarry-load-body-${process.pid}.json`);
    writeFileSync(bodyFile, answer);
    const bare = spawn(process.execPath, [join(__dirname, 'bare-fastify.cjs'), bodyFile], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const bareUrl = await new Promise<string>((resolve) =>
      bare.stdout.once('data', (chunk: Buffer) =>
        resolve((JSON.parse(chunk.toString()) as { url: string }).url),
      ),
    );
    try {
      const baseline = await measure('bare Fastify route, same JSON', `${bareUrl}/v2/scrape`, {}, request);
      const before = await gatewayCounters(gateway);
      const ours = await measure(`gateway: ${path}`, `${gateway}/v2/scrape`, headers, request);
      const after = await gatewayCounters(gateway);
      const measured = {
        hits: after.hits - before.hits,
        misses: after.misses - before.misses,
        queued: after.queued - before.queued,
      };
      // Every measured request a hit: no miss, no scrape job published, every answer 2xx (autocannon may
      // abandon a few requests at the end of the run, which the gateway may still have answered).
      if (
        measured.misses > 0 ||
        measured.queued > 0 ||
        ours.non2xx > 0 ||
        ours.errors > 0 ||
        measured.hits < ours.ok
      ) {
        throw new Error(
          `not every measured request was a cache hit: ${JSON.stringify({ ...measured, answered2xx: ours.ok, non2xx: ours.non2xx, errors: ours.errors })}`,
        );
      }
      process.stdout.write(
        `\nverified: ${measured.hits} cache hits at the gateway for ${ours.ok} 2xx answers, 0 misses, 0 scrape jobs published\n`,
      );
      const rows = [baseline, ours];
      process.stdout.write(
        `\nscrape load, ${seconds} s per target, ${connections} connections, ${answer.length} B responses\n`,
      );
      process.stdout.write(
        `${'target'.padEnd(100)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'non-2xx'.padStart(8)}\n`,
      );
      for (const row of rows)
        process.stdout.write(
          `${row.target.padEnd(100)} ${String(row.requestsPerSecond).padStart(8)} ${String(row.p50Ms).padStart(8)} ${String(row.p99Ms).padStart(8)} ${String(row.non2xx + row.errors).padStart(8)}\n`,
        );
      const ratio = ours.requestsPerSecond / Math.max(1, baseline.requestsPerSecond);
      process.stdout.write(
        `gateway / baseline throughput: ${ratio.toFixed(3)} (${(1 / Math.max(ratio, 1e-9)).toFixed(1)}x slower)\n`,
      );
      const results = join(__dirname, '../results');
      mkdirSync(results, { recursive: true });
      writeFileSync(
        join(results, 'scrape-load.local.json'),
        `${JSON.stringify({ date: new Date().toISOString(), seconds, connections, path, verified: measured, rows, ratio }, null, 2)}\n`,
      );
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
