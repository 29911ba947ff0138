import { shingleCounts, shingleScores } from './shingle-f1.util';

describe('4-token shingle matching', () => {
  it('counts shared, extra and missing shingles, normalised per page', () => {
    // reference shingles: a b c d | b c d e ; prediction: a b c d | b c d x
    const counts = shingleCounts('a b c d e', 'a b c d x');
    expect(counts.tp).toBeCloseTo(1 / 3);
    expect(counts.fp).toBeCloseTo(1 / 3);
    expect(counts.fn).toBeCloseTo(1 / 3);
  });

  it('is case-sensitive and treats a text of fewer than four tokens as one shingle', () => {
    expect(shingleCounts('Hello world', 'hello world')).toEqual({ tp: 0, fp: 0.5, fn: 0.5 });
    expect(shingleCounts('Hello world', 'Hello, world!')).toEqual({ tp: 1, fp: 0, fn: 0 });
  });

  it('averages precision over pages with a prediction and recall over pages with a reference', () => {
    const pages = [
      shingleCounts('a b c d e', 'a b c d'),
      shingleCounts('a b c d', ''),
      shingleCounts('', ''),
    ];
    const scores = shingleScores(pages);
    expect(scores.precision).toBeCloseTo(1);
    expect(scores.recall).toBeCloseTo(0.25);
    expect(scores.f1).toBeCloseTo(0.4);
  });
});
