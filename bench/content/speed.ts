/**
 * Throughput of the full transform (markdown + html + links + metadata, main content only) against
 * the naive jsdom + Readability + turndown pipeline, on the same WCXB pages, in one process, after
 * warm-up.
 *
 *   node -r @swc-node/register bench/content/speed.ts [--pages N] [--linkedom]
 */
import { resolve } from 'node:path';
import { decodeBody } from '../../libs/scrape/content/src/decode/decode-body.util';
import { loadWcxbPages, wcxbDatasetDir } from '../../libs/scrape/content/src/quality/wcxb-dataset.util';
import { transformDocument } from '../../libs/scrape/content/src/transform/transform-document.util';
import { jsdomReadability, linkedomReadability } from './baselines';

interface Page {
  html: string;
  url: string;
}

interface Timing {
  label: string;
  mean: number;
  p50: number;
  p95: number;
  perSecond: number;
}

const args = process.argv.slice(2);
const pagesArg = args.indexOf('--pages');
const wantedPages = pagesArg >= 0 ? Number(args[pagesArg + 1]) : 100;
const WARMUP_PAGES = 10;

function quarry(page: Page): void {
  transformDocument({ body: page.html, url: page.url }, ['markdown', 'html', 'links'], {
    onlyMainContent: true,
    removeBase64Images: true,
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function measure(label: string, pages: Page[], run: (page: Page) => void): Timing {
  for (let round = 0; round < 2; round++) for (const page of pages.slice(0, WARMUP_PAGES)) run(page);
  const times: number[] = [];
  for (const page of pages) {
    const start = process.hrtime.bigint();
    run(page);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const total = times.reduce((a, b) => a + b, 0);
  const sorted = [...times].sort((a, b) => a - b);
  return {
    label,
    mean: total / times.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    perSecond: (1000 * times.length) / total,
  };
}

function main(): void {
  const dir = wcxbDatasetDir(resolve(__dirname, '..', '..'), process.env['WCXB_DIR']);
  if (!dir) throw new Error('WCXB dataset not found at ../shared/data/wcxb-dev (relative to the repo root)');
  const all = loadWcxbPages(dir);
  const step = Math.max(1, Math.floor(all.length / wantedPages));
  const pages: Page[] = all
    .filter((_, i) => i % step === 0)
    .slice(0, wantedPages)
    .map((p) => ({ html: decodeBody(p.html).text, url: p.url }));
  const kb = pages.reduce((sum, p) => sum + p.html.length, 0) / pages.length / 1024;
  console.log(
    `${pages.length} pages (every ${step}th of ${all.length}), mean ${kb.toFixed(0)} KB of HTML, ${WARMUP_PAGES}-page warm-up x2`,
  );
  const results = [measure('Quarry transformDocument (markdown+html+links+metadata)', pages, quarry)];
  results.push(
    measure('jsdom + Readability + turndown (markdown)', pages, (p) => void jsdomReadability(p.html, p.url)),
  );
  if (args.includes('--linkedom')) {
    results.push(
      measure('linkedom + Readability + turndown (markdown)', pages, (p) => void linkedomReadability(p.html)),
    );
  }
  console.log('\n| pipeline | mean ms | p50 ms | p95 ms | pages/s |\n|---|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(
      `| ${r.label} | ${r.mean.toFixed(1)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.perSecond.toFixed(1)} |`,
    );
  }
  console.log(
    `\nspeed-up of ours over jsdom + Readability: ${(results[1].mean / results[0].mean).toFixed(1)}x (mean ms/page)`,
  );
}

main();
