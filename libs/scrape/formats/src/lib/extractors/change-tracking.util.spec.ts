import {
  comparisonKey,
  gitDiff,
  hasChanged,
  readSchemaFields,
  structuredValues,
} from './change-tracking.util';

describe('change tracking helpers', () => {
  it('ignores whitespace-only differences', () => {
    expect(hasChanged('# Title\n\nSome  text\n', '# Title\nSome text')).toBe(false);
    expect(hasChanged('# Title\n\nSome text', '# Title\n\nOther text')).toBe(true);
    expect(hasChanged('a\u00a0b\tc', 'abc')).toBe(false);
  });

  it('compares the sorted multiset of non-whitespace characters: order does not matter, counts do', () => {
    // The same characters in another order (lines swapped, words moved) are not a change.
    expect(hasChanged('# Menu\n\n- Tea 2\n- Coffee 3\n', '# Menu\n\n- Coffee 3\n- Tea 2\n')).toBe(false);
    expect(hasChanged('price 12', 'price 21')).toBe(false);
    // One character more, fewer or replaced is.
    expect(hasChanged('price 12', 'price 122')).toBe(true);
    expect(hasChanged('aab', 'abb')).toBe(true);
    expect(hasChanged('', 'x')).toBe(true);
    expect(comparisonKey('b a\nc')).toBe('abc');
  });

  it('removes iframe links before comparing', () => {
    const before = 'Intro text\n\n[iframe](https://embed.example/frame?session=1)\n\nOutro';
    const after = 'Intro text\n\n[iframe](https://embed.example/frame?session=2)\n\nOutro';
    expect(hasChanged(before, after)).toBe(false);
    expect(hasChanged(before, 'Intro text\n\nOutro')).toBe(false);
    expect(hasChanged('[IFrame](https://a.example/x)', '')).toBe(false);
    // Other links are content.
    expect(hasChanged('[docs](https://a.example/1)', '[docs](https://a.example/2)')).toBe(true);
  });

  it('answers as the comparison key does, astral characters and lone surrogates included', () => {
    const cases: [string, string][] = [
      ['a b c', 'cba'],
      ['a b c', 'abcc'],
      ['😀😁', '😁 😀'],
      ['\ud83d\ude00\ud83e\udd01', '\ud83d\udd01\ud83e\ude00'],
      ['x\ud800y', 'y\ud800x'],
      ['x\ud800y', 'yx'],
      ['[iframe](https://a.test/1) text', 'text [iframe](https://b.test/2)'],
      ['', ' \n\t'],
    ];
    for (const [previous, current] of cases)
      expect(hasChanged(previous, current)).toBe(comparisonKey(previous) !== comparisonKey(current));
  });

  it('writes a git-style unified diff', () => {
    expect(gitDiff('a\nb\nc\n', 'a\nB\nc\n')).toBe(
      'diff --git a/page.md b/page.md\n--- a/page.md\n+++ b/page.md\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n',
    );
  });

  it('writes the diff of two different pages of 150,000 lines within its budget, as one replacing hunk', () => {
    // Spreading the hunk's lines overflowed the stack; the line diff itself ran for more than ten minutes.
    const lines = (word: string) => Array.from({ length: 150_000 }, (_, i) => `${word} ${i}`).join('\n');
    const started = performance.now();
    const diff = gitDiff(lines('old'), lines('new'), 'page.md', 200);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(
      diff.startsWith(
        'diff --git a/page.md b/page.md\n--- a/page.md\n+++ b/page.md\n@@ -1,150000 +1,150000 @@\n-old 0\n',
      ),
    ).toBe(true);
    expect(diff.split('\n').filter((line) => line.startsWith('+new')).length).toBe(150_000);
  });

  it('writes the same replacing hunk format for small texts when the budget is spent', () => {
    expect(gitDiff('a\nb\n', 'c\n', 'page.md', -1)).toBe(
      'diff --git a/page.md b/page.md\n--- a/page.md\n+++ b/page.md\n@@ -1,2 +1,1 @@\n-a\n-b\n+c\n',
    );
    expect(gitDiff('', 'c', 'page.md', -1)).toBe(
      'diff --git a/page.md b/page.md\n--- a/page.md\n+++ b/page.md\n@@ -0,0 +1,1 @@\n+c\n',
    );
  });

  it('reads schema fields from structured data and meta tags, coerced to their declared type', () => {
    const html = `<head><meta property="og:title" content="Lamp"><meta name="description" content="A lamp"></head>
      <script type="application/ld+json">{"@type":"Product","name":"Lamp","sku":"L1","offers":{"@type":"Offer","price":"19.99","priceCurrency":"USD","availability":"https://schema.org/InStock"}}</script>`;
    const values = structuredValues(html);
    const schema = {
      type: 'object',
      properties: {
        title: { type: 'string' },
        price: { type: 'number' },
        inStock: { type: 'boolean' },
        availability: { type: 'string' },
        colour: { type: 'string' },
      },
    };
    expect(readSchemaFields(schema, values)).toEqual({
      values: { title: 'Lamp', price: 19.99, availability: 'https://schema.org/InStock' },
      missing: ['inStock', 'colour'],
    });
  });
});
