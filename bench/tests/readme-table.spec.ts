import { readFileSync } from 'node:fs';

import { README, readmeSection, renderBenchTable, withSection } from '../readme-table';
import type { RunReport } from '../run';
import { row } from '../support/result.util';

describe('README performance table', () => {
  it('is the one generated from bench/results (run bench/readme-table.ts after a full make bench)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(withSection(readme, readmeSection())).toBe(readme);
  });

  it('shows ours, the baseline, the ratio, the target and whether it is met, with the load average', () => {
    const report: RunReport = {
      date: '2026-11-26T13:00:00.000Z',
      quick: false,
      machine: {
        host: 'h',
        cpu: 'CPU',
        cores: 2,
        memoryGiB: 23,
        os: 'Debian',
        kernel: 'k',
        node: 'v20.20.2',
      },
      loadBefore: [1, 1, 1],
      runs: [
        {
          bench: 'gateway',
          ok: true,
          seconds: 10,
          load: [1.5, 2.25],
          result: {
            bench: 'gateway',
            quick: false,
            rows: [
              row({
                metric: 'hits',
                ours: 300,
                baseline: 12_000,
                baselineName: 'bare',
                unit: 'req/s',
                comparison: 'ratio',
                target: { op: '>=', value: 0.25 },
              }),
              row({
                metric: 'p50 overhead',
                ours: 16.3,
                baseline: 2,
                unit: 'ms',
                comparison: 'difference',
                target: { op: '<=', value: 5 },
              }),
            ],
          },
        },
        { bench: 'crawl', ok: false, error: 'exited with 1', seconds: 1, load: [2, 2] },
      ],
    };
    const table = renderBenchTable([report]);
    expect(table).toContain(
      '| gateway: hits | 300 req/s | bare: 12,000 req/s | 0.025× | ≥ 0.25× | **no** | 2026-11-26 13:00, 1.5 → 2.3 |',
    );
    expect(table).toContain('| gateway: p50 overhead | 16.3 ms | 2.00 ms | +14.3 ms | ≤ 5 ms | **no** |');
    expect(table).toContain('Failed: crawl');
    expect(table).toContain('Machine: 2 × CPU, 23 GiB, Debian, Node 20.20.2');
  });
});
