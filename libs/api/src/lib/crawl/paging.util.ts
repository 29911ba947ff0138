import { AppError } from '@quarry/contracts';

/** Largest `limit` of one status page (documents per page). */
export const MAX_STATUS_PAGE = 1_000;

/**
 * `?skip=&limit=` of crawl and batch status routes (as the reference service): `skip` digits only,
 * `limit` digits only and 1..1000; anything else is a 400 "Invalid pagination: …" (never clamped, so a
 * client paging by its own arithmetic is told instead of silently served another page).
 */
export function parsePaging(
  skip: string | undefined,
  limit: string | undefined,
): { skip?: number; limit?: number } {
  const digits = (value: string | undefined) =>
    value === undefined || value === '' ? undefined : /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  const parsedSkip = digits(skip);
  if (Number.isNaN(parsedSkip)) throw invalid('skip must be a non-negative integer');
  const parsedLimit = digits(limit);
  if (
    parsedLimit !== undefined &&
    (Number.isNaN(parsedLimit) || parsedLimit < 1 || parsedLimit > MAX_STATUS_PAGE)
  ) {
    throw invalid(`limit must be an integer from 1 to ${MAX_STATUS_PAGE}`);
  }
  return { skip: parsedSkip, limit: parsedLimit };
}

function invalid(reason: string): AppError {
  return new AppError('BAD_REQUEST', { message: `Invalid pagination: ${reason}` });
}
