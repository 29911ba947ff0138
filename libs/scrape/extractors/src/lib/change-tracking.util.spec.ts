import { gitDiff, hasChanged, readSchemaFields, structuredValues } from './change-tracking.util';

describe('change tracking helpers', () => {
  it('ignores whitespace-only differences', () => {
    expect(hasChanged('# Title\n\nSome  text\n', '# Title\nSome text')).toBe(false);
    expect(hasChanged('# Title\n\nSome text', '# Title\n\nOther text')).toBe(true);
  });

  it('writes a git-style unified diff', () => {
    expect(gitDiff('a\nb\nc\n', 'a\nB\nc\n')).toBe(
      'diff --git a/page.md b/page.md\n--- a/page.md\n+++ b/page.md\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n',
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
