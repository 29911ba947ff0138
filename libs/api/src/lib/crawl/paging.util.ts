import { AppError } from '@quarry/contracts';

/** `?skip=&limit=` of status routes (compat §8.2): non-negative integers. */
export function parsePaging(skip: string | undefined, limit: string | undefined): { skip?: number; limit?: number } {
  const parse = (value: string | undefined, name: string, min: number) => {
    if (value === undefined || value === '') return undefined;
    const number = Number(value);
    if (!Number.isInteger(number) || number < min) throw new AppError('BAD_REQUEST', { message: `${name} must be an integer of at least ${min}` });
    return number;
  };
  return { skip: parse(skip, 'skip', 0), limit: parse(limit, 'limit', 1) };
}
