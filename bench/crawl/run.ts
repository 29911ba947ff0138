/**
 * Crawl throughput benchmark (docs/crawl.md#benchmark-benchcrawl): our crawler against Crawlee's CheerioCrawler on the same
 * generated loopback site, in the same run, at the same concurrency. Prints pages/s, CPU per page and
 * the ratios, with the load average around each run (the machine is shared: read ratios, not absolutes).
 *
 *   npx nx run-many -t build -p gateway scrape-worker standalone   # our side runs the built services
 *   (cd bench && npm install)                                      # Crawlee, bench-only
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/crawl/run.ts [--concurrency 16] [--pages 1000] [--only a,b]
 *
 * Variants: crawlee (CheerioCrawler, links only), crawlee-markdown (+ Turndown per page),
 * quarry-standalone (one process, in-memory bus, PostgreSQL), quarry-cluster (gateway + one worker,
 * Kafka, PostgreSQL), quarry-cluster-2 and quarry-cluster-3 (the same with 2 and 3 worker processes:
 * the scaling curve). Our side always produces markdown for every page (checked after the run).
 * BENCH_QUICK=1: 60 pages, concurrency 8.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

import { type BenchRow, emitResult, QUICK, row } from '../support/result.util';

const ROOT = join(__dirname, '../..');
const VARIANTS = [
  'crawlee',
  'crawlee-markdown',
  'quarry-standalone',
  'quarry-cluster',
  'quarry-cluster-2',
  'quarry-cluster-3',
] as const;
type Variant = (typeof VARIANTS)[number];

/** Worker processes of a cluster variant (quarry-cluster = 1). */
function workersOf(variant: Variant): number {
  return Number(/^quarry-cluster-(\d+)$/.exec(variant)?.[1] ?? 1);
}

interface Result {
  variant: Variant;
  pages: number;
  seconds: number;
  cpuSeconds: number;
  /** PostgreSQL backend CPU of our database (our side only). */
  postgresCpuSeconds?: number | null;
  /** After the crawl: time and CPU (ours + PostgreSQL) until every stored page had its search vector. */
  indexSeconds?: number;
  indexCpuSeconds?: number;
  /** PostgreSQL transactions and rows written per stored page during the crawl (pg_stat_database). */
  postgresPerPage?: { transactions: number; rowsInserted: number; rowsUpdated: number; rowsDeleted: number };
  markdownPages: number;
  load: [number, number];
}

function arg(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

function runNode(
  script: string,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 1_800_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', join(ROOT, script), ...args], {
      cwd: ROOT,
      env: { ...process.env, SWC_NODE_PROJECT: join(ROOT, 'tsconfig.base.json'), ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out.trim().split('\n').pop() ?? '');
      else reject(new Error(`${script} exited with ${code}`));
    });
  });
}

async function main(): Promise<void> {
  const concurrency = Number(arg('concurrency', QUICK ? '8' : '16'));
  const pages = Number(arg('pages', QUICK ? '60' : '1000'));
  const only = arg('only', VARIANTS.join(',')).split(',') as Variant[];
  const site = spawn(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'bench/crawl/site.ts')], {
    cwd: ROOT,
    env: { ...process.env, SWC_NODE_PROJECT: join(ROOT, 'tsconfig.base.json'), BENCH_PAGES: String(pages) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const siteInfo = await new Promise<{ url: string; sampleBytes: number[] }>((resolve) =>
    site.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()))),
  );
  const results: Result[] = [];
  try {
    for (const variant of only) {
      const before = loadavg()[0];
      const [script, mode] = variant.startsWith('crawlee')
        ? ['bench/crawl/crawlee-run.ts', variant === 'crawlee' ? 'plain' : 'markdown']
        : ['bench/crawl/quarry-run.ts', variant.startsWith('quarry-cluster') ? 'cluster' : 'standalone'];
      const env: Record<string, string> = variant.startsWith('crawlee')
        ? { NODE_PATH: join(ROOT, 'bench/node_modules') }
        : {};
      const extra = variant.startsWith('quarry-cluster') ? [String(workersOf(variant))] : [];
      const output = JSON.parse(
        await runNode(script, [siteInfo.url, String(concurrency), mode, ...extra], env),
      ) as Omit<Result, 'variant' | 'load'>;
      const result: Result = { variant, ...output, load: [before, loadavg()[0]] };
      results.push(result);
      process.stderr.write(`${variant}: ${JSON.stringify(result)}\n`);
    }
  } finally {
    site.kill('SIGTERM');
  }
  const rate = (result: Result) => result.pages / result.seconds;
  const cpuMs = (result: Result) => (1000 * result.cpuSeconds) / result.pages;
  const lines = [
    `Crawl benchmark: ${pages} pages (${siteInfo.sampleBytes.map((bytes) => Math.round(bytes / 1024)).join('/')} KB samples), concurrency ${concurrency}, ${new Date().toISOString()}`,
    '| variant | pages | seconds | pages/s | CPU ms/page | + PostgreSQL CPU ms/page | + search index after the crawl, CPU ms/page (s) | pages with markdown | load avg (1 min) before → after |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...results.map(
      (result) =>
        `| ${result.variant} | ${result.pages} | ${result.seconds.toFixed(1)} | ${rate(result).toFixed(1)} | ${cpuMs(result).toFixed(1)} | ${typeof result.postgresCpuSeconds === 'number' ? ((1000 * result.postgresCpuSeconds) / result.pages).toFixed(1) : 'n/a'} | ${typeof result.indexCpuSeconds === 'number' ? `${((1000 * result.indexCpuSeconds) / result.pages).toFixed(1)} (${(result.indexSeconds ?? 0).toFixed(1)} s)` : 'n/a'} | ${result.variant === 'crawlee' ? 'n/a' : result.markdownPages} | ${result.load[0].toFixed(1)} → ${result.load[1].toFixed(1)} |`,
    ),
  ];
  const baseline = results.find((result) => result.variant === 'crawlee');
  const baselineMarkdown = results.find((result) => result.variant === 'crawlee-markdown');
  for (const ours of results.filter((result) => result.variant.startsWith('quarry'))) {
    if (baseline)
      lines.push(
        `${ours.variant} / crawlee: ${(rate(ours) / rate(baseline)).toFixed(2)}× pages/s, ${(cpuMs(baseline) / cpuMs(ours)).toFixed(2)}× CPU efficiency`,
      );
    if (baselineMarkdown)
      lines.push(
        `${ours.variant} / crawlee-markdown: ${(rate(ours) / rate(baselineMarkdown)).toFixed(2)}× pages/s`,
      );
  }
  for (const ours of results.filter((result) => result.postgresPerPage))
    lines.push(
      `${ours.variant}: PostgreSQL per stored page ${ours.postgresPerPage?.transactions} transactions, ${ours.postgresPerPage?.rowsInserted} rows inserted, ${ours.postgresPerPage?.rowsUpdated} updated, ${ours.postgresPerPage?.rowsDeleted} deleted`,
    );
  const clusters = results.filter((result) => result.variant.startsWith('quarry-cluster'));
  if (clusters.length > 1)
    lines.push(
      `cluster scaling (workers: pages/s): ${clusters.map((result) => `${workersOf(result.variant)}: ${rate(result).toFixed(1)}`).join(', ')}`,
    );
  process.stdout.write(`${lines.join('\n')}\n`);
  emitResult('crawl', crawlRows(results, baseline, baselineMarkdown, pages, concurrency), {
    concurrency,
    pages,
    results,
  });
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(
    join(ROOT, `bench/results/crawl-${Date.now()}.local.json`),
    JSON.stringify({ concurrency, pages, results }, null, 2),
  );
}

function crawlRows(
  results: Result[],
  baseline: Result | undefined,
  baselineMarkdown: Result | undefined,
  pages: number,
  concurrency: number,
): BenchRow[] {
  const rate = (result: Result) => result.pages / result.seconds;
  /** Node CPU plus the PostgreSQL backends' CPU, with the deferred search indexing, ms per page. */
  const totalCpuMs = (result: Result) =>
    (1000 * (result.cpuSeconds + (result.postgresCpuSeconds ?? 0) + (result.indexCpuSeconds ?? 0))) /
    result.pages;
  const site = `${pages}-page loopback site, c=${concurrency}`;
  const rows: BenchRow[] = [];
  const standalone = results.find((result) => result.variant === 'quarry-standalone');
  const cluster = results.find((result) => result.variant === 'quarry-cluster');
  for (const [ours, label, target] of [
    [standalone, 'one process', 1.2],
    [cluster, 'cluster, 1 worker', 1.0],
  ] as const) {
    if (!ours) continue;
    if (baseline)
      rows.push(
        row({
          metric: `crawl pages/s, ${site}, ${label}, markdown stored`,
          ours: rate(ours),
          baseline: rate(baseline),
          baselineName: 'Crawlee 3.18.1 CheerioCrawler (links only)',
          unit: 'pages/s',
          comparison: 'ratio',
          target: { op: '>=', value: target },
          note: `${ours.markdownPages}/${ours.pages} pages with markdown`,
        }),
      );
    if (baselineMarkdown) {
      rows.push(
        row({
          metric: `crawl pages/s, ${site}, ${label}, vs Crawlee + Turndown`,
          ours: rate(ours),
          baseline: rate(baselineMarkdown),
          baselineName: 'Crawlee CheerioCrawler + Turndown markdown',
          unit: 'pages/s',
          comparison: 'ratio',
        }),
        row({
          metric: `crawl CPU per page (Node + PostgreSQL, search indexing included), ${label}`,
          ours: totalCpuMs(ours),
          baseline: totalCpuMs(baselineMarkdown),
          baselineName: 'Crawlee CheerioCrawler + Turndown markdown (CPU of its process)',
          unit: 'CPU ms/page',
          comparison: 'ratio',
          target: { op: '<=', value: 1 },
        }),
      );
    }
  }
  const clusters = results.filter((result) => result.variant.startsWith('quarry-cluster'));
  const first = clusters.find((result) => workersOf(result.variant) === 1);
  for (const result of clusters)
    rows.push(
      row({
        metric: `crawl scaling, cluster with ${workersOf(result.variant)} worker${workersOf(result.variant) > 1 ? 's' : ''}`,
        ours: rate(result),
        ...(first ? { baseline: rate(first), baselineName: 'the same cluster with 1 worker' } : {}),
        unit: 'pages/s',
        comparison: first ? 'ratio' : 'value',
      }),
    );
  return rows;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
