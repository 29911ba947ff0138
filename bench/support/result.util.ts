/**
 * What every benchmark hands to the aggregator (`bench/run.ts`, `make bench`): rows of ours /
 * baseline / ratio with the target, written as JSON to the file named by BENCH_RESULT_FILE
 * (nothing is written when a benchmark runs by hand), plus helpers shared by the benchmarks.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

/** `ours / baseline` (higher is better), `baseline / ours` (lower is better, e.g. ms), `ours - baseline`, or our figure alone. */
export type Comparison = 'ratio' | 'inverse-ratio' | 'difference' | 'value';

export interface Target {
  op: '>=' | '<=';
  value: number;
}

export interface BenchRow {
  /** What is compared, e.g. "cache-hit scrapes, 32 connections, one process". */
  metric: string;
  ours: number;
  /** Absent when there is no baseline (memory, scaling). */
  baseline?: number;
  baselineName?: string;
  unit: string;
  comparison: Comparison;
  /** The compared figure: the ratio, the difference, or our value (see comparison). */
  value: number;
  target?: Target;
  /** Whether value meets target (absent without a target). */
  pass?: boolean;
  note?: string;
}

export interface BenchResult {
  bench: string;
  quick: boolean;
  rows: BenchRow[];
  /** Anything else the benchmark measured (per-level figures, verification counters). */
  details?: Record<string, unknown>;
}

/** Quick mode: each benchmark at a tiny size (smoke checks of the harness, not figures to quote). */
export const QUICK = process.env['BENCH_QUICK'] === '1' || process.env['BENCH_QUICK'] === 'true';

/** A row with its compared value and verdict filled in. */
export function row(input: Omit<BenchRow, 'value' | 'pass'> & { value?: number }): BenchRow {
  const { ours, baseline, comparison } = input;
  const computed =
    input.value ??
    (baseline === undefined || comparison === 'value'
      ? ours
      : comparison === 'ratio'
        ? ours / baseline
        : comparison === 'inverse-ratio'
          ? baseline / ours
          : ours - baseline);
  const pass = input.target
    ? input.target.op === '>='
      ? computed >= input.target.value
      : computed <= input.target.value
    : undefined;
  return { ...input, value: computed, ...(pass === undefined ? {} : { pass }) };
}

/** Hands the result to the aggregator when it asked for one (BENCH_RESULT_FILE). */
export function emitResult(bench: string, rows: BenchRow[], details?: Record<string, unknown>): void {
  const file = process.env['BENCH_RESULT_FILE'];
  if (!file) return;
  const result: BenchResult = { bench, quick: QUICK, rows, ...(details ? { details } : {}) };
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
}

/** utime + stime of one process, in seconds (Linux /proc; clock ticks of 10 ms). */
export function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds of a process and all its live descendants (Chromium's renderer, GPU and utility
 * processes). Children that already exited are counted only through their parent's cutime/cstime
 * once reaped, so this is read while the tree is alive.
 */
export function treeCpuSeconds(root: number): number {
  const parents = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      parents.set(Number(entry), Number(fields[1]));
      // utime + stime + cutime + cstime: children reaped by this process count too.
      cpu.set(
        Number(entry),
        (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100,
      );
    } catch {
      // the process exited while we read
    }
  }
  const inTree = (pid: number): boolean => {
    for (let current: number | undefined = pid, depth = 0; current && depth < 64; depth += 1) {
      if (current === root) return true;
      current = parents.get(current);
    }
    return false;
  };
  let total = 0;
  for (const [pid, seconds] of cpu) if (inTree(pid)) total += seconds;
  return total;
}

/** Resident set size of a process in MB (VmRSS). */
export function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
}
