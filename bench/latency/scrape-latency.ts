/**
 * End-to-end scrape latency through Kafka (gateway → scrape.jobs → worker → PostgreSQL → job.events
 * → gateway) and through the one-process mode (in-memory bus, PGlite), against the baseline of
 * calling the same pipeline in-process, on the same fixture page, in the same run.
 *
 *   make build infra-up && node -r @swc-node/register bench/latency/scrape-latency.ts [requests=200]
 *
 * BENCH_QUICK=1: 20 requests. The table adds the CPU (user + system) of the measured server processes
 * per request (gateway and worker in the cluster, the one process), steadier than latency on a shared machine.
 * BENCH_PROFILE_DIR=<dir>: V8 profiles of the gateway and worker (cluster) and the one process, the
 * measured requests in <pid>-2.cpuprofile (bench/support/profile-summary.ts).
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import { scrapeRequestSchema } from '@quarry/contracts';
import { AddressPolicy, GuardedHttpClient } from '@quarry/platform/net';
import { HttpEngine, PipelineExtensions, ScrapePipeline } from '@quarry/scrape/engine';
import { BASIC_SITE, startBasicSite } from '@quarry/testing';

import { type Platform, startCluster, startStandalone } from '../../apps/platform-e2e/src/support/platform';
import { profilerEnv } from '../support/cpu-profile.util';
import { emitResult, QUICK, row } from '../support/result.util';

const requests = Number(process.argv[2] ?? (QUICK ? 20 : 200));

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
  };
}

/** User + system CPU of the platform's processes so far (Linux /proc), in ms; 0 where unreadable. */
function platformCpuMs(platform: Platform): number {
  let total = 0;
  for (const service of [...platform.gateways, ...platform.workers]) {
    try {
      const stat = readFileSync(`/proc/${service.process.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, USER_HZ 100
    } catch {
      // not Linux, or the process is gone
    }
  }
  return total;
}

/** CPU of the platform's processes per measured request (a steadier figure than latency on a shared machine). */
const cpuPerRequest = new Map<Platform, number>();

async function viaHttp(platform: Platform, url: string): Promise<number[]> {
  const samples: number[] = [];
  let cpuStart = 0;
  const profiled = process.env['BENCH_PROFILE_DIR']
    ? [...platform.gateways, ...platform.workers].map((service) => service.process)
    : [];
  for (let i = 0; i < requests + 10; i += 1) {
    if (i === 10) {
      cpuStart = platformCpuMs(platform);
      for (const service of profiled) service.kill('SIGWINCH'); // profile 1: start-up and warm-up; 2: the measured requests
    }
    const started = performance.now();
    const response = await fetch(`${platform.url()}/v2/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${platform.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, maxAge: 0 }),
    });
    const body = (await response.json()) as { data?: { markdown?: string } };
    if (!body.data?.markdown?.includes(BASIC_SITE.articleMarker))
      throw new Error(`unexpected response ${JSON.stringify(body).slice(0, 300)}`);
    if (i >= 10) samples.push(performance.now() - started);
  }
  cpuPerRequest.set(platform, (platformCpuMs(platform) - cpuStart) / requests);
  for (const service of profiled) service.kill('SIGWINCH');
  return samples;
}

async function inProcess(url: string): Promise<number[]> {
  const client = new GuardedHttpClient(new AddressPolicy(true), {
    userAgent: 'bench',
    maxBytes: 25 * 1024 * 1024,
  });
  const pipeline = new ScrapePipeline(new HttpEngine(client), new PipelineExtensions());
  const request = scrapeRequestSchema.parse({ url });
  const samples: number[] = [];
  for (let i = 0; i < requests + 10; i += 1) {
    const started = performance.now();
    const outcome = await pipeline.run(request, {
      jobId: 'bench',
      teamId: 'bench',
      signal: new AbortController().signal,
      timeoutMs: 30_000,
    });
    if (!outcome.document.markdown?.includes(BASIC_SITE.articleMarker))
      throw new Error('unexpected document');
    if (i >= 10) samples.push(performance.now() - started);
  }
  await client.close();
  return samples;
}

async function main() {
  const site = await startBasicSite();
  const url = `${site.url}/article`;
  const rows: [string, ReturnType<typeof summary> & { cpuMsPerRequest?: number }][] = [];
  rows.push(['in-process pipeline (baseline)', summary(await inProcess(url))]);
  const cluster = await startCluster({
    gateways: 1,
    workers: 1,
    env: profilerEnv(),
    readyTimeoutMs: 300_000,
  });
  try {
    const samples = await viaHttp(cluster, url);
    rows.push([
      'cluster: gateway → Kafka → worker → PostgreSQL',
      { ...summary(samples), cpuMsPerRequest: cpuPerRequest.get(cluster) },
    ]);
  } finally {
    await cluster.stop();
  }
  const standalone = await startStandalone(profilerEnv(), { readyTimeoutMs: 300_000 }); // a loaded machine starts PGlite slowly
  try {
    const samples = await viaHttp(standalone, url);
    rows.push([
      'one process: memory bus + PGlite',
      { ...summary(samples), cpuMsPerRequest: cpuPerRequest.get(standalone) },
    ]);
  } finally {
    await standalone.stop();
  }
  await site.close();
  const base = rows[0][1];
  console.log(`\n${requests} sequential scrapes of ${url} (after 10 warm-up requests)\n`);
  console.log('| path | mean ms | p50 ms | p95 ms | p99 ms | p50 vs in-process | CPU ms per request |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, s] of rows) {
    console.log(
      `| ${name} | ${s.mean.toFixed(1)} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.p99.toFixed(1)} | ${(s.p50 / base.p50).toFixed(2)}× | ${s.cpuMsPerRequest === undefined ? '' : s.cpuMsPerRequest.toFixed(2)} |`,
    );
  }
  const [, viaKafka, oneProcess] = rows;
  emitResult(
    'latency',
    [
      row({
        metric: `sync scrape p50 overhead, one process (${requests} sequential)`,
        ours: oneProcess[1].p50,
        baseline: base.p50,
        baselineName: 'the same pipeline in-process',
        unit: 'ms',
        comparison: 'difference',
        target: { op: '<=', value: 5 },
      }),
      row({
        metric: `sync scrape p50 overhead, cluster over Kafka (${requests} sequential)`,
        ours: viaKafka[1].p50,
        baseline: base.p50,
        baselineName: 'the same pipeline in-process',
        unit: 'ms',
        comparison: 'difference',
        target: { op: '<=', value: 8 },
      }),
    ],
    { requests, url, paths: Object.fromEntries(rows) },
  );
  process.exit(0);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
