import { nearPrefix, stem } from '../text/tokens.util';
import { groupsOf, phraseGroups } from './lexicon.util';
import { foldText, type PageFacts } from './page-facts.util';
import { type QuestionFrame, type QuestionTerm, ROLE_VERBS } from './question-frame.util';
import { GENERIC_NOUNS, WEAK_SYNONYMS } from './question-words.util';
import { relationTo } from './wordnet-lexicon.util';

// How the words of a question meet the words of the pages (exactAnswer): tokens, term matches and
// the weight of each question term.

export interface Token {
  term: string;
  lower: string;
  start: number;
  end: number;
  segment: number;
}

const WORD = /[\p{L}\p{N}]+(?:[.,'’][\p{L}\p{N}]+)*/gu;
export const SEGMENT_BREAK = /(?:,\s|;\s|\s[·•|+]\s|\s(?:and|but|while|whereas|or)\s|\s[–—]\s)/g;

export function tokenize(text: string): Token[] {
  const breaks: number[] = [];
  for (const match of text.matchAll(SEGMENT_BREAK)) breaks.push(match.index ?? 0);
  const tokens: Token[] = [];
  for (const match of text.matchAll(WORD)) {
    const start = match.index ?? 0;
    const lower = match[0].toLowerCase();
    tokens.push({
      term: stem(lower),
      lower,
      start,
      end: start + match[0].length,
      segment: breaks.filter((at) => at < start).length,
    });
  }
  return tokens;
}

/** Whether a page token is the question's own word: same stem, a near-prefix ("weigh"/"weight"), a compound's head. */
export function sameWord(term: QuestionTerm, token: string): boolean {
  if (token === term.term || token.replace(/e$/, '') === term.term.replace(/e$/, '')) return true;
  // "loaves"/"loaf", "knives"/"knife", "shelves"/"shelf".
  if (token.length >= 4 && token.replace(/v$/, 'f') === term.term.replace(/v$/, 'f')) return true;
  if (nearPrefix(term.term, token) && Math.abs(token.length - term.term.length) <= 3) return true;
  // A compound and its head ("smartwatch"/"watch", "underwater"/"water").
  return compoundOf(term.term, token) || compoundOf(token, term.term);
}

/** Whether a page word (stemmed) is in one of the question term's hand-lexicon groups. */
export function sameGroup(term: QuestionTerm, token: string): boolean {
  if (term.groups.length === 0) return false;
  return groupsOf(token).some((group) => term.groups.includes(group));
}

/**
 * How closely a page token says a question term: 1 for the word itself ({@link sameWord}), 0.85
 * for a hand-lexicon synonym (0.6 for a loose one), the WordNet relation's strength (0.45–0.75)
 * otherwise, 0 when unrelated.
 */
export function termStrength(term: QuestionTerm, token: Pick<Token, 'term' | 'lower'>): number {
  if (sameWord(term, token.term)) return 1;
  if (sameGroup(term, token.term)) return WEAK_SYNONYMS.has(token.term) ? 0.6 : 0.85;
  return relationTo(term.related, token.lower);
}

/** Whether a question term matches a page token: the same word, a hand-lexicon or a WordNet relative. */
export function termMatches(term: QuestionTerm, token: Pick<Token, 'term' | 'lower'>): boolean {
  return termStrength(term, token) > 0;
}

/** Whether `whole` is a closed compound ending in `head` ("smartwatch" and "watch"). */
function compoundOf(whole: string, head: string): boolean {
  return head.length >= 4 && whole.length >= head.length + 3 && whole.endsWith(head) && !/\d/.test(whole);
}

export function matchesText(
  term: QuestionTerm,
  tokens: readonly Token[],
  lower: string,
  atLeast = Number.MIN_VALUE,
): boolean {
  return textStrength(term, tokens, lower) >= atLeast;
}

/**
 * The weakest WordNet relation that shows a page mentions a question's word: a synonym, an
 * attribute or a derived form; a hypernym or hyponym alone ("record" and "entry") does not.
 */
export const MENTIONED = 0.7;

/**
 * How closely a text (a label, a heading) says a question term: 1 for the word or a hand-lexicon
 * synonym (a word or a phrase), a WordNet relation's strength, 0 when it does not.
 */
export function textStrength(term: QuestionTerm, tokens: readonly Token[], lower: string): number {
  let best = 0;
  for (const token of tokens) {
    if (sameWord(term, token.term) || sameGroup(term, token.term)) return 1;
    best = Math.max(best, relationTo(term.related, token.lower));
  }
  if (term.groups.length > 0 && phraseGroups(lower).some((group) => term.groups.includes(group))) return 1;
  return best;
}

export function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface Weighted {
  term: QuestionTerm;
  weight: number;
  /** Pages whose headline or title has the term: what those pages are about, not what tells their facts apart. */
  subjectOf: Set<number>;
  /** Pages whose sentences use the term somewhere. */
  usedOn: Set<number>;
}

export function weightsFor(frame: QuestionFrame, pages: readonly PageFacts[]): Weighted[] {
  // How rare a word is, and whether a page is about it, go by the word and its hand synonyms, not
  // by its WordNet relatives ("light" is not what a page titled "Bright Lamps" is about).
  const said = (term: QuestionTerm, token: Token) => termStrength(term, token) >= 0.85;
  const perPage = pages.map((page) =>
    page.facts.filter((fact) => fact.source === 'text').map((fact) => tokenize(fact.value)),
  );
  const sentences = perPage.flat();
  const total = Math.max(1, sentences.length);
  return frame.terms.map((term) => {
    const frequency = sentences.filter((tokens) => tokens.some((token) => said(term, token))).length;
    const idf = Math.log(1 + total / Math.max(1, frequency));
    const subjectOf = new Set<number>();
    const usedOn = new Set<number>();
    pages.forEach((page, index) => {
      if (tokenize(`${page.headline} ${page.title}`).some((token) => said(term, token))) subjectOf.add(index);
      if (perPage[index].some((tokens) => tokens.some((token) => said(term, token)))) usedOn.add(index);
    });
    const weight = term.cue ? 1 : Math.min(3, Math.max(0.6, idf));
    return {
      term,
      weight:
        GENERIC_NOUNS.has(term.word) && !term.required
          ? 0.5
          : ROLE_VERBS.has(term.word)
            ? Math.min(weight, 1)
            : weight,
      subjectOf,
      usedOn,
    };
  });
}

/** Terms of the question the pages never mention, not even by a synonym. */
export function missingTerms(frame: QuestionFrame, pages: readonly PageFacts[]): string[] {
  const vocabulary = pages.map((page) => {
    const lower = page.vocabulary.toLowerCase();
    return { tokens: tokenize(page.vocabulary), lower, folded: foldText(page.vocabulary) };
  });
  return frame.terms
    .filter((term) => term.required && !ROLE_VERBS.has(term.word))
    .filter(
      (term) =>
        !vocabulary.some(
          (page) =>
            matchesText(term, page.tokens, page.lower, MENTIONED) ||
            (/\d/.test(term.word) && page.folded.includes(foldText(term.word))),
        ),
    )
    .map((term) => term.word);
}
