import { seededRandom } from '@quarry/testing';

import { containedIn } from './contained-in.util';

describe('containedIn', () => {
  it('answers as includes() per needle, on the direct path and on the hashed path', () => {
    const next = seededRandom(7);
    const word = () =>
      Array.from({ length: 1 + Math.floor(next() * 8) }, () => 'abcdé '[Math.floor(next() * 6)]).join('');
    for (const size of [200, 60_000]) {
      const haystack = Array.from({ length: size / 4 }, word).join(' ');
      const needles = Array.from({ length: size === 200 ? 40 : 3_000 }, (_, index) =>
        index % 3 === 0
          ? haystack.slice(Math.floor(next() * haystack.length), Math.floor(next() * haystack.length) + 90)
          : `${word()} ${word()}`,
      );
      needles.push('', 'zz', haystack, `${haystack}x`);
      const expected = new Set(needles.filter((needle) => haystack.includes(needle)));
      expect(containedIn(haystack, needles)).toEqual(expected);
    }
  });

  it('stays linear on a page of 100,000 distinct values', () => {
    const values = Array.from({ length: 100_000 }, (_, index) => `value ${index} g`);
    const haystack = values.join(' ');
    const started = performance.now();
    const found = containedIn(haystack, [...values, 'value 100000 g', 'absent']);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(found.size).toBe(100_000);
    expect(found.has('absent')).toBe(false);
  });

  it('bounds its comparisons when windows keep matching and the needles never follow', () => {
    const haystack = 'a'.repeat(200_000);
    const needles = Array.from({ length: 5_000 }, (_, index) => `${'a'.repeat(60 + index)}b`);
    const started = performance.now();
    expect(containedIn(haystack, needles).size).toBe(0);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
