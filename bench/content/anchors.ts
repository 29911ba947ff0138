/**
 * The other open extractors the content benchmarks compare against, run side by side with ours on
 * the same decoded pages: rs-trafilatura 0.2.2 (Rust, crates.io) with and without the page URL, and
 * trafilatura 2.3.1 (Python, PyPI). Both are built by `bench/content/anchors/setup.sh` into
 * bench/content/.anchors (git-ignored) and driven through small harnesses that read pages as JSON
 * lines on stdin and report each page's plain text and the CPU time its extraction took in memory.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type AnchorName = 'rs-trafilatura' | 'rs-trafilatura-no-url' | 'trafilatura';

export const ANCHOR_NAMES: readonly AnchorName[] = ['rs-trafilatura', 'rs-trafilatura-no-url', 'trafilatura'];

/** Pinned versions (anchors/setup.sh builds exactly these); part of the cache key. */
const VERSIONS: Readonly<Record<AnchorName, string>> = {
  'rs-trafilatura': '0.2.2',
  'rs-trafilatura-no-url': '0.2.2',
  trafilatura: '2.3.1',
};

export const ANCHOR_LABELS: Readonly<Record<AnchorName, string>> = {
  'rs-trafilatura': 'rs-trafilatura 0.2.2 (with URL)',
  'rs-trafilatura-no-url': 'rs-trafilatura 0.2.2 (no URL)',
  trafilatura: 'trafilatura 2.3.1',
};

export interface AnchorPage {
  id: string;
  url?: string;
  /** Decoded HTML (the same text our pipeline is given). */
  html: string;
}

export interface AnchorOutput {
  text: string;
  /** CPU time of the extraction itself (thread CPU, in memory), the fastest of `repeat` runs. */
  cpuMs: number;
}

const ANCHORS_DIR = join(__dirname, '.anchors');
const RUST_BIN = join(ANCHORS_DIR, 'rs-trafilatura-bench');
const PYTHON = join(ANCHORS_DIR, 'venv', 'bin', 'python');
const PY_HARNESS = join(__dirname, 'anchors', 'trafilatura_bench.py');

/** Why the anchors cannot run (not built yet), or undefined when they can. */
export function anchorsMissing(): string | undefined {
  const missing = [RUST_BIN, PYTHON].filter((path) => !existsSync(path));
  return missing.length
    ? `anchors not built (${missing.join(', ')} missing): run bench/content/anchors/setup.sh`
    : undefined;
}

function command(name: AnchorName, repeat: number): [string, string[]] {
  const rep = repeat > 1 ? ['--repeat', String(repeat)] : [];
  if (name === 'trafilatura') return [PYTHON, [PY_HARNESS, ...rep]];
  return [RUST_BIN, [...(name === 'rs-trafilatura-no-url' ? ['--no-url'] : []), ...rep]];
}

/** Runs one anchor over the pages in a child process (one thread); page id → output. */
export function runAnchor(
  name: AnchorName,
  pages: readonly AnchorPage[],
  repeat = 1,
): Map<string, AnchorOutput> {
  const [bin, args] = command(name, repeat);
  const input = pages.map((p) => JSON.stringify({ id: p.id, url: p.url ?? null, html: p.html })).join('\n');
  const run = spawnSync(bin, args, { input, maxBuffer: 1 << 30, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${name} failed (${run.status}): ${run.stderr.slice(0, 2000)}`);
  const out = new Map<string, AnchorOutput>();
  for (const line of run.stdout.split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as { id: string; text: string; cpuMs: number };
    out.set(row.id, { text: row.text, cpuMs: row.cpuMs });
  }
  return out;
}

/**
 * Anchor texts of a dataset, cached per anchor and dataset under bench/content/.cache (the anchors
 * are deterministic and pinned); `fresh` recomputes.
 */
export function anchorTexts(
  name: AnchorName,
  dataset: string,
  pages: readonly AnchorPage[],
  fresh: boolean,
): Map<string, string> {
  const dir = join(__dirname, '.cache', 'anchors');
  const file = join(dir, `${name}-${VERSIONS[name]}-${dataset}.json`);
  if (!fresh && existsSync(file)) {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    if (pages.every((p) => p.id in cached)) return new Map(Object.entries(cached));
  }
  const outputs = runAnchor(name, pages);
  const texts = new Map([...outputs].map(([id, o]) => [id, o.text]));
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(Object.fromEntries(texts)));
  return texts;
}
