import { markdownToText } from './markdown-to-text.util';
import type { WcxbPage } from './wcxb-dataset.util';
import { containsSnippet, snippetHaystack, wordF1 } from './word-f1.util';

export interface PageScore {
  id: string;
  pageType: string;
  precision: number;
  recall: number;
  f1: number;
  withHits: number;
  withTotal: number;
  withoutAvoided: number;
  withoutTotal: number;
}

export interface ScoreSummary {
  pages: number;
  precision: number;
  recall: number;
  f1: number;
  /** Fraction of `with` snippets found. */
  withRate: number;
  /** Fraction of `without` snippets absent. */
  withoutRate: number;
}

/** Scores extracted markdown against a page's reference, WCXB-style. */
export function scorePage(page: WcxbPage, markdown: string): PageScore {
  return scorePageText(page, markdownToText(markdown));
}

/** Scores extracted plain text against a page's reference, WCXB-style. */
export function scorePageText(page: WcxbPage, text: string): PageScore {
  const { precision, recall, f1 } = wordF1(text, page.mainContent);
  const haystack = snippetHaystack(text);
  return {
    id: page.id,
    pageType: page.pageType,
    precision,
    recall,
    f1,
    withHits: page.withSnippets.filter((s) => containsSnippet(haystack, s)).length,
    withTotal: page.withSnippets.length,
    withoutAvoided: page.withoutSnippets.filter((s) => !containsSnippet(haystack, s)).length,
    withoutTotal: page.withoutSnippets.length,
  };
}

/** Mean F1 over pages; snippet rates pooled over all snippets. */
export function summarize(scores: readonly PageScore[]): ScoreSummary {
  const n = scores.length || 1;
  const sum = (pick: (s: PageScore) => number) => scores.reduce((acc, s) => acc + pick(s), 0);
  return {
    pages: scores.length,
    precision: sum((s) => s.precision) / n,
    recall: sum((s) => s.recall) / n,
    f1: sum((s) => s.f1) / n,
    withRate: sum((s) => s.withHits) / (sum((s) => s.withTotal) || 1),
    withoutRate: sum((s) => s.withoutAvoided) / (sum((s) => s.withoutTotal) || 1),
  };
}

/** Summaries per page type plus an `all` row. */
export function summarizeByType(scores: readonly PageScore[]): Map<string, ScoreSummary> {
  const types = [...new Set(scores.map((s) => s.pageType))].sort();
  const out = new Map<string, ScoreSummary>();
  for (const type of types) out.set(type, summarize(scores.filter((s) => s.pageType === type)));
  out.set('all', summarize(scores));
  return out;
}
