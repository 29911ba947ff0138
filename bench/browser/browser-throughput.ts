/**
 * Browser throughput: pages/s for a JavaScript-rendered fixture page through the scrape engine
 * (HTTP first, JavaScript detected, Chromium render in a fresh incognito context behind the guard
 * proxy, automatic wait) at worker concurrency 1, 2 and 4, against a bare puppeteer loop on the
 * same page (one browser, a new page per visit in the default context, `goto` + wait for the
 * rendered element), and against the same loop opening a fresh incognito context per page (the
 * isolation the engine gives every job). All use the same Chromium and flags. Chromium CPU per page
 * is the CPU of the browser's process tree over the measured pages. Run:
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/browser/browser-throughput.ts [pagesPerLevel=24] [chromium]
 *
 * BENCH_QUICK=1: 4 pages at concurrency 1 and 2.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import puppeteer from 'puppeteer-core';

import { scrapeRequestSchema } from '@quarry/contracts';
import { AddressPolicy, GuardedHttpClient } from '@quarry/platform/net';
import { BrowserEngine, BrowserPool, ProxyPools } from '@quarry/scrape/browser';
import { HttpEngine } from '@quarry/scrape/engine';

import { emitResult, QUICK, row, treeCpuSeconds } from '../support/result.util';

const CHROMIUM = process.argv[3] ?? '/usr/bin/chromium';
const PAGES = Number(process.argv[2] ?? (QUICK ? 4 : 24));
const WARMUP = QUICK ? 1 : 3;
const LEVELS = QUICK ? [1, 2] : [1, 2, 4];
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--mute-audio',
];

const PAGE = `<!doctype html><html><head><title>Loading</title></head><body><div id="root"></div>
<script>setTimeout(() => {
  document.getElementById('root').innerHTML = '<main><h1>Rendered</h1>' + Array.from({ length: 30 }, (_, i) => '<p>Paragraph ' + i + ' rendered by JavaScript with some words.</p>').join('') + '</main>';
  document.title = 'Rendered';
}, 50);</script></body></html>`;

async function runLoops(
  concurrency: number,
  total: number,
  visit: (index: number) => Promise<void>,
): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let index = next++; index < total; index = next++) await visit(index);
    }),
  );
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function main(): Promise<void> {
  const server = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
  const policy = new AddressPolicy(false, ['127.0.0.1']);
  const client = new GuardedHttpClient(policy, { userAgent: 'QuarryBench/1.0', maxBytes: 10 * 1024 * 1024 });
  interface Level {
    level: number;
    ours: number;
    bare: number;
    incognito: number;
    /** Chromium CPU ms per page (browser process tree). */
    oursCpuMs: number;
    bareCpuMs: number;
    incognitoCpuMs: number;
  }
  const results: Level[] = [];

  for (const level of LEVELS) {
    // The scrape engine as a worker runs it: BROWSER_CONCURRENCY = level.
    const pool = await BrowserPool.launch({
      executablePath: CHROMIUM,
      concurrency: level,
      policy,
      maxTransferBytes: 100 * 1024 * 1024,
    });
    const engine = new BrowserEngine({
      http: new HttpEngine(client),
      pool,
      proxies: new ProxyPools({ basic: [], enhanced: [] }),
      settings: { teamConcurrency: level, settleMs: 3_000, maxDocumentBytes: 10 * 1024 * 1024 },
    });
    const request = scrapeRequestSchema.parse({ url });
    const scrape = async () => {
      const page = await engine.fetch(request, {
        jobId: 'bench',
        signal: AbortSignal.timeout(60_000),
        timeoutMs: 60_000,
      });
      if (page.engine !== 'browser' || !page.text?.includes('Paragraph 29'))
        throw new Error('the engine did not render the page');
    };
    await runLoops(level, WARMUP, scrape);
    const poolPid = pool.processId as number;
    const oursCpuBefore = treeCpuSeconds(poolPid);
    const oursSeconds = await runLoops(level, PAGES, scrape);
    const oursCpuMs = ((treeCpuSeconds(poolPid) - oursCpuBefore) * 1000) / PAGES;
    await pool.close();
    process.stderr.write(`concurrency ${level}: engine ${(PAGES / oursSeconds).toFixed(2)} pages/s\n`);

    // Baseline: a bare puppeteer loop on the same page.
    const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
    const visit = async () => {
      const page = await browser.newPage();
      await page.goto(url, { waitUntil: 'load' });
      await page.waitForSelector('main p:nth-child(30)');
      const html = await page.content();
      if (!html.includes('Paragraph 29')) throw new Error('baseline did not render the page');
      await page.close();
    };
    await runLoops(level, WARMUP, visit);
    const barePid = browser.process()?.pid as number;
    const bareCpuBefore = treeCpuSeconds(barePid);
    const bareSeconds = await runLoops(level, PAGES, visit);
    const bareCpuMs = ((treeCpuSeconds(barePid) - bareCpuBefore) * 1000) / PAGES;
    process.stderr.write(`concurrency ${level}: bare loop ${(PAGES / bareSeconds).toFixed(2)} pages/s\n`);

    // Baseline 2: the same loop, each page in a fresh incognito context (isolation like the engine's).
    const visitIncognito = async () => {
      const context = await browser.createBrowserContext();
      try {
        const page = await context.newPage();
        await page.goto(url, { waitUntil: 'load' });
        await page.waitForSelector('main p:nth-child(30)');
        const html = await page.content();
        if (!html.includes('Paragraph 29')) throw new Error('baseline did not render the page');
      } finally {
        await context.close();
      }
    };
    await runLoops(level, WARMUP, visitIncognito);
    const incognitoCpuBefore = treeCpuSeconds(barePid);
    const incognitoSeconds = await runLoops(level, PAGES, visitIncognito);
    const incognitoCpuMs = ((treeCpuSeconds(barePid) - incognitoCpuBefore) * 1000) / PAGES;
    await browser.close();
    process.stderr.write(
      `concurrency ${level}: bare loop, incognito context per page ${(PAGES / incognitoSeconds).toFixed(2)} pages/s\n`,
    );

    results.push({
      level,
      ours: PAGES / oursSeconds,
      bare: PAGES / bareSeconds,
      incognito: PAGES / incognitoSeconds,
      oursCpuMs,
      bareCpuMs,
      incognitoCpuMs,
    });
  }
  await client.close();
  server.close();

  console.log(
    `\nBrowser throughput, JS fixture page, ${PAGES} pages per level (node ${process.version}, ${CHROMIUM})\n`,
  );
  console.log(
    '| worker concurrency | scrape engine (pages/s) | bare loop (pages/s) | bare loop, incognito per page (pages/s) | engine/bare | engine/incognito | Chromium CPU ms/page: engine / bare / incognito |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const level of results)
    console.log(
      `| ${level.level} | ${level.ours.toFixed(2)} | ${level.bare.toFixed(2)} | ${level.incognito.toFixed(2)} | ${(level.ours / level.bare).toFixed(2)} | ${(level.ours / level.incognito).toFixed(2)} | ${level.oursCpuMs.toFixed(0)} / ${level.bareCpuMs.toFixed(0)} / ${level.incognitoCpuMs.toFixed(0)} |`,
    );
  const scaling = results.map((level) => (level.ours / results[0].ours).toFixed(2)).join(' : ');
  console.log(`\nengine scaling ${LEVELS.join(' : ')} = ${scaling}`);
  emitResult(
    'browser',
    results.flatMap((level) => [
      row({
        metric: `JS page pages/s, concurrency ${level.level}, vs bare loop with incognito context per page`,
        ours: level.ours,
        baseline: level.incognito,
        baselineName: 'puppeteer loop, fresh incognito context per page',
        unit: 'pages/s',
        comparison: 'ratio',
        target: { op: '>=', value: 0.8 },
      }),
      row({
        metric: `JS page pages/s, concurrency ${level.level}, vs bare loop (default context)`,
        ours: level.ours,
        baseline: level.bare,
        baselineName: 'puppeteer loop, new page in the default context',
        unit: 'pages/s',
        comparison: 'ratio',
      }),
      row({
        metric: `Chromium CPU per page, concurrency ${level.level} (engine / incognito loop)`,
        ours: level.oursCpuMs,
        baseline: level.incognitoCpuMs,
        baselineName: 'puppeteer loop, fresh incognito context per page',
        unit: 'CPU ms/page',
        comparison: 'ratio',
        target: { op: '<=', value: 1.5 },
      }),
    ]),
    { pagesPerLevel: PAGES, levels: results },
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
