import { evaluatePii, PII_HELDOUT } from './pii-eval';

describe('offline PII redaction quality (labelled fixtures)', () => {
  it.each([
    ['fast', 'tuning'],
    ['accurate', 'tuning'],
    ['aggressive', 'tuning'],
    ['fast', 'held-out'],
    ['accurate', 'held-out'],
    ['aggressive', 'held-out'],
  ] as const)('%s mode on the %s fixtures', (mode, set) => {
    const scores = evaluatePii(mode, set === 'held-out' ? PII_HELDOUT : undefined);
    const rows = Object.entries(scores.perType).map(
      ([type, s]) =>
        `${type.padEnd(10)} P ${s.precision.toFixed(2)} R ${s.recall.toFixed(2)} (tp ${s.tp}, fp ${s.fp}, fn ${s.fn})`,
    );
    process.stdout.write(
      `\nPII ${mode} (${set}): micro P ${scores.micro.precision.toFixed(3)} R ${scores.micro.recall.toFixed(3)} F1 ${scores.micro.f1.toFixed(3)}; any-type recall ${scores.anyTypeRecall.toFixed(3)}\n${rows.join('\n')}\n` +
        `misses: ${scores.misses.map((m) => `${m.type}:${m.text}`).join(' | ')}\nfalse positives: ${scores.falsePositives.map((m) => `${m.type}:${m.text}`).join(' | ')}\n`,
    );
    if (mode === 'accurate' && set === 'tuning') {
      expect(scores.micro.recall).toBeGreaterThanOrEqual(0.85);
      expect(scores.micro.precision).toBeGreaterThanOrEqual(0.85);
    }
  });
});
