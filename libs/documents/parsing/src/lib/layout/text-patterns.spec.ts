import {
  escapeCell,
  escapeParagraphStart,
  furnitureKey,
  isCaptionText,
  isPageNumberText,
  joinParagraphLines,
  listMarker,
} from './text-patterns';

describe('text patterns', () => {
  it.each([
    ['• First item', { ordered: false, marker: '•', rest: 'First item' }],
    ['- dash item', { ordered: false, marker: '-', rest: 'dash item' }],
    ['1. Numbered', { ordered: true, marker: '1.', rest: 'Numbered' }],
    ['(a) lettered', { ordered: true, marker: '(a)', rest: 'lettered' }],
    ['iv) roman', { ordered: true, marker: 'iv)', rest: 'roman' }],
  ])('recognises the list marker of %j', (text, expected) => expect(listMarker(text)).toEqual(expected));

  it.each(['Plain sentence.', 'A. Capital letters are headings', '2026 was a year', '-5 degrees'])(
    'sees no list marker in %j',
    (text) => expect(listMarker(text)).toBeUndefined(),
  );

  it.each(['12', 'Page 3', 'page 3 of 9', '- 4 -', '[7]', 'xii', 'Seite 2 von 5'])(
    '%j is a page number',
    (text) => expect(isPageNumberText(text)).toBe(true),
  );
  it.each(['12 Angry Men', 'Chapter 3', 'mix', 'Page three', ''])('%j is not a page number', (text) =>
    expect(isPageNumberText(text)).toBe(false),
  );

  it('recognises captions', () => {
    expect(isCaptionText('Figure 1: Monthly volume')).toBe(true);
    expect(isCaptionText('Table 2. Pages per region')).toBe(true);
    expect(isCaptionText('Figures show growth')).toBe(false);
  });

  it('compares running headers with their numbers ignored', () =>
    expect(furnitureKey('Report  — Page 12')).toBe(furnitureKey('report — page 3')));

  it('rejoins hyphenated line ends and spaces the others', () => {
    expect(joinParagraphLines(['The para-', 'graph continues', 'here. Well-', 'Known stays'])).toBe(
      'The paragraph continues here. Well- Known stays',
    );
  });

  it('escapes what would change the meaning of a paragraph', () => {
    expect(escapeParagraphStart('# not a heading')).toBe('\\# not a heading');
    expect(escapeParagraphStart('- not a list')).toBe('\\- not a list');
    expect(escapeParagraphStart('3. not a list')).toBe('3\\. not a list');
    expect(escapeParagraphStart('Ordinary text - fine')).toBe('Ordinary text - fine');
    expect(escapeCell('a|b\nc')).toBe('a\\|b c');
  });
});
