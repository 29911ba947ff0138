/**
 * `make bench`: every benchmark, one at a time, each against its baseline in the same run, then one
 * table of ours / baseline / ratio with the machine and the load average, written as JSON to
 * `bench/results/<date>-<host>.json` (runs can be compared) and, for full runs, into the README's
 * performance table (bench/readme-table.ts).
 *
 *   make bench                          # everything
 *   make bench BENCH=gateway,latency    # a subset (names: see BENCHES)
 *   make bench BENCH_QUICK=1            # every benchmark at a tiny size (a smoke check, not figures)
 *
 * Environment: BENCH (subset), BENCH_QUICK=1, BENCH_RESULTS_DIR (default bench/results),
 * BENCH_SKIP_PREPARE=1 (no build, no baseline install), BENCH_README=0 (leave the README alone).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, hostname, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';

import { renderBenchTable, updateReadme } from './readme-table';
import type { BenchResult } from './support/result.util';

const ROOT = resolve(__dirname, '..');

export interface BenchSpec {
  name: string;
  script: string;
  args: (quick: boolean) => string[];
  /** Needs the built services (dist/apps). */
  services?: boolean;
  /** Needs Crawlee in bench/node_modules. */
  crawlee?: boolean;
  timeoutMinutes: number;
}

/** In the order they run. */
export const BENCHES: BenchSpec[] = [
  { name: 'content', script: 'bench/content/speed.ts', args: () => [], timeoutMinutes: 20 },
  {
    name: 'latency',
    script: 'bench/latency/scrape-latency.ts',
    args: () => [],
    services: true,
    timeoutMinutes: 20,
  },
  {
    name: 'gateway',
    script: 'bench/load/scrape-load.ts',
    args: () => [],
    services: true,
    timeoutMinutes: 20,
  },
  { name: 'browser', script: 'bench/browser/browser-throughput.ts', args: () => [], timeoutMinutes: 30 },
  {
    name: 'crawl',
    script: 'bench/crawl/run.ts',
    args: () => [],
    services: true,
    crawlee: true,
    timeoutMinutes: 45,
  },
  { name: 'pdf', script: 'bench/documents/pdf-bench.ts', args: () => ['--no-ocr'], timeoutMinutes: 20 },
  {
    name: 'memory',
    script: 'bench/memory/memory-check.ts',
    args: () => [],
    services: true,
    timeoutMinutes: 20,
  },
];

export interface Machine {
  host: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  kernel: string;
  node: string;
  chromium?: string;
}

export interface BenchRun {
  bench: string;
  ok: boolean;
  error?: string;
  seconds: number;
  /** 1-minute load average before and after. */
  load: [number, number];
  result?: BenchResult;
}

export interface RunReport {
  date: string;
  quick: boolean;
  machine: Machine;
  /** 1/5/15-minute load average before the first benchmark. */
  loadBefore: number[];
  runs: BenchRun[];
}

function machine(): Machine {
  const osRelease = existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '';
  const chromium = spawnSync(process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', ['--version'], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  return {
    host: hostname(),
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: /PRETTY_NAME="([^"]+)"/.exec(osRelease)?.[1] ?? 'unknown',
    kernel: release(),
    node: process.version,
    ...(chromium.status === 0 ? { chromium: chromium.stdout.trim() } : {}),
  };
}

/** Builds the services and installs the baselines, reusing what is current (nx cache, lock file). */
function prepare(selected: BenchSpec[]): void {
  if (selected.some((spec) => spec.services)) {
    process.stderr.write(
      '[bench] building gateway, scrape-worker, standalone (nx cache reuses current builds)\n',
    );
    execFileSync(
      'npx',
      ['nx', 'run-many', '-t', 'build', '-p', 'gateway', 'scrape-worker', 'standalone', '--parallel=1'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
      },
    );
  }
  if (selected.some((spec) => spec.crawlee)) {
    const wanted = (
      JSON.parse(readFileSync(join(ROOT, 'bench/package.json'), 'utf8')) as {
        devDependencies: Record<string, string>;
      }
    ).devDependencies['crawlee'];
    const installed = join(ROOT, 'bench/node_modules/crawlee/package.json');
    const current = existsSync(installed)
      ? (JSON.parse(readFileSync(installed, 'utf8')) as { version: string }).version
      : undefined;
    if (current !== wanted) {
      process.stderr.write(
        `[bench] installing the crawl baseline (crawlee ${wanted}) into bench/node_modules\n`,
      );
      execFileSync('npm', ['install', '--no-audit', '--no-fund'], {
        cwd: join(ROOT, 'bench'),
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    }
  }
}

/** The WCXB development split: WCXB_DIR, or shared/data beside the checkout (or beside the worktree root). */
function wcxbDir(): string | undefined {
  const candidates = [
    process.env['WCXB_DIR'],
    join(ROOT, '../shared/data/wcxb-dev'),
    join(ROOT, '../../shared/data/wcxb-dev'),
  ];
  return candidates.find((dir): dir is string => !!dir && existsSync(join(dir, 'ground-truth')));
}

function runOne(spec: BenchSpec, quick: boolean): Promise<BenchRun> {
  const scratch = mkdtempSync(join(tmpdir(), 'quarry-bench-'));
  const resultFile = join(scratch, 'result.json');
  const loadStart = loadavg()[0];
  const started = Date.now();
  const wcxb = wcxbDir();
  process.stderr.write(
    `\n[bench] ${spec.name}: ${spec.script}${quick ? ' (quick)' : ''}, load average ${loadStart.toFixed(2)}\n`,
  );
  return new Promise<BenchRun>((done) => {
    const child = spawn(
      process.execPath,
      ['-r', '@swc-node/register', join(ROOT, spec.script), ...spec.args(quick)],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          SWC_NODE_PROJECT: join(ROOT, 'tsconfig.base.json'),
          BENCH_RESULT_FILE: resultFile,
          BENCH_QUICK: quick ? '1' : '0',
          ...(wcxb ? { WCXB_DIR: wcxb } : {}),
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    const timer = setTimeout(() => child.kill('SIGTERM'), spec.timeoutMinutes * 60_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const seconds = (Date.now() - started) / 1000;
      const load: [number, number] = [loadStart, loadavg()[0]];
      let result: BenchResult | undefined;
      if (existsSync(resultFile)) result = JSON.parse(readFileSync(resultFile, 'utf8')) as BenchResult;
      rmSync(scratch, { recursive: true, force: true });
      const ok = code === 0 && !!result && result.rows.length > 0;
      const error = ok ? undefined : code !== 0 ? `exited with ${code ?? signal}` : 'no result rows';
      done({
        bench: spec.name,
        ok,
        seconds,
        load,
        ...(error ? { error } : {}),
        ...(result ? { result } : {}),
      });
    });
  });
}

/** `2026-11-26-host.json`, then `-2`, `-3` … for later runs of the same day. */
function resultPath(dir: string, date: string, host: string, quick: boolean): string {
  const base = `${date.slice(0, 10)}-${host}${quick ? '-quick' : ''}`;
  for (let index = 1; ; index += 1) {
    const file = join(dir, `${base}${index > 1 ? `-${index}` : ''}.json`);
    if (!existsSync(file)) return file;
  }
}

export async function runBenches(options: {
  only?: string[];
  quick: boolean;
  resultsDir: string;
  readme: boolean;
  prepare: boolean;
}): Promise<{ report: RunReport; file: string }> {
  const unknown = (options.only ?? []).filter((name) => !BENCHES.some((spec) => spec.name === name));
  if (unknown.length)
    throw new Error(
      `unknown benchmark(s): ${unknown.join(', ')} (known: ${BENCHES.map((spec) => spec.name).join(', ')})`,
    );
  const selected = BENCHES.filter((spec) => !options.only?.length || options.only.includes(spec.name));
  if (options.prepare) prepare(selected);
  const report: RunReport = {
    date: new Date().toISOString(),
    quick: options.quick,
    machine: machine(),
    loadBefore: loadavg(),
    runs: [],
  };
  for (const spec of selected) {
    const run = await runOne(spec, options.quick);
    report.runs.push(run);
    if (!run.ok) process.stderr.write(`[bench] ${spec.name} FAILED: ${run.error}\n`);
  }
  mkdirSync(options.resultsDir, { recursive: true });
  const file = resultPath(options.resultsDir, report.date, report.machine.host, options.quick);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\n${renderBenchTable([report])}\n\nresults: ${file}\n`);
  if (options.readme && !options.quick) updateReadme(options.resultsDir);
  return { report, file };
}

async function main(): Promise<void> {
  const only = (process.env['BENCH'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const quick = ['1', 'true'].includes(process.env['BENCH_QUICK'] ?? '');
  const { report } = await runBenches({
    only,
    quick,
    resultsDir: resolve(process.env['BENCH_RESULTS_DIR'] ?? join(ROOT, 'bench/results')),
    readme: process.env['BENCH_README'] !== '0',
    prepare: process.env['BENCH_SKIP_PREPARE'] !== '1',
  });
  process.exit(report.runs.every((run) => run.ok) ? 0 : 1);
}

if (require.main === module)
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
