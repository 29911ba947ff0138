import { type Candidate, candidatesOf, score, TYPE_ONLY } from './answer-candidates.util';
import { labelValue } from './answer-fit.util';
import { escape, matchesText, missingTerms, termMatches, tokenize, weightsFor } from './answer-terms.util';
import { askedDay, openingOn } from './opening-days.util';
import { type FactPage, foldText, type PageFacts, pageFacts } from './page-facts.util';
import { analyzeQuestion, type QuestionFrame } from './question-frame.util';
import { findValues, numericValue, type ValueKind } from './values.util';

/** The answer to a question read from one or more pages, or why there is none. */
export interface ExactAnswer {
  /** The value (a price, a weight, a name…), absent when the pages do not answer the question. */
  answer?: string;
  found: boolean;
  /** Why nothing was answered. */
  reason?: 'missing-terms' | 'no-candidate' | 'weak-evidence' | 'open-question';
  /** The statement the answer was read from. */
  evidence?: string;
  /** Index of the page it came from. */
  page?: number;
  score: number;
  frame: QuestionFrame;
}

const SPECIFIC_KINDS = new Set<ValueKind | undefined>([
  'temperature',
  'speed',
  'power',
  'energy',
  'pressure',
  'torque',
  'frequency',
  'resolution',
  'email',
  'phone',
  'url',
]);
/** Share of the question's content weight that, missing from the pages, means they do not answer it. */
const MISSING_SHARE = 0.4;
/** Share of the question's content (plus cue words) a value needs to be the answer. */
const EVIDENCE = 0.4;
/** The support needed when half of the question's words are not on the pages. */
const DOUBTFUL_EVIDENCE = 0.6;

/**
 * Whether the words the pages never mention make the question one they cannot answer: a missing
 * name or number ("the Enterprise plan", "version 4.0"), or missing words that carry a large share
 * of what the question is about. A paraphrase ("battery charge" for "battery life") leaves most of
 * the question on the page and is scored instead (the missing words lower every value's support).
 */
function unanswerable(
  frame: QuestionFrame,
  pages: readonly PageFacts[],
  missing: readonly string[],
): boolean | 'doubtful' {
  const original = frame.question;
  const entity = missing.some(
    (word) =>
      /\d/.test(word) ||
      new RegExp(`(?<!^)(?<![.?!]\\s)\\b${escape(word[0].toUpperCase() + word.slice(1))}\\b`).test(original),
  );
  if (entity) return true;
  const weighted = weightsFor(frame, pages).filter((entry) => entry.term.required);
  const total = weighted.reduce((sum, entry) => sum + entry.weight, 0);
  const absent = weighted
    .filter((entry) => missing.includes(entry.term.word))
    .reduce((sum, entry) => sum + entry.weight, 0);
  if (total === 0) return true;
  const share = absent / total;
  // Up to half of a typed question's content missing ("How much does a second replacement card
  // cost?"): answered only by a value of the asked kind that the question supports well.
  if (share >= MISSING_SHARE && share <= 0.5 && frame.kinds.length > 0) return 'doubtful';
  return share >= MISSING_SHARE;
}

/**
 * The exact answer to a factual question from pages' main content and structured data: the
 * question's type (price, weight, date, count, person, place…) selects candidate values; each is
 * scored by how much of the question is said about it — in its label (structured data, table
 * header and row, definition, "Label: value"), next to it in its sentence, or in the heading above
 * — with qualifiers ("was", "default", "maximum", "from … to") and prominence breaking ties. A
 * question whose content words the pages never mention, or whose best candidate has too little
 * support, has no answer: the caller says so instead of guessing.
 */
export function exactAnswer(
  inputs: readonly FactPage[],
  question: string,
  options: { pagePrior?: readonly number[] } = {},
): ExactAnswer {
  const frame = analyzeQuestion(question);
  const pages = inputs.map((input, index) => pageFacts(input, index));
  const none = (reason: ExactAnswer['reason']): ExactAnswer => ({ found: false, reason, score: 0, frame });
  if (frame.shape === 'subject') return subjectAnswer(frame, pages, options.pagePrior);
  const missing = frame.shape === 'open' || frame.shape === 'boolean' ? [] : missingTerms(frame, pages);
  let doubtful = false;
  if (missing.length > 0) {
    // A rare, specific kind of value ("what temperature should the oven be") is answered by the one
    // such value on the page even when the page does not repeat the question's other words.
    const specific =
      SPECIFIC_KINDS.has(frame.kinds[0]) &&
      pages.some((page) =>
        page.facts.some((fact) => findValues(fact.value).some((value) => value.kind === frame.kinds[0])),
      );
    if (specific) frame.terms = frame.terms.filter((term) => !missing.includes(term.word));
    else {
      const verdict = unanswerable(frame, pages, missing);
      if (verdict === true) return none('missing-terms');
      doubtful = verdict === 'doubtful';
    }
  }
  if (frame.shape === 'boolean') {
    // "Are they open on Monday?" over "Sun–Mon: closed": the entry for that day.
    const day = askedDay(frame.question);
    const entry = day === undefined ? undefined : openingOn(day, pages);
    if (entry)
      return {
        answer: entry.answer,
        found: true,
        evidence: `${entry.fact.label} ${entry.fact.value}`.trim(),
        page: entry.fact.page,
        score: TYPE_ONLY,
        frame,
      };
  }
  if (frame.shape === 'open' || frame.shape === 'boolean') return none('open-question');

  const weighted = weightsFor(frame, pages);
  const content = weighted.filter((entry) => !entry.term.cue && !entry.term.optional);
  const contentWeight = content.reduce((sum, entry) => sum + entry.weight, 0);
  const candidates: Candidate[] = [];
  for (const page of pages) {
    const prior = options.pagePrior?.[pages.indexOf(page)] ?? 1;
    for (const fact of page.facts) {
      for (const candidate of candidatesOf(frame, fact)) {
        const scored = score(frame, weighted, contentWeight, candidate, fact);
        candidates.push({ ...scored, score: scored.score * prior });
      }
    }
  }
  if (candidates.length === 0) return labelled(frame, pages, options.pagePrior) ?? none('no-candidate');
  preferFullDates(candidates);
  candidates.sort((a, b) => b.score - a.score || a.fact.order - b.fact.order);
  const best = extremeOf(frame, candidates);
  const threshold = doubtful ? DOUBTFUL_EVIDENCE : contentWeight > 0 ? EVIDENCE : TYPE_ONLY;
  if (doubtful && (best.coverage < threshold || best.kind !== frame.kinds[0])) return none('missing-terms');
  if (best.coverage < threshold || best.score <= 0)
    return labelled(frame, pages, options.pagePrior) ?? { ...none('weak-evidence'), score: best.score };
  return {
    answer: rangeEnd(frame, { ...best, text: shownAs(best, pages) }),
    found: true,
    evidence: best.fact.label ? `${best.fact.label}: ${best.fact.value}` : best.fact.value,
    page: best.fact.page,
    score: best.score,
    frame,
  };
}

/**
 * "What's the cheapest monthly price?": of the values about as well supported as the best one
 * (same kind), the smallest; "the longest timeout": the largest.
 */
function extremeOf(frame: QuestionFrame, sorted: readonly Candidate[]): Candidate {
  const top = sorted[0];
  if (!frame.extreme || Number.isNaN(numericValue(top.text))) return top;
  const close = sorted.filter(
    (candidate) =>
      candidate.kind === top.kind &&
      candidate.score >= 0.55 * top.score &&
      !Number.isNaN(numericValue(candidate.text)),
  );
  const sign = frame.extreme === 'min' ? 1 : -1;
  return [...close].sort((a, b) => sign * (numericValue(a.text) - numericValue(b.text)))[0] ?? top;
}

/**
 * "How much is the deposit?" over "Deposit: two months' rent": when no value of the asked kind
 * answers, a labelled value (table cell, definition, "Label: value") whose label says everything
 * the question is about answers as it is written.
 */
function labelled(
  frame: QuestionFrame,
  pages: readonly PageFacts[],
  prior?: readonly number[],
): ExactAnswer | undefined {
  const required = frame.terms.filter((term) => term.required);
  if (frame.shape !== 'value' || frame.kinds.length === 0 || required.length === 0) return undefined;
  const ranked = [...pages.keys()]
    .sort((a, b) => (prior?.[b] ?? 1) - (prior?.[a] ?? 1))
    .map((index) => pages[index]);
  for (const page of ranked)
    for (const fact of page.facts) {
      if (fact.source === 'text' || fact.source === 'structured' || fact.value.length > 60) continue;
      const tokens = tokenize(fact.label);
      const lower = fact.label.toLowerCase();
      if (!required.every((term) => matchesText(term, tokens, lower))) continue;
      // Every word of the label is asked about ("Deposit", not "Deposit for pets").
      if (!tokens.every((token) => frame.terms.some((term) => termMatches(term, token)))) continue;
      return {
        answer: labelValue(fact.value),
        found: true,
        evidence: `${fact.label}: ${fact.value}`,
        page: fact.page,
        score: TYPE_ONLY,
        frame,
      };
    }
  return undefined;
}

/**
 * "When is the festival?" over "Meadowlight Festival 2026" and "Friday 24 to Sunday 26 July 2026":
 * a bare year loses to a well-supported full date of the same year.
 */
function preferFullDates(candidates: Candidate[]): void {
  const dates = candidates.filter((candidate) => candidate.kind === 'date' && candidate.score > 0);
  for (const candidate of candidates) {
    if (candidate.kind !== 'year') continue;
    const fuller = dates.some(
      (date) =>
        date.fact.page === candidate.fact.page &&
        date.text.includes(candidate.text) &&
        date.coverage >= 0.6 * candidate.coverage,
    );
    if (fuller) candidate.score *= 0.7;
  }
}

const MONTHS = 'jan feb mar apr may jun jul aug sep oct nov dec'.split(' ');

/** "3 March 2026", "June 9, 2026", "2026-03-03" → "2026-03-03"; undefined for anything else. */
function isoDate(text: string): string | undefined {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (iso) return iso.slice(1).join('-');
  const dayFirst = /^(?:\p{L}+,?\s)?(\d{1,2})(?:st|nd|rd|th)?\.?\s(\p{L}+)\.?,?\s(\d{4})$/u.exec(text.trim());
  const monthFirst = /^(?:\p{L}+,?\s)?(\p{L}+)\.?\s(\d{1,2})(?:st|nd|rd|th)?,?\s(\d{4})$/u.exec(text.trim());
  const [day, month, year] = dayFirst
    ? [dayFirst[1], dayFirst[2], dayFirst[3]]
    : monthFirst
      ? [monthFirst[2], monthFirst[1], monthFirst[3]]
      : [];
  const index = month ? MONTHS.indexOf(month.slice(0, 3).toLowerCase()) : -1;
  if (index < 0 || !day || !year) return undefined;
  return `${year}-${String(index + 1).padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/**
 * A value read from structured data ("2026-03-03", "€1299") as the page shows it to readers
 * ("3 March 2026", "€1,299.00"), when the page's text holds the same date or amount.
 */
function shownAs(best: Candidate, pages: readonly PageFacts[]): string {
  if (best.fact.source !== 'structured' || (best.kind !== 'date' && best.kind !== 'money')) return best.text;
  const page = pages.find((entry) => entry.facts.includes(best.fact));
  const same = (text: string): boolean =>
    best.kind === 'date'
      ? isoDate(best.text) !== undefined && isoDate(text) === isoDate(best.text)
      : numericValue(text) === numericValue(best.text) &&
        text.replace(/[\d\s.,]+/g, '') === best.text.replace(/[\d\s.,]+/g, '');
  for (const fact of page?.facts ?? []) {
    if (fact.source === 'structured') continue;
    const shown = findValues(fact.value).find((value) => value.kind === best.kind && same(value.text));
    if (shown) return shown.text;
  }
  return best.text;
}

/**
 * A range of times or dates ("from 9:00 to 19:00") answers a question about one of its ends
 * ("What time do they close?") with that end.
 */
function rangeEnd(frame: QuestionFrame, best: Candidate): string {
  const text = clean(best.text);
  // "How cold can it operate?" over "−20 °C to 50 °C": the low end; "maximum …": the high end.
  const low = frame.qualifiers.has('minimum') && !frame.qualifiers.has('maximum');
  const high = frame.qualifiers.has('maximum') && !frame.qualifiers.has('minimum');
  if ((low || high) && best.kind !== 'time' && best.kind !== 'date') {
    const ends = /^(.+?\d.*?)\s+(?:to|until|–|—)\s+([−-]?\d.*)$/.exec(text);
    if (ends && findValues(ends[1]).some((value) => value.kind === best.kind))
      return clean(low ? ends[1] : ends[2]);
    if (ends) return clean(low ? `${ends[1]} ${ends[2].replace(/^[−-]?[\d.,]+\s?/, '')}` : ends[2]);
  }
  const wantEnd = frame.qualifiers.has('end') && !frame.qualifiers.has('start');
  const wantStart = frame.qualifiers.has('start') && !frame.qualifiers.has('end');
  if ((!wantEnd && !wantStart) || (best.kind !== 'time' && best.kind !== 'date')) return text;
  const range = /^(?:from\s+)?(.+?)\s*(?:\s(?:to|until|till)\s|[–—-])\s*(.+)$/i.exec(text);
  if (!range || !/\d/.test(range[1]) || !/\d/.test(range[2])) return text;
  return clean(wantEnd ? range[2] : range[1]);
}

function clean(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/^[,;:\s]+|[,;:\s]+$/g, '')
    .trim();
}

/** "What is sold here": the page's product (structured Product name, or its headline). */
function subjectAnswer(
  frame: QuestionFrame,
  pages: readonly PageFacts[],
  prior?: readonly number[],
): ExactAnswer {
  const ranked = pages
    .map((page, index) => ({ page, index, weight: prior?.[index] ?? 1 }))
    .sort((a, b) => b.weight - a.weight);
  const best = ranked[0]?.page;
  if (!best) return { found: false, reason: 'no-candidate', score: 0, frame };
  const product = best.entities.find((entity) =>
    entity.types.some((type) => /Product|Book|Offer|Vehicle|Service|Course|Event|Recipe/.test(type)),
  );
  const name =
    typeof product?.properties['name'] === 'string'
      ? (product.properties['name'] as string).trim()
      : undefined;
  // The page's own heading is the most specific name; a title carries the site's and variant's names too.
  const headline = best.headline;
  const title = best.title.split(/\s+[|–—-]\s+/)[0]?.trim();
  const answer = headline
    ? name && !foldText(headline).includes(foldText(name))
      ? name
      : headline
    : (name ?? title);
  if (!answer) return { found: false, reason: 'no-candidate', score: 0, frame };
  return { answer, found: true, evidence: headline, page: ranked[0].index, score: 1, frame };
}
