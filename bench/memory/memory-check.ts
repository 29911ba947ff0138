/**
 * Memory of the one-process server (`make start`: memory bus, PGlite): RSS idle after start, RSS
 * after each round of 1,000 scrapes of a fixture page (maxAge 0: every one fetched, converted,
 * stored and billed), and a leak check: RSS must not keep growing across repeated rounds. The first
 * round fills pools, caches and JIT code, so growth is counted from the end of round 1 to the end of
 * the last round, and must stay within 10 % of RSS after round 1 (PGlite keeps the jobs it stores
 * partly in memory, so a little growth is data, not a leak).
 *
 *   make build && SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/memory/memory-check.ts [scrapesPerRound=1000] [rounds=3]
 *
 * BENCH_QUICK=1: 3 rounds of 40 scrapes.
 */
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

async function main(): Promise<void> {
  const site = await startBasicSite();
  const platform = await startStandalone(
    { RATE_LIMIT_PER_MINUTE: '0', BOOTSTRAP_CREDITS: '100000000' },
    { readyTimeoutMs: 300_000 },
  );
  const pid = platform.gateways[0].process.pid as number;
  const url = `${site.url}/article`;
  try {
    const idle = await settledRss(pid);
    process.stderr.write(`idle RSS ${idle.toFixed(1)} MB\n`);
    const afterRound: number[] = [];
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
      afterRound.push(await settledRss(pid));
      process.stderr.write(
        `after round ${round + 1} (${PER_ROUND} scrapes): RSS ${afterRound[round].toFixed(1)} MB\n`,
      );
    }
    const growth = afterRound[afterRound.length - 1] - afterRound[0];
    const allowed = LEAK_TOLERANCE * afterRound[0];
    console.log(
      `\nOne-process server RSS: idle ${idle.toFixed(1)} MB; after each round of ${PER_ROUND} scrapes: ${afterRound.map((mb) => mb.toFixed(1)).join(' / ')} MB; growth after round 1: ${growth.toFixed(1)} MB (allowed ${allowed.toFixed(1)} MB)`,
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
          metric: `one-process server RSS after ${PER_ROUND} scrapes`,
          ours: afterRound[0],
          unit: 'MB',
          comparison: 'value',
        }),
        row({
          metric: `leak check: RSS growth over rounds 2–${ROUNDS} of ${PER_ROUND} scrapes, share of RSS after round 1`,
          ours: growth / afterRound[0],
          unit: 'share',
          comparison: 'value',
          target: { op: '<=', value: LEAK_TOLERANCE },
          note: `${growth.toFixed(1)} MB`,
        }),
      ],
      {
        perRound: PER_ROUND,
        rounds: ROUNDS,
        concurrency: CONCURRENCY,
        idleMb: idle,
        afterRoundMb: afterRound,
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
