/**
 * Crawl throughput benchmark (issue 4 §10): our crawler against Crawlee's CheerioCrawler on the same
 * generated loopback site, in the same run, at the same concurrency. Prints pages/s, CPU per page and
 * the ratios, with the load average around each run (the machine is shared: read ratios, not absolutes).
 *
 *   npx nx run-many -t build -p gateway scrape-worker standalone   # our side runs the built services
 *   (cd bench && npm install)                                      # Crawlee, bench-only
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/crawl/run.ts [--concurrency 16] [--pages 1000] [--only a,b]
 *
 * Variants: crawlee (CheerioCrawler, links only), crawlee-markdown (+ Turndown per page),
 * quarry-standalone (one process, in-memory bus, PostgreSQL), quarry-cluster (gateway + one worker,
 * Kafka, PostgreSQL). Our side always produces markdown for every page (checked after the run).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');
const VARIANTS = ['crawlee', 'crawlee-markdown', 'quarry-standalone', 'quarry-cluster'] as const;
type Variant = (typeof VARIANTS)[number];

interface Result {
  variant: Variant;
  pages: number;
  seconds: number;
  cpuSeconds: number;
  /** PostgreSQL backend CPU of our database (our side only). */
  postgresCpuSeconds?: number | null;
  markdownPages: number;
  load: [number, number];
}

function arg(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

function runNode(script: string, args: string[], env: Record<string, string> = {}, timeoutMs = 1_800_000): Promise<string> {
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
  const concurrency = Number(arg('concurrency', '16'));
  const pages = Number(arg('pages', '1000'));
  const only = arg('only', VARIANTS.join(',')).split(',') as Variant[];
  const site = spawn(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'bench/crawl/site.ts')], {
    cwd: ROOT,
    env: { ...process.env, SWC_NODE_PROJECT: join(ROOT, 'tsconfig.base.json'), BENCH_PAGES: String(pages) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const siteInfo = await new Promise<{ url: string; sampleBytes: number[] }>((resolve) => site.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()))));
  const results: Result[] = [];
  try {
    for (const variant of only) {
      const before = loadavg()[0];
      const [script, mode] = variant.startsWith('crawlee') ? ['bench/crawl/crawlee-run.ts', variant === 'crawlee' ? 'plain' : 'markdown'] : ['bench/crawl/quarry-run.ts', variant.replace('quarry-', '')];
      const env = variant.startsWith('crawlee') ? { NODE_PATH: join(ROOT, 'bench/node_modules') } : {};
      const output = JSON.parse(await runNode(script, [siteInfo.url, String(concurrency), mode], env)) as Omit<Result, 'variant' | 'load'>;
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
    '| variant | pages | seconds | pages/s | CPU ms/page | + PostgreSQL CPU ms/page | pages with markdown | load avg (1 min) before → after |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...results.map(
      (result) =>
        `| ${result.variant} | ${result.pages} | ${result.seconds.toFixed(1)} | ${rate(result).toFixed(1)} | ${cpuMs(result).toFixed(1)} | ${typeof result.postgresCpuSeconds === 'number' ? ((1000 * result.postgresCpuSeconds) / result.pages).toFixed(1) : 'n/a'} | ${result.variant === 'crawlee' ? 'n/a' : result.markdownPages} | ${result.load[0].toFixed(1)} → ${result.load[1].toFixed(1)} |`,
    ),
  ];
  const baseline = results.find((result) => result.variant === 'crawlee');
  const baselineMarkdown = results.find((result) => result.variant === 'crawlee-markdown');
  for (const ours of results.filter((result) => result.variant.startsWith('quarry'))) {
    if (baseline) lines.push(`${ours.variant} / crawlee: ${(rate(ours) / rate(baseline)).toFixed(2)}× pages/s, ${(cpuMs(baseline) / cpuMs(ours)).toFixed(2)}× CPU efficiency`);
    if (baselineMarkdown) lines.push(`${ours.variant} / crawlee-markdown: ${(rate(ours) / rate(baselineMarkdown)).toFixed(2)}× pages/s`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(ROOT, `bench/results/crawl-${Date.now()}.local.json`), JSON.stringify({ concurrency, pages, results }, null, 2));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
