import { splitPassages } from '../text/passages.util';
import { sentences, terms } from '../text/tokens.util';

export interface SummaryOptions {
  title?: string;
  /** Upper bound of the summary length in characters. */
  maxChars?: number;
}

interface Candidate {
  order: number;
  text: string;
  vector: Map<string, number>;
  score: number;
}

function vectorOf(tokens: readonly string[]): Map<string, number> {
  const vector = new Map<string, number>();
  for (const token of tokens) vector.set(token, (vector.get(token) ?? 0) + 1);
  return vector;
}

function cosine(
  a: Map<string, number>,
  b: Map<string, number>,
  weight: (term: string) => number = () => 1,
): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [term, value] of a) {
    const w = weight(term);
    na += (value * w) ** 2;
    const other = b.get(term);
    if (other) dot += value * other * w * w;
  }
  for (const [term, value] of b) nb += (value * weight(term)) ** 2;
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * Offline summary: picks the sentences closest to the page's overall content (cosine to the
 * term-frequency centroid of the prose), favouring early sentences and those that share words with
 * the title, skipping navigation-like passages and near-duplicates; keeps page order.
 */
export function extractiveSummary(markdown: string, options: SummaryOptions = {}): string {
  const maxChars = options.maxChars ?? 700;
  const passages = splitPassages(markdown, { maxSentences: 1_000 }).filter(
    (passage) =>
      (passage.kind === 'paragraph' || passage.kind === 'list' || passage.kind === 'quote') &&
      passage.linkDensity < 0.5,
  );
  const candidates: Candidate[] = [];
  for (const passage of passages) {
    for (const sentence of sentences(passage.text)) {
      const count = sentence.split(/\s+/).length;
      if (count < 6 || count > 80) continue;
      candidates.push({
        order: candidates.length,
        text: sentence,
        vector: vectorOf(terms(sentence)),
        score: 0,
      });
    }
  }
  if (candidates.length === 0) {
    const fallback = passages.map((passage) => passage.text).join(' ');
    return fallback.slice(0, maxChars).trim();
  }
  const centroid = new Map<string, number>();
  const documentFrequency = new Map<string, number>();
  for (const candidate of candidates) {
    for (const [term, value] of candidate.vector) {
      centroid.set(term, (centroid.get(term) ?? 0) + value);
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    }
  }
  // Terms in nearly every sentence carry no topic; rare terms little more than noise: weight by a smoothed idf.
  const idf = (term: string) => Math.log(1 + candidates.length / (documentFrequency.get(term) ?? 1));
  const titleTerms = new Set(terms(options.title ?? ''));
  for (const candidate of candidates) {
    let score = cosine(candidate.vector, centroid, idf);
    if (titleTerms.size > 0) {
      const shared = [...candidate.vector.keys()].filter((term) => titleTerms.has(term)).length;
      score += 0.15 * Math.min(1, shared / Math.min(4, titleTerms.size));
    }
    score += 0.12 * Math.max(0, 1 - candidate.order / 6);
    candidate.score = score;
  }
  const wanted = candidates.length <= 3 ? candidates.length : candidates.length <= 12 ? 2 : 3;
  const chosen: Candidate[] = [];
  let length = 0;
  for (const candidate of [...candidates].sort((a, b) => b.score - a.score)) {
    if (chosen.length >= wanted) break;
    if (chosen.some((other) => cosine(other.vector, candidate.vector) > 0.6)) continue;
    if (length + candidate.text.length > maxChars && chosen.length > 0) continue;
    chosen.push(candidate);
    length += candidate.text.length + 1;
  }
  return chosen
    .sort((a, b) => a.order - b.order)
    .map((candidate) => candidate.text)
    .join(' ')
    .slice(0, Math.max(maxChars, chosen[0]?.text.length ?? 0));
}
