import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { decodeBody } from '../decode/decode-body.util';
import { transformDocument } from '../transform/transform-document.util';
import { scorePage, summarizeByType } from './page-score.util';
import { loadWcxbPages, wcxbDatasetDir } from './wcxb-dataset.util';

/**
 * Word F1 of jsdom + @mozilla/readability + turndown on the same pages (bench/content/README.md,
 * "Quality", measured 2026-11-22): the baseline the extractor must beat on every page type.
 */
const READABILITY: Readonly<Record<string, number>> = {
  all: 0.78,
  article: 0.925,
  collection: 0.525,
  documentation: 0.95,
  forum: 0.389,
  listing: 0.514,
  product: 0.52,
  service: 0.754,
};

/**
 * Regression floors for main-content quality on the WCXB development subset (word F1, as in
 * bench/content/quality.ts), a little under what the extractor scored when they were set, and
 * never under Readability's score for the type: falling to Readability's level fails.
 * Measured 2026-11-25: all 0.887; article 0.956, collection 0.750, documentation 0.959,
 * forum 0.758, listing 0.740, product 0.759, service 0.869.
 */
const FLOORS: Readonly<Record<string, number>> = {
  all: 0.88,
  article: 0.95,
  collection: 0.74,
  documentation: 0.955,
  forum: 0.75,
  listing: 0.73,
  product: 0.75,
  service: 0.86,
};

describe('main-content quality floors', () => {
  it.each(Object.entries(READABILITY))(
    'keeps the floor of %s pages above Readability (%d)',
    (type, readability) => {
      expect(FLOORS[type]).toBeGreaterThan(readability);
    },
  );
});

function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'nx.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

const datasetDir = wcxbDatasetDir(repoRoot(), process.env['WCXB_DIR']);
if (!datasetDir) {
  console.warn(
    [
      '!'.repeat(100),
      `WCXB dataset not found at ${join(repoRoot(), '..', 'shared', 'data', 'wcxb-dev')} (nor WCXB_DIR):`,
      'the main-content QUALITY FLOORS WERE NOT CHECKED. Set WCXB_DIR to the wcxb-dev directory to run them.',
      '!'.repeat(100),
    ].join('\n'),
  );
}

(datasetDir ? describe : describe.skip)('main-content quality on WCXB dev', () => {
  let summaries: ReturnType<typeof summarizeByType>;

  beforeAll(() => {
    const pages = loadWcxbPages(datasetDir as string);
    const scores = pages.map((page) => {
      const { markdown } = transformDocument(
        { body: decodeBody(page.html).text, url: page.url },
        ['markdown'],
        {
          onlyMainContent: true,
          removeBase64Images: true,
        },
      );
      return scorePage(page, markdown ?? '');
    });
    summaries = summarizeByType(scores);
  }, 600_000);

  it.each(Object.entries(FLOORS))('keeps word F1 of %s pages at or above %d', (type, floor) => {
    expect(summaries.get(type)?.f1 ?? 0).toBeGreaterThanOrEqual(floor);
  });
});
