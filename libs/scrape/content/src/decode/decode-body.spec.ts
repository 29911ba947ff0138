import { encode } from 'iconv-lite';

import { decodeBody, normalizeCharset } from './decode-body.util';

const bytes = (text: string, charset: string) => new Uint8Array(encode(text, charset));

describe('decodeBody', () => {
  const sut = decodeBody;

  it('defaults to UTF-8 and keeps CJK text', () => {
    const html = '<p>日本語のテキスト、中文，한국어</p>';
    expect(sut(new TextEncoder().encode(html))).toEqual({ text: html, charset: 'utf-8' });
  });

  it('honours and strips a UTF-8 byte-order mark', () => {
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('<p>é</p>')]);
    expect(sut(body, 'text/html; charset=iso-8859-1')).toEqual({ text: '<p>é</p>', charset: 'utf-8' });
  });

  it('decodes UTF-16 with a byte-order mark', () => {
    const body = new Uint8Array([0xff, 0xfe, ...encode('<p>ü</p>', 'utf-16le')]);
    expect(sut(body).text).toBe('<p>ü</p>');
  });

  it('uses the charset of the Content-Type header', () => {
    const body = bytes('<p>こんにちは</p>', 'Shift_JIS');
    expect(sut(body, 'text/html; charset="Shift_JIS"')).toEqual({
      text: '<p>こんにちは</p>',
      charset: 'shift_jis',
    });
  });

  it('sniffs <meta charset> in the first 4 KB (EUC-JP)', () => {
    const html = '<html><head><meta charset="euc-jp"><title>東京</title></head><body>天気予報</body></html>';
    const result = sut(bytes(html, 'EUC-JP'));
    expect(result.charset).toBe('euc-jp');
    expect(result.text).toContain('東京');
    expect(result.text).toContain('天気予報');
  });

  it('sniffs an http-equiv Content-Type declaration (windows-1252)', () => {
    const html =
      '<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><p>caf\u00e9 \u2013 \u201cquoted\u201d \u20ac5</p>';
    const result = sut(bytes(html, 'windows-1252'));
    expect(result.charset).toBe('windows-1252');
    expect(result.text).toContain('café – “quoted” €5');
  });

  it('reads ISO-8859-1 labels as windows-1252, as browsers do', () => {
    const result = sut(new Uint8Array([0x93, 0x68, 0x69, 0x94]), 'text/html; charset=ISO-8859-1');
    expect(result).toEqual({ text: '“hi”', charset: 'windows-1252' });
  });

  it('decodes GBK declared as gb2312', () => {
    const result = sut(bytes('<meta charset="gb2312"><p>简体中文</p>', 'gbk'));
    expect(result.charset).toBe('gbk');
    expect(result.text).toContain('简体中文');
  });

  it('prefers the header over the meta declaration', () => {
    const html = '<meta charset="shift_jis"><p>\u00e9</p>';
    expect(sut(bytes(html, 'utf-8'), 'text/html; charset=utf-8').text).toContain('é');
  });

  it('falls back to windows-1252 when undeclared bytes are not valid UTF-8', () => {
    expect(sut(new Uint8Array([0x63, 0x61, 0x66, 0xe9]))).toEqual({ text: 'café', charset: 'windows-1252' });
  });

  it('ignores unknown charset labels', () => {
    expect(sut(new TextEncoder().encode('<p>ok</p>'), 'text/html; charset=x-unknown-thing').charset).toBe(
      'utf-8',
    );
  });
});

describe('normalizeCharset', () => {
  const sut = normalizeCharset;

  it('maps WHATWG labels', () => {
    expect(sut('Latin1')).toBe('windows-1252');
    expect(sut('x-sjis')).toBe('shift_jis');
    expect(sut('"UTF8"')).toBe('utf-8');
    expect(sut('nonsense')).toBeUndefined();
  });
});
