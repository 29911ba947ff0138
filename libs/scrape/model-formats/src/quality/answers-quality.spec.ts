import {
  describe as describeScores,
  loadAnswerSet,
  scoreQuestionFormat,
  type Scores,
  scoreTasks,
} from './answers-eval';

jest.setTimeout(180_000);

const rate = (part: number, whole: number) => (whole === 0 ? 1 : part / whole);

/** Fails when exact-answer accuracy or correct "not found" falls below the floor. */
function expectFloors(scores: Scores, answered: number, abstained: number): void {
  expect(rate(scores.answered, scores.answerable)).toBeGreaterThanOrEqual(answered);
  expect(rate(scores.abstained, scores.unanswerable)).toBeGreaterThanOrEqual(abstained);
}

/**
 * The offline answer fallbacks on the evaluation set (libs/scrape/model-formats/src/fixtures/answers-*.md,
 * docs/llm.md): the `question` scrape format, and free-text extract / agent tasks over their page
 * and over three pages. Floors sit at or just under the figures measured when they were set.
 */
describe('offline answers (question format, free-text extract and agent tasks)', () => {
  async function run(file: string, name: string): Promise<Scores[]> {
    const set = loadAnswerSet(file);
    const questions = await scoreQuestionFormat(set);
    const single = await scoreTasks(set, 1);
    const multi = await scoreTasks(set, 3);
    process.stdout.write(
      `\n${describeScores(`question format, ${name}`, questions)}\n${describeScores(`tasks over their page, ${name}`, single)}\n${describeScores(`tasks naming their subject over 3 pages, ${name}`, multi)}\n`,
    );
    return [questions, single, multi];
  }

  it('tuning set (22 pages, the rules were developed on it)', async () => {
    const [questions, single, multi] = await run('answers-tuning.md', 'tuning');
    expect(questions.answerable + questions.unanswerable).toBeGreaterThanOrEqual(100);
    expectFloors(questions, 0.97, 0.96);
    expectFloors(single, 0.97, 0.96);
    expectFloors(multi, 0.9, 0.9);
  });

  it('held-out set 1 (10 pages; first measured untuned, in-sample since the fixes that followed)', async () => {
    // First measurement, before the fixes it prompted: question format 39/53 exact (73.6 %), not found 9/10.
    const [questions, single, multi] = await run('answers-heldout.md', 'held-out 1');
    expectFloors(questions, 0.95, 0.95);
    expectFloors(single, 0.95, 0.95);
    expectFloors(multi, 0.9, 0.95);
  });

  it('held-out set 2 (10 pages; first measured untuned, in-sample since the fixes that followed)', async () => {
    // First measurement, before the fixes it prompted: question format 42/63 exact (66.7 %), not found 12/13.
    const [questions, single, multi] = await run('answers-heldout-2.md', 'held-out 2');
    expectFloors(questions, 0.93, 0.95);
    expectFloors(single, 0.93, 0.95);
    expectFloors(multi, 0.95, 0.95);
  });

  it('held-out set 3 (7 pages; first measured untuned, in-sample since the fixes that followed)', async () => {
    // First measurement: question format 31/40 exact (77.5 %), not found 7/7; 3 pages 7/10, 2/2.
    const [questions, single, multi] = await run('answers-heldout-3.md', 'held-out 3');
    expectFloors(questions, 0.97, 0.95);
    expectFloors(single, 0.97, 0.95);
    expectFloors(multi, 0.95, 0.95);
  });

  it('held-out set 4 (8 pages; first measured untuned, in-sample since the fixes that followed)', async () => {
    // Measured before any change of this round: 39/48 exact (81.3 %), not found 8/8. First measured
    // after the set-3 fixes: question format 42/48 (87.5 %), not found 8/8; 3 pages 12/12, 1/1.
    const [questions, single, multi] = await run('answers-heldout-4.md', 'held-out 4');
    expectFloors(questions, 0.97, 0.95);
    expectFloors(single, 0.97, 0.95);
    expectFloors(multi, 0.95, 0.95);
  });

  it('held-out set 5 (8 pages; first measured untuned, in-sample since the fixes that followed)', async () => {
    // First measurement, after the set-4 fixes: question format 35/46 (76.1 %), not found 8/8; 3 pages 9/10, 1/1.
    const [questions, single, multi] = await run('answers-heldout-5.md', 'held-out 5');
    expectFloors(questions, 0.97, 0.95);
    expectFloors(single, 0.97, 0.95);
    expectFloors(multi, 0.95, 0.95);
  });

  it('held-out set 6 (7 pages written before the set-5 fixes; measured once untuned, in-sample since)', async () => {
    // First measurement, after the set-5 fixes: question format 32/43 (74.4 %), not found 5/7;
    // 1 page 32/43, 5/7; 3 pages 12/16. Then 37/43 (86.0 %), 6/7 after a last round of fixes.
    // After the set-7 and set-8 rounds (in-sample since): 43/43, 6/7; 3 pages 16/16.
    const [questions, single, multi] = await run('answers-heldout-6.md', 'held-out 6');
    expectFloors(questions, 0.95, 0.85);
    expectFloors(single, 0.95, 0.85);
    expectFloors(multi, 0.95, 0.95);
  });

  it('held-out set 7 (9 pages written before any change of its round; measured once untuned, then fixed)', async () => {
    // First measurement, with the code as it was: question format 59/81 (72.8 %), not found 13/14;
    // 1 page 61/83, 13/14; 3 pages 10/18, 0/1. After the fixes it prompted: 80/81, 14/14.
    const [questions, single, multi] = await run('answers-heldout-7.md', 'held-out 7');
    expectFloors(questions, 0.95, 0.95);
    expectFloors(single, 0.95, 0.95);
    expectFloors(multi, 0.95, 0.95);
  });

  it('held-out set 8 (10 pages written with set 7; measured once after the set-7 fixes, then fixed)', async () => {
    // Untouched until the set-7 fixes were done; first measurement then: question format 58/87
    // (66.7 %), not found 12/13; 1 page 58/88, 12/13; 3 pages 9/17, 0/1 (57.5 % before any change).
    // After the fixes it prompted: 86/87, 13/13.
    const [questions, single, multi] = await run('answers-heldout-8.md', 'held-out 8');
    expectFloors(questions, 0.95, 0.95);
    expectFloors(single, 0.95, 0.95);
    expectFloors(multi, 0.95, 0.95);
  });

  it('held-out set 9 (8 pages written after the set-8 fixes; measured once, then fixed)', async () => {
    // First measurement, after the set-7 and set-8 fixes: question format 46/68 (67.6 %), not
    // found 11/11; 1 page 47/69, 11/11; 3 pages 8/13, 1/1. After the fixes it prompted: 64/68, 11/11.
    const [questions, single, multi] = await run('answers-heldout-9.md', 'held-out 9');
    expectFloors(questions, 0.9, 0.95);
    expectFloors(single, 0.9, 0.95);
    expectFloors(multi, 0.9, 0.95);
  });

  it('held-out set 10 (9 pages written before the WordNet-lexicon round; measured once, then worked on)', async () => {
    // First measurement, with the code as it was: question format 41/87 (47.1 %), not found 15/15;
    // 1 page 43/89, 15/15; 3 pages 13/22, 1/1. After the round (in-sample): 54/87 (62.1 %), 15/15;
    // 1 page 56/89, 15/15; 3 pages 16/22, 1/1.
    const [questions, single, multi] = await run('answers-heldout-10.md', 'held-out 10');
    expectFloors(questions, 0.6, 0.95);
    expectFloors(single, 0.6, 0.95);
    expectFloors(multi, 0.65, 0.95);
  });

  it('held-out set 11 (9 pages written with set 10; measured once, after the lexicon round)', async () => {
    // The round's honest figure: question format 52/90 (57.8 %), not found 14/15 (93.3 %); 1 page
    // 53/91, 14/15; 3 pages 11/14, 1/1. The code before the round: 48/90 (53.3 %), 14/15. After a
    // fix the enricher spec prompted (page-level support by the word itself, not its relatives):
    // 51/90, 14/15; 1 page 52/91, 14/15; 3 pages 11/14, 1/1.
    const [questions, single, multi] = await run('answers-heldout-11.md', 'held-out 11');
    expectFloors(questions, 0.55, 0.9);
    expectFloors(single, 0.55, 0.9);
    expectFloors(multi, 0.75, 0.95);
  });
});
