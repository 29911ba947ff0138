import type { FetchedPage } from '@quarry/scrape/engine';
import {
  type CorpusPage,
  JS_PAGES,
  JS_PAGES_HELDOUT,
  JS_PAGES_HELDOUT_2,
  STATIC_PAGES,
  STATIC_PAGES_HELDOUT,
  STATIC_PAGES_HELDOUT_2,
} from '@quarry/testing';

import { needsJavaScript, staticText } from './js-need.util';

const fetched = (page: CorpusPage): FetchedPage => ({
  engine: 'http',
  url: `http://127.0.0.1/page/${page.id}`,
  status: 200,
  headers: {},
  contentType: 'text/html; charset=utf-8',
  body: Buffer.from(page.html),
});

interface Score {
  missed: string[];
  wronglyFlagged: string[];
  falseNegativeRate: number;
  falsePositiveRate: number;
}

function score(jsPages: readonly CorpusPage[], staticPages: readonly CorpusPage[]): Score {
  const missed = jsPages.filter((page) => !needsJavaScript(fetched(page))).map((page) => page.id);
  const wronglyFlagged = staticPages
    .map((page) => ({ page, reason: needsJavaScript(fetched(page)) }))
    .filter((entry) => entry.reason)
    .map((entry) => `${entry.page.id} (${entry.reason})`);
  return {
    missed,
    wronglyFlagged,
    falseNegativeRate: missed.length / jsPages.length,
    falsePositiveRate: wronglyFlagged.length / staticPages.length,
  };
}

function report(
  name: string,
  jsPages: readonly CorpusPage[],
  staticPages: readonly CorpusPage[],
  result: Score,
) {
  process.stdout.write(
    `\nJavaScript detection, ${name}: ${jsPages.length} JavaScript pages, ${staticPages.length} static pages; ` +
      `false-negative rate ${(100 * result.falseNegativeRate).toFixed(1)}% (${result.missed.length}), ` +
      `false-positive rate ${(100 * result.falsePositiveRate).toFixed(1)}% (${result.wronglyFlagged.length})\n` +
      (result.missed.length ? `  missed: ${result.missed.join(', ')}\n` : '') +
      (result.wronglyFlagged.length ? `  wrongly flagged: ${result.wronglyFlagged.join(', ')}\n` : ''),
  );
}

describe('JavaScript detection on the fixture corpus', () => {
  it('is a fair corpus: JavaScript markers are not in the served text, static markers are', () => {
    for (const page of [...JS_PAGES, ...JS_PAGES_HELDOUT, ...JS_PAGES_HELDOUT_2])
      expect([page.id, staticText(page.html).includes(page.marker)]).toEqual([page.id, false]);
    for (const page of [...STATIC_PAGES, ...STATIC_PAGES_HELDOUT, ...STATIC_PAGES_HELDOUT_2])
      expect([page.id, staticText(page.html).includes(page.marker)]).toEqual([page.id, true]);
    expect(JS_PAGES.length).toBeGreaterThanOrEqual(20);
    expect(STATIC_PAGES.length).toBeGreaterThanOrEqual(20);
  });

  // Every set flags each of its JavaScript pages and leaves each static page on HTTP. First
  // measurements: the held-out set 0/10 missed and 2/10 short static pages with their own bundle
  // rendered (the short-page rule they prompted makes it 0/10 and 0/10, in-sample since); the second
  // held-out set, written after that rule, 0/10 and 0/10.
  it.each([
    ['tuning set', JS_PAGES, STATIC_PAGES],
    ['held-out set', JS_PAGES_HELDOUT, STATIC_PAGES_HELDOUT],
    ['second held-out set', JS_PAGES_HELDOUT_2, STATIC_PAGES_HELDOUT_2],
  ] as const)(
    '%s: flags the JavaScript pages and leaves the static ones on HTTP',
    (name, jsPages, staticPages) => {
      const result = score(jsPages, staticPages);
      report(name, jsPages, staticPages, result);
      expect(result.falseNegativeRate).toBeLessThanOrEqual(0);
      expect(result.falsePositiveRate).toBeLessThanOrEqual(0);
    },
  );
});
