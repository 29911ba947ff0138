import { Bm25 } from '../text/bm25.util';
import { type Passage, splitPassages } from '../text/passages.util';
import { nearPrefix, sentences, terms } from '../text/tokens.util';

export interface RankedPassage {
  passage: Passage;
  score: number;
}

type AnswerType = 'number' | 'date' | 'person' | 'any';

/** What kind of answer a question asks for (used as a weak ranking signal). */
export function answerTypeOf(question: string): AnswerType {
  const q = question.toLowerCase();
  if (/^\s*when\b|\bwhat (year|date|time)\b/.test(q)) return 'date';
  if (/^\s*who\b|\bwhose\b/.test(q)) return 'person';
  if (
    /\bhow (much|many|long|far|tall|big|heavy|old|often|fast|high|wide|deep|loud|noisy)\b|\bwhat is the (price|cost|size|weight|height|length)\b/.test(
      q,
    )
  )
    return 'number';
  return 'any';
}

const HAS_NUMBER = /\d/;
const HAS_DATE =
  /\b(1[5-9]\d\d|20\d\d)\b|\b\d{1,2} (january|february|march|april|may|june|july|august|september|october|november|december)\b/i;
const HAS_NAME = /\b\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+\b/u;

function fitsType(text: string, type: AnswerType): boolean {
  if (type === 'number') return HAS_NUMBER.test(text);
  if (type === 'date') return HAS_DATE.test(text);
  if (type === 'person') return HAS_NAME.test(text);
  return false;
}

/**
 * Ranks a page's passages for a question or query: BM25 on the passage (with its table header),
 * a smaller share for the heading above it, a bonus when the passage holds the kind of value asked
 * for, and penalties for navigation-like (link-dense) and very short passages.
 */
export function rankPassages(markdown: string, query: string): RankedPassage[] {
  const passages = splitPassages(markdown, { maxSentences: 2 }).filter(
    (passage) => passage.kind !== 'heading',
  );
  if (passages.length === 0) return [];
  const queryTerms = expandByPrefix(terms(query), new Set(passages.flatMap((passage) => passage.terms)));
  if (queryTerms.length === 0) return [];
  const bm25 = new Bm25(passages.map((passage) => passage.terms));
  const headingBm25 = new Bm25(passages.map((passage) => terms(passage.heading)));
  const type = answerTypeOf(query);
  const ranked = passages.map((passage, index) => {
    let score = bm25.score(queryTerms, index) + 0.35 * headingBm25.score(queryTerms, index);
    if (score > 0 && fitsType(passage.text, type)) score *= 1.25;
    if (passage.linkDensity > 0.5) score *= 0.2;
    const length = passage.text.split(/\s+/).length;
    if (length < 4) score *= 0.6;
    return { passage, score };
  });
  return ranked
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.passage.index - b.passage.index);
}

/** The score of the page's best passage for `query` (0 for none): how well the page answers it. */
export function bestPassageScore(markdown: string, query: string): number {
  return rankPassages(markdown, query)[0]?.score ?? 0;
}

/** Adds page terms that extend a query term ("weigh" → "weight"), a cheap stand-in for morphology. */
function expandByPrefix(queryTerms: string[], vocabulary: ReadonlySet<string>): string[] {
  const expanded = new Set(queryTerms);
  for (const term of queryTerms) {
    if (term.length < 4) continue;
    for (const candidate of vocabulary)
      if (
        candidate.length > term.length &&
        candidate.length - term.length <= 3 &&
        nearPrefix(candidate, term)
      )
        expanded.add(candidate);
  }
  return [...expanded];
}

/** A table row as "Header: cell; Header: cell", other passages as their text. */
function readable(passage: Passage, markdown: string): string {
  if (passage.kind !== 'table') return passage.text;
  const lines = markdown.split('\n');
  const at = lines.findIndex((line) => line === passage.markdown);
  let headerLine: string | undefined;
  for (let index = at - 1; index >= 0; index -= 1) {
    if (!lines[index].trim().startsWith('|')) break;
    headerLine = lines[index];
  }
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((cell) => cell.trim());
  const row = cells(passage.markdown);
  const header = headerLine && headerLine !== passage.markdown ? cells(headerLine) : [];
  if (header.length !== row.length) return row.join(' — ');
  // A two-column key/value table reads best as "key: value".
  if (row.length === 2) return `${row[0]}: ${row[1]}`;
  return row.map((cell, index) => `${header[index]}: ${cell}`).join('; ');
}

export interface ExtractiveAnswer {
  answer: string | undefined;
  source?: Passage;
  score: number;
}

/**
 * Offline answer to a question: the best sentence of the best-ranked passage (with its neighbour
 * when the sentence alone is very short), or undefined when nothing on the page matches.
 */
export function extractiveAnswer(
  markdown: string,
  question: string,
  /** A prior per passage (e.g. how much its page is about the question), multiplied into its score. */
  prior: (passage: Passage) => number = () => 1,
): ExtractiveAnswer {
  const [best] = rankPassages(markdown, question)
    .map((entry) => ({ ...entry, score: entry.score * prior(entry.passage) }))
    .sort((a, b) => b.score - a.score || a.passage.index - b.passage.index);
  if (!best) return { answer: undefined, score: 0 };
  if (best.passage.kind === 'table')
    return { answer: readable(best.passage, markdown), source: best.passage, score: best.score };
  const parts = sentences(best.passage.text);
  if (parts.length <= 1) return { answer: best.passage.text, source: best.passage, score: best.score };
  // Question terms weighted by how rare they are on the page: the subject's name ("Halden Logistics")
  // is everywhere, the word that asks the question ("warehouses") is not.
  const pageSentences = splitPassages(markdown).flatMap((passage) =>
    sentences(passage.text).map((text) => new Set(terms(text))),
  );
  const queryTerms = expandByPrefix(terms(question), new Set(pageSentences.flatMap((set) => [...set])));
  const weight = new Map(
    queryTerms.map((term) => {
      const frequency = pageSentences.filter((set) => set.has(term)).length;
      return [term, Math.log(1 + pageSentences.length / Math.max(1, frequency))];
    }),
  );
  const scored = parts.map((sentence, index) => {
    const sentenceTerms = terms(sentence);
    const present = [...new Set(sentenceTerms)].filter((term) => weight.has(term));
    const overlap = present.reduce((sum, term) => sum + (weight.get(term) ?? 0), 0);
    return {
      index,
      score:
        overlap / Math.sqrt(Math.max(1, sentenceTerms.length)) +
        (fitsType(sentence, answerTypeOf(question)) ? 0.2 : 0),
    };
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  const chosen = scored[0].index;
  let answer = parts[chosen];
  if (answer.split(/\s+/).length < 6 && parts[chosen + 1]) answer = `${answer} ${parts[chosen + 1]}`;
  return { answer, source: best.passage, score: best.score };
}

/** Offline highlights: the most relevant passages, verbatim, best first. */
export function extractiveHighlights(markdown: string, query: string, limit = 3): string[] {
  const ranked = rankPassages(markdown, query);
  if (ranked.length === 0) return [];
  const top = ranked[0].score;
  return ranked
    .filter((entry) => entry.score >= top * 0.35)
    .slice(0, limit)
    .map((entry) =>
      entry.passage.kind === 'table' ? readable(entry.passage, markdown) : entry.passage.markdown.trim(),
    );
}
