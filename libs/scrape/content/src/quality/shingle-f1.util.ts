/**
 * 4-token shingle matching, the article-body metric of news extraction benchmarks
 * (bench/content/README.md, "Shingle F1"): tokens are `\w+` runs (Unicode word characters, case kept),
 * a shingle is a run of 4 consecutive tokens (a text of 1–3 tokens is one shingle), both texts are
 * multisets of shingles, and a page's true positives, false positives and false negatives are divided
 * by their sum so that long pages do not weigh more.
 */
export interface ShingleCounts {
  tp: number;
  fp: number;
  fn: number;
}

export interface ShingleScores {
  precision: number;
  recall: number;
  f1: number;
}

const TOKEN = /[\p{L}\p{N}_]+/gu;
const SHINGLE = 4;
const SEP = '\u0001';

function shingles(text: string): Map<string, number> {
  const tokens = text.match(TOKEN) ?? [];
  const counts = new Map<string, number>();
  const last = Math.max(1, tokens.length - SHINGLE + 1);
  for (let i = 0; i < last; i++) {
    const shingle = tokens.slice(i, i + SHINGLE);
    if (shingle.length === 0) continue;
    const key = shingle.join(SEP);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** A page's shingle counts, normalised to sum to 1 (all zero when both texts are empty). */
export function shingleCounts(reference: string, predicted: string): ShingleCounts {
  const ref = shingles(reference);
  const pred = shingles(predicted);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [key, p] of pred) {
    const r = ref.get(key) ?? 0;
    tp += Math.min(p, r);
    fp += Math.max(0, p - r);
  }
  for (const [key, r] of ref) fn += Math.max(0, r - (pred.get(key) ?? 0));
  const sum = tp + fp + fn;
  return sum > 0 ? { tp: tp / sum, fp: fp / sum, fn: fn / sum } : { tp, fp, fn };
}

function pagePrecision({ tp, fp, fn }: ShingleCounts): number {
  if (fp === 0 && fn === 0) return 1;
  return tp + fp === 0 ? 0 : tp / (tp + fp);
}

function pageRecall({ tp, fp, fn }: ShingleCounts): number {
  if (fp === 0 && fn === 0) return 1;
  return tp + fn === 0 ? 0 : tp / (tp + fn);
}

/**
 * Precision is the mean page precision over pages with a prediction (tp + fp > 0), recall the mean
 * page recall over pages with a reference (tp + fn > 0), F1 their harmonic mean.
 */
export function shingleScores(pages: readonly ShingleCounts[]): ShingleScores {
  const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
  const precision = mean(pages.filter((c) => c.tp + c.fp > 0).map(pagePrecision));
  const recall = mean(pages.filter((c) => c.tp + c.fn > 0).map(pageRecall));
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}
