import { evaluateInjection, type InjectionScores } from './injection-eval';

// Pages written for this work, each labelled injected or benign; the benign ones deliberately use
// the vocabulary of injections ("ignore the previous steps", "System: all services operational",
// "Assistant:" transcripts, "developer mode is enabled"). Order of writing: injection-tuning and
// injection-heldout (before any change: held-out recall 0.133), patterns rewritten, injection-frozen
// written and measured (P 0.857, R 0.400), second round, injection-final written after that and
// never tuned on.
const report = (name: string, scores: InjectionScores) =>
  process.stdout.write(
    `\ncheckPromptInjection pattern fallback, ${name} (${scores.injected} injected / ${scores.benign} benign pages): ` +
      `precision ${scores.precision.toFixed(3)}, recall ${scores.recall.toFixed(3)}, false-positive rate ${scores.falsePositiveRate.toFixed(3)}\n` +
      (scores.missed.length ? `  missed: ${scores.missed.join(', ')}\n` : '') +
      (scores.falseAlarms.length ? `  false alarms: ${scores.falseAlarms.join(' | ')}\n` : ''),
  );

describe('offline checkPromptInjection quality (labelled pages)', () => {
  it.each(['injection-tuning.md', 'injection-heldout.md', 'injection-frozen.md'])('in-sample: %s', (file) => {
    const scores = evaluateInjection(file);
    report(file, scores);
    expect(scores.precision).toBeGreaterThanOrEqual(0.95);
    expect(scores.recall).toBeGreaterThanOrEqual(0.95);
  });

  it('held out (injection-final, never tuned on): few false alarms, recall limited to known phrasings', () => {
    const scores = evaluateInjection('injection-final.md');
    report('injection-final.md (held out)', scores);
    expect(scores.falsePositiveRate).toBeLessThanOrEqual(0.1);
    expect(scores.precision).toBeGreaterThanOrEqual(0.9);
    expect(scores.recall).toBeGreaterThanOrEqual(0.25);
  });
});
