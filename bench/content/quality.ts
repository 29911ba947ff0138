/**
 * Main-content quality, ours against the open extractors, on the same pages:
 *   - WCXB development subset (mixed page types): word F1 and `with`/`without` snippet rates per page type;
 *   - news-dev (articles): 4-token shingle precision / recall / F1 and word F1 on the Dragnet pages,
 *     `with`/`without` snippet rates on the trafilatura-eval pages.
 * Each for all pages, the tuning split and the held-out split (every 5th page, index 4, 9, …).
 *
 *   node -r @swc-node/register bench/content/quality.ts [--dataset wcxb|news] [--no-anchors] [--no-baseline]
 *     [--linkedom] [--fallback] [--fresh] [--workers N] [--scores FILE] [--per-page TYPE|dragnet]
 *
 * Anchors (rs-trafilatura 0.2.2 with and without the page URL, trafilatura 2.3.1) need
 * `bench/content/anchors/setup.sh` once. --fallback adds Readability with a whole-body fallback for the
 * pages where it returns nothing. --scores writes every page's scores per extractor as JSON (to compare
 * two runs page by page); --per-page prints the tuning-split pages of one WCXB page type, or the
 * tuning-split Dragnet pages, with their scores (held-out pages are never listed, so diagnosing does
 * not look at them).
 *
 * Baseline and anchor outputs are cached under bench/content/.cache, keyed by their versions (jsdom
 * takes most of a second per page); --fresh recomputes them. Ours is always recomputed.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

import { isHeldOut } from '../../libs/scrape/content/src/quality/dataset-dir.util';
import type { NewsPage } from '../../libs/scrape/content/src/quality/news-dataset.util';
import {
  type NewsPageScore,
  type NewsSummary,
  scoreNewsPage,
  summarizeNews,
} from '../../libs/scrape/content/src/quality/news-score.util';
import {
  type PageScore,
  scorePageText,
  type ScoreSummary,
  summarizeByType,
} from '../../libs/scrape/content/src/quality/page-score.util';
import type { WcxbPage } from '../../libs/scrape/content/src/quality/wcxb-dataset.util';
import { ANCHOR_LABELS, ANCHOR_NAMES, type AnchorName, anchorsMissing, anchorTexts } from './anchors';
import { benchPages, type DatasetName, loadNews, loadWcxb } from './bench-datasets';
import { type ExtractorName, EXTRACTORS } from './extractors';

const args = process.argv.slice(2);
const argValue = (flag: string) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
const workers = Number(argValue('--workers') ?? Math.max(1, availableParallelism()));
const datasets: DatasetName[] = argValue('--dataset')
  ? [argValue('--dataset') as DatasetName]
  : ['wcxb', 'news'];
const inProcess: ExtractorName[] = ['quarry'];
if (!args.includes('--no-baseline')) inProcess.push('readability-jsdom');
if (args.includes('--fallback')) inProcess.push('readability-jsdom-fallback');
if (args.includes('--linkedom')) inProcess.push('readability-linkedom');
const anchors: AnchorName[] = args.includes('--no-anchors') ? [] : [...ANCHOR_NAMES];
if (anchors.length && anchorsMissing()) throw new Error(`${anchorsMissing()} (or pass --no-anchors)`);
const fresh = args.includes('--fresh');

type Name = ExtractorName | AnchorName;
const names: Name[] = [...inProcess, ...anchors];
const label = (n: Name) =>
  n in EXTRACTORS ? EXTRACTORS[n as ExtractorName].label : ANCHOR_LABELS[n as AnchorName];

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
  if (fresh) for (const d of Object.values(dirs)) rmSync(d, { recursive: true, force: true });
  return dirs;
}

function runShard(
  dataset: DatasetName,
  shard: number,
  caches: Partial<Record<ExtractorName, string>>,
): Promise<Record<string, Record<string, string>>> {
  const script = `require('@swc-node/register'); require(${JSON.stringify(join(__dirname, 'quality-worker.ts'))});`;
  return new Promise((ok, fail) => {
    const worker = new Worker(script, {
      eval: true,
      workerData: { dataset, extractors: inProcess, shard, shards: workers, cacheDirs: caches },
    });
    worker.once('message', ok);
    worker.once('error', fail);
  });
}

/** Plain text of every page per extractor: ours and the baselines in worker threads, anchors in child processes. */
async function textsOf(dataset: DatasetName): Promise<Record<Name, Map<string, string>>> {
  const caches = cacheDirs();
  const shards = await Promise.all(Array.from({ length: workers }, (_, k) => runShard(dataset, k, caches)));
  const out = {} as Record<Name, Map<string, string>>;
  for (const e of inProcess) out[e] = new Map(shards.flatMap((s) => Object.entries(s[e])));
  if (anchors.length) {
    const pages = benchPages(dataset);
    for (const a of anchors) out[a] = anchorTexts(a, dataset, pages, fresh);
  }
  return out;
}

const f3 = (x: number) => x.toFixed(3);
const pct = (x: number) => `${(100 * x).toFixed(0)}%`;

function wcxbTable(title: string, scores: Record<Name, PageScore[]>): string {
  const summaries = Object.fromEntries(names.map((n) => [n, summarizeByType(scores[n])])) as Record<
    Name,
    Map<string, ScoreSummary>
  >;
  const cell = (s: ScoreSummary | undefined) =>
    s ? `${f3(s.f1)} (${pct(s.withRate)} / ${pct(s.withoutRate)})` : '-';
  const lines = [
    `### ${title}: word F1 (with / without)`,
    '',
    `| page type | pages | ${names.map(label).join(' | ')} |`,
    `|---|---:|${names.map(() => '---:|').join('')}`,
  ];
  for (const type of summaries.quarry.keys()) {
    const cells = names.map((n) => cell(summaries[n].get(type))).join(' | ');
    lines.push(
      `| ${type === 'all' ? '**all**' : type} | ${summaries.quarry.get(type)?.pages ?? 0} | ${cells} |`,
    );
  }
  return lines.join('\n');
}

function newsTable(title: string, scores: Record<Name, NewsPageScore[]>): string {
  const lines = [
    `### ${title}`,
    '',
    '| extractor | Dragnet pages | shingle P | shingle R | **shingle F1** | word F1 | trafilatura-eval pages | with | without |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const n of names) {
    const dragnet = scores[n].filter((s) => s.source === 'dragnet');
    const teval = scores[n].filter((s) => s.source === 'trafilatura-eval');
    const d: NewsSummary = summarizeNews(dragnet);
    const t: NewsSummary = summarizeNews(teval);
    lines.push(
      `| ${label(n)} | ${d.pages} | ${f3(d.shingle.precision)} | ${f3(d.shingle.recall)} | **${f3(d.shingle.f1)}** | ${f3(d.wordF1)} | ${t.pages} | ${pct(t.withRate)} | ${pct(t.withoutRate)} |`,
    );
  }
  return lines.join('\n');
}

function splits<T>(scores: Record<Name, T[]>): Array<[string, Record<Name, T[]>]> {
  const pick = (keep: (i: number) => boolean) =>
    Object.fromEntries(names.map((n) => [n, scores[n].filter((_, i) => keep(i))])) as Record<Name, T[]>;
  return [
    ['All pages', scores],
    ['Tuning split (4 of every 5 pages)', pick((i) => !isHeldOut(i))],
    ['Held-out split (every 5th page, not looked at while tuning)', pick(isHeldOut)],
  ];
}

async function wcxb(perPage: string | undefined): Promise<Record<Name, PageScore[]>> {
  const pages: WcxbPage[] = loadWcxb();
  const texts = await textsOf('wcxb');
  const scores = Object.fromEntries(
    names.map((n) => [n, pages.map((p) => scorePageText(p, texts[n].get(p.id) ?? ''))]),
  ) as Record<Name, PageScore[]>;
  for (const [title, split] of splits(scores))
    console.log(`${wcxbTable(`WCXB dev, ${title.toLowerCase()}`, split)}\n`);
  if (perPage && perPage !== 'dragnet') {
    const cell = (s: PageScore) => `${f3(s.f1)} (${f3(s.precision)} / ${f3(s.recall)})`;
    console.log(
      `### ${perPage}, tuning split: F1 (precision / recall)\n\n| page | ${names.map(label).join(' | ')} |`,
    );
    console.log(`|---|${names.map(() => '---:|').join('')}`);
    scores.quarry.forEach((s, i) => {
      if (s.pageType === perPage && !isHeldOut(i))
        console.log(`| ${s.id} | ${names.map((n) => cell(scores[n][i])).join(' | ')} |`);
    });
    console.log('');
  }
  return scores;
}

async function news(perPage: string | undefined): Promise<Record<Name, NewsPageScore[]>> {
  const pages: NewsPage[] = loadNews();
  const texts = await textsOf('news');
  const scores = Object.fromEntries(
    names.map((n) => [n, pages.map((p) => scoreNewsPage(p, texts[n].get(p.id) ?? ''))]),
  ) as Record<Name, NewsPageScore[]>;
  for (const [title, split] of splits(scores))
    console.log(`${newsTable(`news-dev, ${title.toLowerCase()}`, split)}\n`);
  if (perPage === 'dragnet') {
    const pr = (s: NewsPageScore) => {
      const c = s.shingles;
      if (!c) return '-';
      const p = c.tp + c.fp > 0 ? c.tp / (c.tp + c.fp) : 0;
      const r = c.tp + c.fn > 0 ? c.tp / (c.tp + c.fn) : 0;
      return `${f3(p)} / ${f3(r)}`;
    };
    console.log(
      `### Dragnet, tuning split: shingle precision / recall\n\n| page | ${names.map(label).join(' | ')} |`,
    );
    console.log(`|---|${names.map(() => '---:|').join('')}`);
    scores.quarry.forEach((s, i) => {
      if (s.source === 'dragnet' && !isHeldOut(i))
        console.log(`| ${s.id} | ${names.map((n) => pr(scores[n][i])).join(' | ')} |`);
    });
    console.log('');
  }
  return scores;
}

async function main(): Promise<void> {
  const started = Date.now();
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  const perPage = argValue('--per-page');
  const all: Record<string, unknown> = {};
  if (datasets.includes('wcxb')) all['wcxb'] = await wcxb(perPage);
  if (datasets.includes('news')) all['news'] = await news(perPage);
  const scoresFile = argValue('--scores');
  if (scoresFile) writeFileSync(scoresFile, JSON.stringify(all));
  console.log(
    'WCXB: word F1 per page averaged; with = share of "with" snippets found; without = share of "without" snippets absent.',
  );
  console.log(
    'news: shingle P/R/F1 as defined in bench/content/README.md; snippets case-sensitive, whitespace collapsed.',
  );
  console.log(
    `${workers} worker(s), ${((Date.now() - started) / 1000).toFixed(0)} s, load average at end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
