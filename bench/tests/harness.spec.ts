import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { runBenches, type RunReport } from '../run';

/**
 * The aggregator end to end on the cheapest benchmark (PDF fast mode in quick mode: two generated
 * files, one round): the benchmark really runs against its baseline, hands its rows back, and the
 * run is written as JSON with machine and load average — so `make bench` cannot silently rot.
 */
describe('make bench (quick mode, PDF only)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'quarry-bench-results-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the benchmark, compares with pdf-parse and writes one JSON report', async () => {
    const { report, file } = await runBenches({
      only: ['pdf'],
      quick: true,
      resultsDir: dir,
      readme: false,
      prepare: false,
    });
    expect(readdirSync(dir)).toEqual([file.split('/').pop()]);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as RunReport;
    expect(saved).toEqual(report);
    expect(saved.quick).toBe(true);
    expect(saved.machine.cores).toBeGreaterThan(0);
    expect(saved.loadBefore).toHaveLength(3);
    expect(saved.runs).toHaveLength(1);
    const [run] = saved.runs;
    expect(run).toMatchObject({ bench: 'pdf', ok: true });
    const rows = run.result?.rows ?? [];
    // Two files, each with and without blocks.
    expect(rows).toHaveLength(4);
    for (const entry of rows) {
      expect(entry.ours).toBeGreaterThan(0);
      expect(entry.baseline).toBeGreaterThan(0);
      expect(entry.value).toBeCloseTo(entry.ours / (entry.baseline as number), 6);
      expect(typeof entry.pass).toBe('boolean');
    }
  }, 240_000);

  it('refuses an unknown benchmark name', async () => {
    await expect(
      runBenches({ only: ['nope'], quick: true, resultsDir: dir, readme: false, prepare: false }),
    ).rejects.toThrow(/unknown benchmark/);
  });
});
