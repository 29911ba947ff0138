import { AppError } from '@quarry/contracts';

import { parsePaging } from './paging.util';

describe('parsePaging (crawl and batch status)', () => {
  const sut = parsePaging;
  const refusal = (skip?: string, limit?: string) => {
    try {
      sut(skip, limit);
    } catch (error) {
      return error as AppError;
    }
    throw new Error(`skip=${skip} limit=${limit} was accepted`);
  };

  it('reads digits and leaves absent or empty values to the defaults', () => {
    expect(sut('0', '1')).toEqual({ skip: 0, limit: 1 });
    expect(sut('25', '1000')).toEqual({ skip: 25, limit: 1_000 });
    expect(sut(undefined, '')).toEqual({ skip: undefined, limit: undefined });
  });

  it.each(['-1', '1.5', '1e3', '+3', ' 4', '0x10', 'abc'])('refuses skip=%s', (skip) => {
    const error = refusal(skip);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      status: 400,
      message: 'Invalid pagination: skip must be a non-negative integer',
    });
  });

  it.each(['0', '1001', '-5', '2.5', '1e2', 'ten'])('refuses limit=%s', (limit) => {
    expect(refusal('0', limit)).toMatchObject({
      status: 400,
      message: 'Invalid pagination: limit must be an integer from 1 to 1000',
    });
  });
});
