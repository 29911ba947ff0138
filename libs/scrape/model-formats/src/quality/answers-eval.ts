import { OfflineProvider } from '@quarry/llm';
import { transformDocument } from '@quarry/scrape/content';
import { extractiveAnswer, terms } from '@quarry/scrape/formats';

import { ExtractionService, type PageInput } from '../lib/extraction.service';
import { readSections } from './labelled-fixtures';

/** One question of the evaluation set: `expected` null when the answer is not on the page. */
export interface EvalQuestion {
  page: string;
  kind: string;
  text: string;
  /** `?` questions are asked as the question format and as tasks; `!` lines only as tasks. */
  task: boolean;
  expected: string[] | null;
}

export interface EvalPage {
  id: string;
  kind: string;
  input: PageInput;
}

export interface EvalSet {
  pages: EvalPage[];
  questions: EvalQuestion[];
}

/** Reads `answers-tuning.md` / `answers-heldout.md`: pages as HTML, then their questions. */
export function loadAnswerSet(file: string): EvalSet {
  const pages: EvalPage[] = [];
  const questions: EvalQuestion[] = [];
  for (const section of readSections(file)) {
    const [html, block = ''] = section.body.split(/^--- questions ---$/m);
    const url = `https://fixtures.example/${section.id}`;
    const markdown =
      transformDocument({ body: html, url }, ['markdown'], {
        onlyMainContent: true,
        removeBase64Images: true,
      }).markdown ?? '';
    const title = /<title>([^<]*)<\/title>/i.exec(html)?.[1]?.trim();
    pages.push({ id: section.id, kind: section.label ?? '', input: { url, markdown, html, title } });
    for (const line of block.split('\n')) {
      const match = /^([?!])\s*(.+?)\s*=>\s*(.+)$/.exec(line.trim());
      if (!match) continue;
      const answers = match[3].trim();
      questions.push({
        page: section.id,
        kind: section.label ?? '',
        text: match[2].trim(),
        task: match[1] === '!',
        expected: answers === '-' ? null : answers.split('|').map((answer) => answer.trim()),
      });
    }
  }
  return { pages, questions };
}

/**
 * Comparison form of an answer: case, accents, dashes, multiplication signs and spacing folded,
 * and a leading modifier ("up to", "about", "from", "by", "within"…) or a trailing period ("per
 * day", "/ month") ignored on both sides.
 */
export function normalizeAnswer(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(
      /^(?:up to|more than|less than|over|under|about|around|approximately|nearly|almost|at least|at most|from|by|within|every|only|just)\s+/,
      '',
    )
    .replace(/\s*(?:\s(?:per|a|an|each)\s|\/)\s*(?:day|night|week|month|year|person|hour|user|seat)$/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[–—−]/g, '-')
    .replace(/×/g, 'x')
    .replace(/\s+/g, '')
    .replace(/[.,;:!?]+$/, '');
}

export const QUESTION_NOT_FOUND = 'The page does not appear to contain an answer to this question.';
export const TASK_NOT_FOUND = 'None of the pages read appear to answer the task.';

export interface Outcome {
  question: EvalQuestion;
  got: string;
  correct: boolean;
}

export interface Scores {
  /** Questions whose answer is on the page, answered exactly. */
  answered: number;
  answerable: number;
  /** Questions whose answer is not on the page, answered "not found". */
  abstained: number;
  unanswerable: number;
  outcomes: Outcome[];
}

/** Exact match after normalisation; a count may name what it counts ("40 warehouses" for "40", "five courses" for "five"). */
function judge(question: EvalQuestion, got: string, notFound: string): boolean {
  if (question.expected === null) return got === notFound;
  const normalized = normalizeAnswer(got);
  return question.expected.some((answer) => {
    const expected = normalizeAnswer(answer);
    if (expected === normalized) return true;
    return (
      /^(?:[\d.,]+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)$/.test(expected) &&
      normalized.startsWith(expected) &&
      /^\p{L}[\p{L}-]*$/u.test(normalized.slice(expected.length))
    );
  });
}

function tally(outcomes: Outcome[]): Scores {
  const answerable = outcomes.filter((outcome) => outcome.question.expected !== null);
  const unanswerable = outcomes.filter((outcome) => outcome.question.expected === null);
  return {
    answered: answerable.filter((outcome) => outcome.correct).length,
    answerable: answerable.length,
    abstained: unanswerable.filter((outcome) => outcome.correct).length,
    unanswerable: unanswerable.length,
    outcomes,
  };
}

const service = new ExtractionService(new OfflineProvider(4_096, 100_000));

/** The `question` scrape format offline, one page at a time. */
export async function scoreQuestionFormat(set: EvalSet): Promise<Scores> {
  const outcomes: Outcome[] = [];
  for (const question of set.questions.filter((entry) => !entry.task)) {
    const page = set.pages.find((entry) => entry.id === question.page) as EvalPage;
    const result = await service.answer(page.input, question.text);
    outcomes.push({
      question,
      got: result.value,
      correct: judge(question, result.value, QUESTION_NOT_FOUND),
    });
  }
  return tally(outcomes);
}

/**
 * The fallback as it was before the exact answers (issue 15): the best-matching sentence, or "not
 * found" only when no passage shares a word with the question. Scored the same way.
 */
export function scoreBaseline(set: EvalSet): Scores {
  const outcomes: Outcome[] = [];
  for (const question of set.questions.filter((entry) => !entry.task)) {
    const page = set.pages.find((entry) => entry.id === question.page) as EvalPage;
    const got = extractiveAnswer(page.input.markdown, question.text).answer ?? QUESTION_NOT_FOUND;
    outcomes.push({ question, got, correct: judge(question, got, QUESTION_NOT_FOUND) });
  }
  return tally(outcomes);
}

/** Whether a task names what it is about (shares a content word with its page's title or first heading). */
export function namesItsSubject(question: EvalQuestion, page: EvalPage): boolean {
  const subject = new Set(
    terms(`${page.input.title ?? ''} ${/^#\s+(.+)$/m.exec(page.input.markdown)?.[1] ?? ''}`),
  );
  return terms(question.text).some((term) => subject.has(term));
}

/**
 * Free-text extract jobs and agent runs (no schema), offline. `pages: 1`: the task over its own
 * page (an extract job with one URL). `pages: 3`: the task over its page and two other pages of
 * the set, for the tasks that name their subject ("How much is the Ridgeline 12?"; "What does it
 * cost?" over three product pages has no single answer).
 */
export async function scoreTasks(set: EvalSet, pages: 1 | 3): Promise<Scores> {
  const outcomes: Outcome[] = [];
  for (const [index, question] of set.questions.entries()) {
    const page = set.pages.find((entry) => entry.id === question.page) as EvalPage;
    if (pages === 3 && !namesItsSubject(question, page)) continue;
    const others = set.pages.filter((entry) => entry.id !== question.page);
    const inputs =
      pages === 1
        ? [page.input]
        : [others[index % others.length].input, page.input, others[(index * 7 + 3) % others.length].input];
    const result = await service.extractFromPages(inputs, { prompt: question.text });
    const answer = String((result.value as { answer?: unknown }).answer ?? '');
    outcomes.push({ question, got: answer, correct: judge(question, answer, TASK_NOT_FOUND) });
  }
  return tally(outcomes);
}

export function describe(name: string, scores: Scores): string {
  const pct = (part: number, whole: number) => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;
  const misses = scores.outcomes
    .filter((outcome) => !outcome.correct)
    .map(
      (outcome) =>
        `  ${outcome.question.page}: "${outcome.question.text}" → "${outcome.got.slice(0, 70)}" (want ${outcome.question.expected?.join(' | ') ?? 'not found'})`,
    );
  return (
    `${name}: exact answers ${scores.answered}/${scores.answerable} (${pct(scores.answered, scores.answerable)}), ` +
    `"not found" ${scores.abstained}/${scores.unanswerable} (${pct(scores.abstained, scores.unanswerable)})\n${misses.join('\n')}`
  );
}
