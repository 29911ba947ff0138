import { convertRtf } from './rtf.converter';

const options = { formats: ['markdown' as const], onlyMainContent: true, removeBase64Images: true };
const rtf = (body: string) =>
  Buffer.from(`{\\rtf1\\ansi\\ansicpg1252{\\fonttbl{\\f0 Arial;}}${body}}`, 'latin1');

describe('convertRtf', () => {
  it('decodes code page bytes and \\u escapes with their fallback characters', () => {
    expect(
      convertRtf(rtf("Caf\\'e9 \\u8364? and \\uc2\\u8212\\'97\\'97 done\\par"), 'a.rtf', options).markdown,
    ).toBe('Café € and — done');
  });

  it('skips fonts, pictures, headers and unknown destinations', () => {
    const body =
      '{\\*\\generator Writer}{\\header Running header\\par}{\\pict\\pngblip 89504e47}{\\*\\unknown secret}Visible\\par';
    expect(convertRtf(rtf(body), 'a.rtf', options).markdown).toBe('Visible');
  });

  it('refuses files that are not RTF and hostile nesting', () => {
    expect(() => convertRtf(Buffer.from('hello'), 'a.rtf', options)).toThrow(/not an RTF document/);
    expect(() => convertRtf(rtf('{'.repeat(600)), 'a.rtf', options)).toThrow(/nests groups too deeply/);
  });
});
