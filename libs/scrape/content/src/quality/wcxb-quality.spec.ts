import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { decodeBody } from '../decode/decode-body.util';
import { transformDocument } from '../transform/transform-document.util';
import { scorePage, summarizeByType } from './page-score.util';
import { loadWcxbPages, wcxbDatasetDir } from './wcxb-dataset.util';

/**
 * Regression floors for main-content quality on the WCXB development subset (word F1, as in
 * bench/content/quality.ts), a little under what the extractor scored when they were set.
 * Measured 2026-11-22: all 0.879; article 0.952, collection 0.747, documentation 0.959,
 * forum 0.740, listing 0.715, product 0.731, service 0.864.
 */
const FLOORS: Readonly<Record<string, number>> = {
  all: 0.86,
  article: 0.94,
  collection: 0.72,
  documentation: 0.945,
  forum: 0.71,
  listing: 0.69,
  product: 0.7,
  service: 0.845,
};

function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'nx.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

const datasetDir = wcxbDatasetDir(repoRoot(), process.env['WCXB_DIR']);
if (!datasetDir) {
  console.warn(
    'WCXB dataset not found at ../shared/data/wcxb-dev (relative to the repo root): quality floors skipped.',
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
