import { nearPrefix, stem, words } from '../text/tokens.util';
import { MENTIONED } from './answer-terms.util';
import { type ExactAnswer, exactAnswer } from './exact-answer.util';
import { groupsOf, phraseGroups } from './lexicon.util';
import type { FactPage } from './page-facts.util';
import { extractiveAnswer } from './passage-ranking.util';
import type { QuestionFrame } from './question-frame.util';
import { relationTo } from './wordnet-lexicon.util';

export interface OfflineAnswer {
  answer: string;
  /** Index of the page it was read from. */
  page: number;
  /** `exact`: a value read by type; `passage`: the best sentence of an open question. */
  via: 'exact' | 'passage';
}

/**
 * The offline answer to a question or task over pages: the exact value when the question asks
 * for one (a price, a weight, a date, a name…); for open questions ("why", "how do I", yes/no,
 * "what does X do") the best-matching sentence. Undefined when the pages do not answer it: a
 * question whose content words they never mention, or a typed question with no supported value.
 */
export function offlineAnswer(
  pages: readonly FactPage[],
  question: string,
  pagePrior?: readonly number[],
): OfflineAnswer | undefined {
  const exact: ExactAnswer = exactAnswer(pages, question, { pagePrior });
  if (exact.found && exact.answer) return { answer: exact.answer, page: exact.page ?? 0, via: 'exact' };
  if (exact.reason === 'missing-terms') return undefined;
  const frame = exact.frame;
  // A question asking for a value (a price, a date, a name…) that no value answers is "not found".
  const typed = frame.kinds.length > 0 || ['person', 'place', 'org', 'subject'].includes(frame.shape);
  if (typed) return undefined;
  const pageOf = (markdown: string) =>
    Math.max(
      0,
      pages.findIndex((page) => page.markdown.includes(markdown.trim())),
    );
  const found = extractiveAnswer(
    pages.map((page) => page.markdown).join('\n\n'),
    frame.question,
    pagePrior ? (passage) => pagePrior[pageOf(passage.markdown)] ?? 1 : undefined,
  );
  // Open questions: the best sentence, when it says at least half of what is asked; yes/no
  // questions: when it mentions everything asked about ("Is there a parking space?" needs parking).
  const needed = frame.shape === 'boolean' ? 0.67 : 0.5;
  if (!found.answer || sentenceCoverage(frame, `${found.source?.heading ?? ''} ${found.answer}`) < needed)
    return undefined;
  return { answer: found.answer, page: pageOf(found.source?.markdown ?? found.answer), via: 'passage' };
}

/** Share of the question's required words (or their synonyms) a sentence contains; 0 when it has none. */
function sentenceCoverage(frame: QuestionFrame, sentence: string): number {
  const required = frame.terms.filter((term) => term.required);
  if (required.length + frame.phraseGroups.length === 0) return 0;
  const lower = sentence.toLowerCase();
  const present = new Set(words(lower).map(stem));
  const groups = new Set([...[...present].flatMap(groupsOf), ...phraseGroups(lower)]);
  const forms = words(lower);
  const found = required.filter(
    (term) =>
      present.has(term.term) ||
      // A WordNet synonym, attribute or derived form ("grown-up" and "adults").
      forms.some((form) => relationTo(term.related, form) >= MENTIONED) ||
      [...present].some((word) => nearPrefix(word, term.term)) ||
      term.groups.some((group) => groups.has(group)),
  );
  const phrases = frame.phraseGroups.filter((group) => groups.has(group));
  return (found.length + phrases.length) / (required.length + frame.phraseGroups.length);
}
