import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { extractiveAnswer, extractiveHighlights, splitPassages, terms } from '@quarry/scrape/formats';

interface QaFixture {
  documents: { id: string; markdown: string; questions: { question: string; expect: string }[] }[];
}

/** Baseline: the first passage sharing any term with the question. */
function firstMatchingPassage(markdown: string, question: string): string {
  const query = new Set(terms(question));
  return (
    splitPassages(markdown).find(
      (passage) => passage.kind !== 'heading' && passage.terms.some((term) => query.has(term)),
    )?.text ?? ''
  );
}

describe('offline question and highlights quality (30 questions over 3 documents)', () => {
  it('answers and highlights contain the expected fact', () => {
    const fixture = JSON.parse(
      readFileSync(join(__dirname, '../fixtures/qa-documents.json'), 'utf8'),
    ) as QaFixture;
    let answered = 0;
    let highlighted = 0;
    let topHighlight = 0;
    let baseline = 0;
    let total = 0;
    const misses: string[] = [];
    for (const document of fixture.documents) {
      for (const { question, expect: fact } of document.questions) {
        total += 1;
        const answer = extractiveAnswer(document.markdown, question).answer ?? '';
        const highlights = extractiveHighlights(document.markdown, question);
        if (answer.includes(fact)) answered += 1;
        else misses.push(`${document.id}: "${question}" → "${answer.slice(0, 90)}"`);
        if (highlights.some((highlight) => highlight.includes(fact))) highlighted += 1;
        if (highlights[0]?.includes(fact)) topHighlight += 1;
        if (firstMatchingPassage(document.markdown, question).includes(fact)) baseline += 1;
      }
    }
    const pct = (value: number) => `${((100 * value) / total).toFixed(1)}%`;
    process.stdout.write(
      `\nquestion fallback: answer contains the fact ${answered}/${total} (${pct(answered)}); highlights top-1 ${pct(topHighlight)}, any of top-3 ${pct(highlighted)}; ` +
        `baseline (first passage sharing a term) ${pct(baseline)}\n${misses.join('\n')}\n`,
    );
    expect(answered / total).toBeGreaterThanOrEqual(0.7);
    expect(highlighted / total).toBeGreaterThanOrEqual(0.8);
  });
});
