import { LIMITS } from '@quarry/contracts';

import { generateApiKey, parseBearer } from './api-key.util';

describe('parseBearer', () => {
  it('takes keys of 8 to 512 non-whitespace characters, the same bounds as BOOTSTRAP_API_KEY', () => {
    expect(LIMITS.apiKeyLength).toEqual({ min: 8, max: 512 });
    const key = generateApiKey();
    expect(parseBearer(`Bearer ${key}`)).toBe(key);
    expect(parseBearer(`bearer\t${'k'.repeat(8)} `)).toBe('k'.repeat(8));
    expect(parseBearer(`Bearer ${'k'.repeat(512)}`)).toBe('k'.repeat(512));
    expect(parseBearer(`Bearer ${'k'.repeat(7)}`)).toBeUndefined();
    expect(parseBearer(`Bearer ${'k'.repeat(513)}`)).toBeUndefined();
    expect(parseBearer('Bearer two words')).toBeUndefined();
    expect(parseBearer(`Basic ${key}`)).toBeUndefined();
    expect(parseBearer(undefined)).toBeUndefined();
  });
});
