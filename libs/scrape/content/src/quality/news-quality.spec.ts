import { decodeBody } from '../decode/decode-body.util';
import { transformDocument } from '../transform/transform-document.util';
import { repoRootOf } from './dataset-dir.util';
import { markdownToText } from './markdown-to-text.util';
import { loadNewsPages, newsDatasetDir } from './news-dataset.util';
import { type NewsSummary, scoreNewsPage, summarizeNews } from './news-score.util';

/** Page URL for pages whose canonical URL the dataset does not know. */
const NO_URL = 'http://localhost/';

/**
 * The best other open extractor on the same pages (bench/content/README.md, "Quality", all 951 pages):
 * trafilatura 2.3.1 on the Dragnet pages (4-token shingle F1) and the trafilatura-eval snippets.
 */
const BEST_ANCHOR = { dragnetShingleF1: 0.936, withRate: 0.95, withoutRate: 0.92 };

/**
 * Regression floors for main-content quality on news-dev, a little under what the extractor scored
 * when they were set. Measured 2026-12-02 (bench/content/quality.ts, all pages): Dragnet (400 pages)
 * shingle P 0.958, R 0.959, F1 0.958; trafilatura-eval (551 pages) with 97%, without 89%.
 */
const FLOORS = {
  dragnetShingleF1: 0.952,
  dragnetShinglePrecision: 0.95,
  dragnetShingleRecall: 0.95,
  withRate: 0.96,
  withoutRate: 0.87,
};

describe('news main-content quality floors', () => {
  it('keeps the floors above the best other extractor', () => {
    expect(FLOORS.dragnetShingleF1).toBeGreaterThan(BEST_ANCHOR.dragnetShingleF1);
    expect(FLOORS.withRate).toBeGreaterThan(BEST_ANCHOR.withRate);
  });
});

describe('main-content quality on news-dev', () => {
  const dir = newsDatasetDir(repoRootOf(__dirname), process.env['NEWS_DIR']);
  let dragnet: NewsSummary;
  let snippets: NewsSummary;

  beforeAll(() => {
    // A missing dataset fails the suite: the floors are the lib's guard against quality regressions.
    if (!dir) {
      throw new Error(
        'news-dev dataset not found (shared/data/news-dev beside the repository or a parent of it, or NEWS_DIR): the quality floors cannot be checked',
      );
    }
    const scores = loadNewsPages(dir).map((page) => {
      const { markdown } = transformDocument(
        { body: decodeBody(page.html).text, url: page.url ?? NO_URL },
        ['markdown'],
        { onlyMainContent: true, removeBase64Images: true },
      );
      return scoreNewsPage(page, markdownToText(markdown ?? ''));
    });
    dragnet = summarizeNews(scores.filter((s) => s.source === 'dragnet'));
    snippets = summarizeNews(scores.filter((s) => s.source === 'trafilatura-eval'));
  }, 600_000);

  it('keeps the Dragnet 4-token shingle F1, precision and recall at their floors', () => {
    expect(dragnet.shingle.f1).toBeGreaterThanOrEqual(FLOORS.dragnetShingleF1);
    expect(dragnet.shingle.precision).toBeGreaterThanOrEqual(FLOORS.dragnetShinglePrecision);
    expect(dragnet.shingle.recall).toBeGreaterThanOrEqual(FLOORS.dragnetShingleRecall);
  });

  it('keeps the trafilatura-eval snippet rates at their floors', () => {
    expect(snippets.withRate).toBeGreaterThanOrEqual(FLOORS.withRate);
    expect(snippets.withoutRate).toBeGreaterThanOrEqual(FLOORS.withoutRate);
  });
});
