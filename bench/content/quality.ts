/**
 * Main-content quality on the WCXB development subset: word F1 (and `with`/`without` snippet rates)
 * per page type, ours against @mozilla/readability, all pages and the held-out fifth.
 *
 *   node -r @swc-node/register bench/content/quality.ts [--linkedom] [--fallback] [--no-baseline] [--fresh] [--workers N]
 *     [--scores FILE] [--per-page TYPE]
 *
 * --fallback adds Readability with a whole-body fallback for the pages where it returns nothing.
 * --scores writes every page's scores per extractor as JSON (to compare two runs page by page);
 * --per-page prints the tuning-split pages of one page type with their scores (held-out pages are
 * never listed, so diagnosing does not look at them).
 *
 * Baseline outputs are cached under bench/content/.cache, keyed by the baseline packages' versions
 * (jsdom takes most of a second per page); --fresh recomputes them. Ours is always recomputed.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  summarizeByType,
  type PageScore,
  type ScoreSummary,
} from '../../libs/scrape/content/src/quality/page-score.util';
import {
  isHeldOut,
  loadWcxbPages,
  wcxbDatasetDir,
} from '../../libs/scrape/content/src/quality/wcxb-dataset.util';
import { EXTRACTORS, type ExtractorName } from './extractors';

const args = process.argv.slice(2);
const workersArg = args.indexOf('--workers');
const scoresArg = args.indexOf('--scores');
const perPageArg = args.indexOf('--per-page');
const workers = workersArg >= 0 ? Number(args[workersArg + 1]) : Math.max(1, availableParallelism());
const extractors: ExtractorName[] = ['quarry'];
if (!args.includes('--no-baseline')) extractors.push('readability-jsdom');
if (args.includes('--fallback')) extractors.push('readability-jsdom-fallback');
if (args.includes('--linkedom')) extractors.push('readability-linkedom');

function versionOf(pkg: string): string {
  const main = require.resolve(pkg);
  const root = main.slice(0, main.lastIndexOf(`node_modules/${pkg}/`) + `node_modules/${pkg}/`.length);
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

function cacheDirs(): Partial<Record<ExtractorName, string>> {
  const common = `readability-${versionOf('@mozilla/readability')}-turndown-${versionOf('turndown')}`;
  const dirs: Partial<Record<ExtractorName, string>> = {
    'readability-jsdom': join(__dirname, '.cache', `jsdom-${versionOf('jsdom')}-${common}`),
    'readability-jsdom-fallback': join(__dirname, '.cache', `jsdom-fallback-${versionOf('jsdom')}-${common}`),
    'readability-linkedom': join(__dirname, '.cache', `linkedom-${versionOf('linkedom')}-${common}`),
  };
  if (args.includes('--fresh'))
    for (const d of Object.values(dirs)) rmSync(d, { recursive: true, force: true });
  return dirs;
}

function runShard(
  dir: string,
  shard: number,
  caches: Partial<Record<ExtractorName, string>>,
): Promise<Record<string, PageScore[]>> {
  const script = `require('@swc-node/register'); require(${JSON.stringify(join(__dirname, 'quality-worker.ts'))});`;
  return new Promise((ok, fail) => {
    const worker = new Worker(script, {
      eval: true,
      workerData: { dir, extractors, shard, shards: workers, cacheDirs: caches },
    });
    worker.once('message', ok);
    worker.once('error', fail);
  });
}

const fmt = (s: ScoreSummary | undefined) =>
  s
    ? `${s.f1.toFixed(3)} | ${(100 * s.withRate).toFixed(0)}% | ${(100 * s.withoutRate).toFixed(0)}%`
    : '- | - | -';

function table(title: string, byExtractor: Record<string, PageScore[]>): string {
  const summaries = Object.fromEntries(extractors.map((e) => [e, summarizeByType(byExtractor[e])]));
  const head = extractors.map((e) => `${EXTRACTORS[e].label} F1 | with | without`).join(' | ');
  const lines = [
    `### ${title}`,
    '',
    `| page type | pages | ${head} |`,
    `|---|---:|${extractors.map(() => '---:|---:|---:').join('|')}|`,
  ];
  for (const type of summaries.quarry.keys()) {
    const cells = extractors.map((e) => fmt(summaries[e].get(type))).join(' | ');
    lines.push(
      `| ${type === 'all' ? '**all**' : type} | ${summaries.quarry.get(type)?.pages ?? 0} | ${cells} |`,
    );
  }
  return lines.join('\n');
}

/** Tuning-split pages of one type, ours against each baseline: F1 (precision / recall). */
function perPageTable(type: string, tuned: Record<string, PageScore[]>): string {
  const cell = (s: PageScore) => `${s.f1.toFixed(3)} (${s.precision.toFixed(3)} / ${s.recall.toFixed(3)})`;
  const lines = [
    `### ${type}, tuning split: F1 (precision / recall)`,
    '',
    `| page | ${extractors.map((e) => EXTRACTORS[e].label).join(' | ')} |`,
    `|---|${extractors.map(() => '---:|').join('')}`,
  ];
  tuned.quarry.forEach((score, i) => {
    if (score.pageType !== type) return;
    lines.push(`| ${score.id} | ${extractors.map((e) => cell(tuned[e][i])).join(' | ')} |`);
  });
  return lines.join('\n');
}

async function main(): Promise<void> {
  const dir = wcxbDatasetDir(resolve(__dirname, '..', '..'), process.env['WCXB_DIR']);
  if (!dir) throw new Error('WCXB dataset not found at ../shared/data/wcxb-dev (relative to the repo root)');
  const started = Date.now();
  const order = loadWcxbPages(dir).map((p) => p.id);
  const caches = cacheDirs();
  const shards = await Promise.all(Array.from({ length: workers }, (_, k) => runShard(dir, k, caches)));
  const all: Record<string, PageScore[]> = {};
  for (const e of extractors) {
    const byId = new Map(shards.flatMap((s) => s[e]).map((score) => [score.id, score]));
    all[e] = order.map((id) => byId.get(id) as PageScore);
  }
  const heldOut = Object.fromEntries(extractors.map((e) => [e, all[e].filter((_, i) => isHeldOut(i))]));
  const tuned = Object.fromEntries(extractors.map((e) => [e, all[e].filter((_, i) => !isHeldOut(i))]));
  console.log(table(`All ${order.length} pages`, all));
  console.log('');
  console.log(table('Tuning split (4 of every 5 pages)', tuned));
  console.log('');
  console.log(table('Held-out split (every 5th page, not looked at while tuning)', heldOut));
  if (scoresArg >= 0) writeFileSync(args[scoresArg + 1], JSON.stringify(all));
  if (perPageArg >= 0) console.log(`\n${perPageTable(args[perPageArg + 1], tuned)}`);
  console.log(
    `\nword F1 per page averaged; with = share of "with" snippets found; without = share of "without" snippets absent.`,
  );
  console.log(`${workers} worker(s), ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
