/**
 * Document parsing benchmark (run by hand, once; the lead re-measures on a quiet machine):
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/documents/pdf-bench.ts [rounds] [wcxb-ground-truth-dir] [--no-ocr]
 *
 * BENCH_QUICK=1: the two generated files only (the long one at 20 pages), one round, no OCR.
 *
 * 1. Fast mode pages/s against pdf-parse 2.4.5 (pdf.js text extraction, no layout) on the same files,
 *    in the same run: a generated 3-page layout report, a generated 200-page report, and a long
 *    article printed by Chromium (embedded subset fonts, real typography).
 * 2. OCR seconds per page, Debian tesseract (CLI) and tesseract.js, rendering with pdftoppm.
 * 3. OCR character error rate against the known text of generated pages (scanned at 150 dpi), and
 *    against the embedded text of the Chromium article's first pages.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  buildPdf,
  characterErrorRate,
  longPdf,
  rasterise,
  reportPdf,
  SCANNED_PAGES,
  scannedPageText,
  scannedPdf,
} from '@quarry/documents/fixtures';
import {
  closeDocumentToolkit,
  createDocumentToolkit,
  DEFAULT_DOCUMENT_LIMITS,
  DocumentToolkit,
  parseDocument,
} from '@quarry/documents/parsing';

import { type BenchRow, emitResult, QUICK, row } from '../support/result.util';

// The baseline, loaded through its CommonJS build.
const { PDFParse } = require('pdf-parse') as {
  PDFParse: new (options: { data: Uint8Array }) => {
    getText(): Promise<{ text: string; total: number }>;
    destroy(): Promise<void>;
  };
};

const positional = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const ROUNDS = Number(positional[0] ?? (QUICK ? 1 : 3));
const DATASET =
  positional[1] ??
  (process.env['WCXB_DIR']
    ? join(process.env['WCXB_DIR'], 'ground-truth')
    : join(__dirname, '../../../shared/data/wcxb-dev/ground-truth'));
const OCR = !QUICK && !process.argv.includes('--no-ocr');

async function toolkitWith(ocrEngine: 'tesseract' | 'tesseract-js'): Promise<DocumentToolkit> {
  const { toolkit } = await createDocumentToolkit({
    workers: 1,
    workerMemoryMb: 1024,
    ocrEngine,
    ocrLanguages: 'eng',
    tesseractCommand: 'tesseract',
    renderer: 'auto',
    pdftoppmCommand: 'pdftoppm',
    settings: {
      pageTimeoutMs: 120_000,
      openTimeoutMs: 120_000,
      limits: DEFAULT_DOCUMENT_LIMITS,
      ocrDpi: 200,
      ocrConcurrency: 1,
      maxRenderPixels: 12_000_000,
    },
  });
  await toolkit.pool.warm();
  return toolkit;
}

async function parse(
  toolkit: DocumentToolkit,
  data: Buffer,
  mode: 'fast' | 'ocr',
  maxPages?: number,
  blocks = false,
) {
  return parseDocument(toolkit, {
    kind: 'pdf',
    data,
    filename: 'bench.pdf',
    pdf: { mode, pages: true, blocks, pageMarkers: false, ...(maxPages ? { maxPages } : {}) },
    content: { formats: ['markdown'], onlyMainContent: true, removeBase64Images: true },
    budget: { deadline: Date.now() + 600_000 },
  });
}

/** A long article (the longest ground-truth texts of the WCXB sample) printed to PDF by Chromium. */
function chromiumArticle(): Buffer {
  const texts = readdirSync(DATASET)
    .map(
      (file) =>
        JSON.parse(readFileSync(join(DATASET, file), 'utf8')) as {
          ground_truth?: { title?: string; main_content?: string };
        },
    )
    .map((entry) => ({
      title: entry.ground_truth?.title ?? '',
      text: entry.ground_truth?.main_content ?? '',
    }))
    .sort((a, b) => b.text.length - a.text.length)
    .slice(0, 3);
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const sections = texts
    .map(
      ({ title, text }, index) =>
        `<h1>${escape(title)}</h1>` +
        `<div style="${index === 1 ? 'column-count:2;column-gap:28px' : ''}">` +
        text
          .split(/\n+/)
          .filter((line) => line.trim())
          .map((line) =>
            line.length < 80 && !/[.!?]$/.test(line) ? `<h2>${escape(line)}</h2>` : `<p>${escape(line)}</p>`,
          )
          .join('') +
        '</div>',
    )
    .join('');
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-'));
  try {
    writeFileSync(
      join(dir, 'article.html'),
      `<!doctype html><html><head><meta charset="utf-8"><style>body{font-family:'Liberation Serif',serif;font-size:11pt;margin:0}h1{font-size:20pt}h2{font-size:14pt}</style></head><body>${sections}</body></html>`,
    );
    execFileSync(
      '/usr/bin/chromium',
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-pdf-header-footer',
        `--print-to-pdf=${join(dir, 'article.pdf')}`,
        `file://${join(dir, 'article.html')}`,
      ],
      { stdio: 'ignore', timeout: 120_000 },
    );
    return readFileSync(join(dir, 'article.pdf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function pageCount(pdf: Buffer): number {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-'));
  try {
    writeFileSync(join(dir, 'f.pdf'), pdf);
    return Number(
      /Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [join(dir, 'f.pdf')]).toString())?.[1] ?? '0',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rounds go on past `rounds` until this much time was measured (a 3-page file takes ~20 ms a round). */
const MIN_MEASURED_MS = QUICK ? 0 : 1500;

/** Mean ms per run, after a warm-up: at least `rounds` runs and at least MIN_MEASURED_MS of them. */
async function timeIt(rounds: number, run: () => Promise<unknown>): Promise<number> {
  await run(); // warm-up (JIT, fonts)
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
  let done = 0;
  while (done < rounds || elapsed() < MIN_MEASURED_MS) {
    await run();
    done += 1;
  }
  return elapsed() / done;
}

const plain = (markdown: string) =>
  markdown
    .replace(/^#+ /gm, '')
    .replace(/^[-*] /gm, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+/g, ' ')
    .trim();

async function main(): Promise<void> {
  const files: { name: string; data: Buffer }[] = [
    { name: 'report (pdfkit, 3 p)', data: await reportPdf() },
    { name: `long (pdfkit, ${QUICK ? 20 : 200} p)`, data: await longPdf(QUICK ? 20 : 200) },
    ...(QUICK ? [] : [{ name: 'article (Chromium)', data: chromiumArticle() }]),
  ];
  const fast = await toolkitWith('tesseract');
  console.log(
    `\nFast mode (embedded text + layout, with and without blocks) vs pdf-parse ${(JSON.parse(readFileSync('node_modules/pdf-parse/package.json', 'utf8')) as { version: string }).version} getText(), mean of at least ${ROUNDS} rounds and ${MIN_MEASURED_MS} ms of them after a warm-up\n`,
  );
  console.log(
    'file                      pages  blocks ms  blocks p/s  no-blocks ms  no-blocks p/s  pdf-parse ms  pdf-parse p/s  ratio blocks  ratio no-blocks',
  );
  const totals = { blocks: 0, plain: 0, theirs: 0, pages: 0 };
  const rows: BenchRow[] = [];
  const perFile: Record<string, unknown>[] = [];
  const baselineName = 'pdf-parse 2.4.5 getText()';
  for (const file of files) {
    const pages = pageCount(file.data);
    const withBlocks = await timeIt(ROUNDS, () => parse(fast, file.data, 'fast', undefined, true));
    const ours = await timeIt(ROUNDS, () => parse(fast, file.data, 'fast'));
    const theirs = await timeIt(ROUNDS, async () => {
      const parser = new PDFParse({ data: new Uint8Array(file.data) });
      await parser.getText();
      await parser.destroy();
    });
    totals.blocks += withBlocks;
    totals.plain += ours;
    totals.theirs += theirs;
    totals.pages += pages;
    perFile.push({ file: file.name, pages, blocksMs: withBlocks, noBlocksMs: ours, pdfParseMs: theirs });
    const rate = (ms: number) => (pages * 1000) / ms;
    rows.push(
      row({
        metric: `PDF fast mode with layout and blocks, ${file.name}`,
        ours: rate(withBlocks),
        baseline: rate(theirs),
        baselineName,
        unit: 'pages/s',
        comparison: 'ratio',
        target: { op: '>=', value: 1 },
      }),
      row({
        metric: `PDF fast mode without blocks, ${file.name}`,
        ours: rate(ours),
        baseline: rate(theirs),
        baselineName,
        unit: 'pages/s',
        comparison: 'ratio',
        target: { op: '>=', value: 1.5 },
      }),
    );
    console.log(
      `${file.name.padEnd(24)} ${String(pages).padStart(6)} ${withBlocks.toFixed(0).padStart(10)} ${rate(withBlocks).toFixed(1).padStart(11)} ${ours.toFixed(0).padStart(13)} ${rate(ours).toFixed(1).padStart(14)} ${theirs.toFixed(0).padStart(13)} ${rate(theirs).toFixed(1).padStart(14)} ${(theirs / withBlocks).toFixed(2).padStart(13)} ${(theirs / ours).toFixed(2).padStart(16)}`,
    );
  }
  const all = (ms: number) => (totals.pages * 1000) / ms;
  console.log(
    `${'all files'.padEnd(24)} ${String(totals.pages).padStart(6)} ${totals.blocks.toFixed(0).padStart(10)} ${all(totals.blocks).toFixed(1).padStart(11)} ${totals.plain.toFixed(0).padStart(13)} ${all(totals.plain).toFixed(1).padStart(14)} ${totals.theirs.toFixed(0).padStart(13)} ${all(totals.theirs).toFixed(1).padStart(14)} ${(totals.theirs / totals.blocks).toFixed(2).padStart(13)} ${(totals.theirs / totals.plain).toFixed(2).padStart(16)}`,
  );
  emitResult('pdf', rows, { rounds: ROUNDS, files: perFile, ocr: OCR });
  if (!OCR) {
    await closeDocumentToolkit(fast);
    return;
  }

  // OCR: generated pages with known text, scanned at 150 dpi, and the first pages of the Chromium article.
  const scanned = await scannedPdf(150);
  const article = files[2].data;
  const articlePages = 3;
  const articleTruth =
    (await parse(fast, article, 'fast', articlePages)).pages?.map((page) => plain(page.markdown)) ?? [];
  const articleScan = await buildPdf((doc) =>
    rasterise(article, 150)
      .slice(0, articlePages)
      .forEach((png, index) => {
        if (index > 0) doc.addPage();
        doc.image(png, 0, 0, { width: 612, height: 792 });
      }),
  );
  await closeDocumentToolkit(fast);
  console.log('\nOCR (pdftoppm at 200 dpi, one page at a time)\n');
  console.log('engine          document                       pages   s/page    CER');
  for (const engine of ['tesseract', 'tesseract-js'] as const) {
    const toolkit = await toolkitWith(engine);
    try {
      for (const [name, data, truths] of [
        ['generated scan (150 dpi)', scanned, SCANNED_PAGES.map((page) => scannedPageText(page))],
        ['Chromium article scan (150 dpi)', articleScan, articleTruth],
      ] as const) {
        await parse(toolkit, data, 'ocr', 1); // warm-up
        const started = Date.now();
        const output = await parse(toolkit, data, 'ocr');
        const seconds = (Date.now() - started) / 1000 / truths.length;
        const errors = truths.map((truth, index) =>
          characterErrorRate(plain(truth), plain(output.pages?.[index]?.markdown ?? '')),
        );
        const cer = errors.reduce((sum, value) => sum + value, 0) / errors.length;
        console.log(
          `${engine.padEnd(15)} ${name.padEnd(30)} ${String(truths.length).padStart(5)} ${seconds.toFixed(2).padStart(8)} ${(cer * 100).toFixed(2).padStart(6)}%`,
        );
      }
    } finally {
      await closeDocumentToolkit(toolkit);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
