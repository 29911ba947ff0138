/**
 * Prints the offline-answer evaluation (docs/llm.md "Offline answers"): every set, the question
 * format, free-text extract/agent tasks over one and three pages, the pre-issue-15 baseline, and
 * the misses. Run by hand:
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register libs/scrape/model-formats/src/quality/answers-report.ts
 *
 * File names after the script (`… answers-report.ts answers-heldout-10.md answers-tuning.md`) limit it to those files.
 *
 * The floors that fail on regression are in answers-quality.spec.ts.
 */
import {
  describe,
  loadAnswerSet,
  scoreBaseline,
  scoreQuestionFormat,
  type Scores,
  scoreTasks,
} from './answers-eval';

const SETS = [
  ['answers-tuning.md', 'tuning (rules developed on it)'],
  ['answers-heldout.md', 'held-out 1 (in-sample after the fixes it prompted)'],
  ['answers-heldout-2.md', 'held-out 2 (in-sample after the fixes it prompted)'],
  ['answers-heldout-3.md', 'held-out 3 (in-sample after the fixes it prompted)'],
  ['answers-heldout-4.md', 'held-out 4 (in-sample after the fixes it prompted)'],
  ['answers-heldout-5.md', 'held-out 5 (in-sample after the fixes it prompted)'],
  ['answers-heldout-6.md', 'held-out 6 (measured once untuned at 74.4 %, in-sample since)'],
  ['answers-heldout-7.md', 'held-out 7 (measured once untuned at 72.8 %, in-sample since)'],
  ['answers-heldout-8.md', 'held-out 8 (measured once after the set-7 fixes at 66.7 %, in-sample since)'],
  ['answers-heldout-9.md', 'held-out 9 (measured once after the set-8 fixes at 67.6 %, in-sample since)'],
  ['answers-heldout-10.md', 'held-out 10 (measured once untuned at 47.1 %, in-sample since)'],
  ['answers-heldout-11.md', 'held-out 11 (written with set 10, measured once after the lexicon round)'],
] as const;

const pct = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(1)} %` : 'n/a');
const row = (name: string, scores: Scores) =>
  `| ${name} | ${scores.answered}/${scores.answerable} (${pct(scores.answered, scores.answerable)}) | ${scores.abstained}/${scores.unanswerable} (${pct(scores.abstained, scores.unanswerable)}) |`;

async function main(): Promise<void> {
  const lines = [
    '| Set and path | Exact answer (answer on the page) | "Not found" (answer not on the page) |',
    '| --- | --- | --- |',
  ];
  const misses: string[] = [];
  const named = process.argv.slice(2).filter((arg) => arg.endsWith('.md'));
  const only = named.length ? named : undefined;
  for (const [file, name] of SETS) {
    if (only && !only.includes(file)) continue;
    const set = loadAnswerSet(file);
    const baseline = scoreBaseline(set);
    const questions = await scoreQuestionFormat(set);
    const single = await scoreTasks(set, 1);
    const multi = await scoreTasks(set, 3);
    lines.push(
      row(`${name}: best-sentence baseline`, baseline),
      row(`${name}: question format`, questions),
      row(`${name}: extract/agent task, 1 page`, single),
      row(`${name}: extract/agent task naming its subject, 3 pages`, multi),
    );
    misses.push(describe(`${name}, question format`, questions));
  }
  process.stdout.write(`${lines.join('\n')}\n\n${misses.join('\n\n')}\n`);
}

void main();
