import { isDataError, storableJson } from './database-errors';

describe('storableJson', () => {
  it('replaces U+0000 anywhere in a JSON value and leaves clean values untouched', () => {
    const clean = { markdown: '# A', links: ['https://a.example/'], metadata: { statusCode: 200 } };
    expect(storableJson(clean)).toBe(clean);
    const dirty = {
      markdown: 'PNG\u0000\u0000IHDR',
      links: ['ok', 'x\u0000y'],
      metadata: { ['k\u0000']: 1, n: null },
    };
    expect(storableJson(dirty)).toEqual({
      markdown: 'PNG\ufffd\ufffdIHDR',
      links: ['ok', 'x\ufffdy'],
      metadata: { ['k\ufffd']: 1, n: null },
    });
    expect(dirty.markdown).toBe('PNG\u0000\u0000IHDR');
  });
});

describe('isDataError', () => {
  it('recognises data exceptions, not unavailability', () => {
    expect(isDataError({ code: '22P05' })).toBe(true);
    expect(
      isDataError(new Error('Database error. Code: `22P05`. Message: `unsupported Unicode escape sequence`')),
    ).toBe(true);
    expect(isDataError({ cause: { code: '23505' } })).toBe(true);
    expect(isDataError({ code: 'ECONNREFUSED' })).toBe(false);
    expect(isDataError(new Error('Connection terminated'))).toBe(false);
  });
});
