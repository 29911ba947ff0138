import { parseCsv, sniffDelimiter } from './csv.converter';

describe('CSV', () => {
  it('parses quoted fields with delimiters, doubled quotes and line breaks', () => {
    expect(parseCsv('a,b\n"x, y","say ""hi"""\r\n"multi\nline",z', ',')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['multi\nline', 'z'],
    ]);
  });

  it('sniffs the delimiter', () => {
    expect(sniffDelimiter('a;b;c\n1;2;3\n')).toBe(';');
    expect(sniffDelimiter('a\tb\n1\t2\n')).toBe('\t');
    expect(sniffDelimiter('a,b\n1,2\n')).toBe(',');
  });
});
