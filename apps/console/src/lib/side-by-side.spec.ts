import { fieldChanges, sideBySide as sut } from './side-by-side';

describe('sideBySide', () => {
  it('pairs removed with added lines and keeps context on both sides', () => {
    const rows = sut(
      [
        '--- a',
        '+++ b',
        '@@ -1,4 +1,4 @@',
        ' # Prices',
        '-Basic: $10',
        '-Pro: $20',
        '+Basic: $12',
        ' Footer',
        '+New line',
        '',
      ].join('\n'),
    );
    expect(rows).toEqual([
      { hunk: '@@ -1,4 +1,4 @@' },
      {
        left: { line: 1, text: '# Prices', changed: false },
        right: { line: 1, text: '# Prices', changed: false },
      },
      {
        left: { line: 2, text: 'Basic: $10', changed: true },
        right: { line: 2, text: 'Basic: $12', changed: true },
      },
      { left: { line: 3, text: 'Pro: $20', changed: true }, right: null },
      {
        left: { line: 4, text: 'Footer', changed: false },
        right: { line: 3, text: 'Footer', changed: false },
      },
      { left: null, right: { line: 4, text: 'New line', changed: true } },
    ]);
  });

  it('lists the fields of a JSON-extraction diff', () => {
    expect(
      fieldChanges({ price: { previous: 10, current: 12 }, name: { previous: 'A', current: 'A' } }),
    ).toEqual([
      { field: 'price', previous: 10, current: 12 },
      { field: 'name', previous: 'A', current: 'A' },
    ]);
    expect(fieldChanges({ files: [] })).toEqual([]);
    expect(fieldChanges(undefined)).toEqual([]);
  });
});
