/**
 * Memory of the one-process server (`make start`: memory bus, PGlite): RSS idle after start, RSS
 * after each round of 1,000 scrapes of a fixture page (maxAge 0: every one fetched, converted,
 * stored and billed), and a leak check: what stays reachable must not keep growing across repeated
 * rounds. After each round the server runs two full garbage collections (bench/support/gc-signal.preload.cjs,
 * on a signal) and reports its V8 heap; RSS is read after that too. The first round fills pools,
 * caches and JIT code, so growth is counted from the end of round 1 to the end of the last round, and
 * the heap in use after collection must stay within 10 % of its size after round 1. RSS growth is
 * reported beside it: it also holds PGlite's WebAssembly memory, where the stored jobs partly live
 * (data, not a leak), and what the allocator keeps after the collector freed it.
 *
 *   make build && SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/memory/memory-check.ts [scrapesPerRound=1000] [rounds=3]
 *
 * BENCH_QUICK=1: 3 rounds of 40 scrapes.
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { BASIC_SITE, startBasicSite } from '@quarry/testing';

import { startStandalone } from '../../apps/platform-e2e/src/support/platform';
import { emitResult, QUICK, row, rssMb } from '../support/result.util';

const PER_ROUND = Number(process.argv[2] ?? (QUICK ? 40 : 1_000));
const ROUNDS = Number(process.argv[3] ?? 3);
const CONCURRENCY = 4;
const LEAK_TOLERANCE = 0.1;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Median of a few samples a quarter second apart (RSS moves with GC). */
async function settledRss(pid: number): Promise<number> {
  await sleep(2_000);
  const samples: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    samples.push(rssMb(pid));
    await sleep(250);
  }
  return samples.sort((a, b) => a - b)[2];
}

const GC_FILE = join(tmpdir(), `quarry-memory-check-${process.pid}.json`);
const PRELOAD = join(__dirname, '../support/gc-signal.preload.cjs');

/** The server's V8 heap in use after two full collections, in MB. */
async function heapAfterGc(pid: number): Promise<number> {
  rmSync(GC_FILE, { force: true });
  const before = Date.now();
  process.kill(pid, 'SIGWINCH');
  for (;;) {
    await sleep(100);
    try {
      const usage = JSON.parse(readFileSync(GC_FILE, 'utf8')) as { heapUsed: number };
      return usage.heapUsed / 1024 / 1024;
    } catch {
      if (Date.now() - before > 30_000)
        throw new Error('the server did not report its heap after a collection');
    }
  }
}

async function main(): Promise<void> {
  const site = await startBasicSite();
  const platform = await startStandalone(
    {
      RATE_LIMIT_PER_MINUTE: '0',
      BOOTSTRAP_CREDITS: '100000000',
      NODE_OPTIONS: `--require ${PRELOAD}`,
      BENCH_GC_FILE: GC_FILE,
    },
    { readyTimeoutMs: 300_000 },
  );
  const pid = platform.gateways[0].process.pid as number;
  const url = `${site.url}/article`;
  try {
    const idle = await settledRss(pid);
    process.stderr.write(`idle RSS ${idle.toFixed(1)} MB\n`);
    const afterRound: number[] = [];
    const heapAfter: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next++ < PER_ROUND) {
            const response = await fetch(`${platform.url()}/v2/scrape`, {
              method: 'POST',
              headers: { authorization: `Bearer ${platform.apiKey}`, 'content-type': 'application/json' },
              body: JSON.stringify({ url, maxAge: 0 }),
            });
            const body = (await response.json()) as { data?: { markdown?: string } };
            if (!body.data?.markdown?.includes(BASIC_SITE.articleMarker))
              throw new Error(`unexpected response ${JSON.stringify(body).slice(0, 300)}`);
          }
        }),
      );
      heapAfter.push(await heapAfterGc(pid));
      afterRound.push(await settledRss(pid));
      process.stderr.write(
        `after round ${round + 1} (${PER_ROUND} scrapes): heap after GC ${heapAfter[round].toFixed(1)} MB, RSS ${afterRound[round].toFixed(1)} MB\n`,
      );
    }
    const last = ROUNDS - 1;
    const heapGrowth = heapAfter[last] - heapAfter[0];
    const rssGrowth = afterRound[last] - afterRound[0];
    console.log(
      `\nOne-process server: idle RSS ${idle.toFixed(1)} MB; after each round of ${PER_ROUND} scrapes: heap after GC ${heapAfter.map((mb) => mb.toFixed(1)).join(' / ')} MB, RSS ${afterRound.map((mb) => mb.toFixed(1)).join(' / ')} MB; growth after round 1: heap ${heapGrowth.toFixed(1)} MB (allowed ${(LEAK_TOLERANCE * heapAfter[0]).toFixed(1)} MB), RSS ${rssGrowth.toFixed(1)} MB`,
    );
    emitResult(
      'memory',
      [
        row({
          metric: 'one-process server RSS, idle after start',
          ours: idle,
          unit: 'MB',
          comparison: 'value',
        }),
        row({
          metric: `one-process server RSS after ${PER_ROUND} scrapes (after a full GC)`,
          ours: afterRound[0],
          unit: 'MB',
          comparison: 'value',
        }),
        row({
          metric: `leak check: V8 heap in use after a full GC, growth over rounds 2–${ROUNDS} of ${PER_ROUND} scrapes, share of round 1`,
          ours: heapGrowth / heapAfter[0],
          unit: 'share',
          comparison: 'value',
          target: { op: '<=', value: LEAK_TOLERANCE },
          note: `${heapAfter.map((mb) => mb.toFixed(1)).join(' / ')} MB`,
        }),
        row({
          metric: `RSS growth over rounds 2–${ROUNDS} (after a full GC), share of round 1`,
          ours: rssGrowth / afterRound[0],
          unit: 'share',
          comparison: 'value',
          note: `${afterRound.map((mb) => mb.toFixed(1)).join(' / ')} MB`,
        }),
      ],
      {
        perRound: PER_ROUND,
        rounds: ROUNDS,
        concurrency: CONCURRENCY,
        idleMb: idle,
        afterRoundMb: afterRound,
        heapAfterGcMb: heapAfter,
      },
    );
  } finally {
    await platform.stop();
    await site.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
