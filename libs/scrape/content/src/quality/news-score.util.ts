import { collapseWhitespace, type NewsPage, type NewsSource } from './news-dataset.util';
import { type ShingleCounts, shingleCounts, shingleScores } from './shingle-f1.util';
import { wordF1 } from './word-f1.util';

export interface NewsPageScore {
  id: string;
  source: NewsSource;
  /** Dragnet pages: normalised shingle counts against the gold text. */
  shingles?: ShingleCounts;
  /** Dragnet pages: word F1 against the gold text (the dataset README's metric). */
  wordF1?: number;
  withHits: number;
  withTotal: number;
  withoutAvoided: number;
  withoutTotal: number;
}

export interface NewsSummary {
  pages: number;
  /** Dragnet pages: 4-token shingle precision, recall and F1 (bench/content/README.md). */
  shingle: { precision: number; recall: number; f1: number };
  /** Dragnet pages: mean word F1. */
  wordF1: number;
  /** trafilatura-eval pages: share of `with` snippets found, of `without` snippets absent (pooled). */
  withRate: number;
  withoutRate: number;
}

/** Scores an extractor's plain text for one news page (markdown is turned into text by the caller). */
export function scoreNewsPage(page: NewsPage, text: string): NewsPageScore {
  const haystack = collapseWhitespace(text);
  const found = (snippet: string) => haystack.includes(collapseWhitespace(snippet));
  const score: NewsPageScore = {
    id: page.id,
    source: page.source,
    withHits: page.withSnippets.filter(found).length,
    withTotal: page.withSnippets.length,
    withoutAvoided: page.withoutSnippets.filter((s) => !found(s)).length,
    withoutTotal: page.withoutSnippets.length,
  };
  if (page.mainContent !== null) {
    score.shingles = shingleCounts(page.mainContent, text);
    score.wordF1 = wordF1(text, page.mainContent).f1;
  }
  return score;
}

export function summarizeNews(scores: readonly NewsPageScore[]): NewsSummary {
  const gold = scores.filter((s) => s.shingles !== undefined);
  const sum = (pick: (s: NewsPageScore) => number) => scores.reduce((acc, s) => acc + pick(s), 0);
  return {
    pages: scores.length,
    shingle: shingleScores(gold.map((s) => s.shingles as ShingleCounts)),
    wordF1: gold.reduce((acc, s) => acc + (s.wordF1 ?? 0), 0) / (gold.length || 1),
    withRate: sum((s) => s.withHits) / (sum((s) => s.withTotal) || 1),
    withoutRate: sum((s) => s.withoutAvoided) / (sum((s) => s.withoutTotal) || 1),
  };
}
