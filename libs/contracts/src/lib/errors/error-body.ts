import { z } from 'zod';

import { INVALID_URL } from '../common/url.schema';

/**
 * Every non-2xx body (docs/compatibility.md#errors): `success` false, a human-readable `error`, optionally a `code` and
 * structured `details`; 5xx answers add the `errorId` of their log line, 429s `retry_after_seconds`.
 */
export const errorBodySchema = z
  .object({
    success: z.literal(false),
    error: z.string(),
    code: z.string().optional(),
    details: z.unknown().optional(),
  })
  .catchall(z.unknown());
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const UNRECOGNIZED_KEY_MESSAGE =
  'Unrecognized key in body -- please review the v2 API documentation for request body changes';

export interface ValidationFailure {
  message: string;
  isInvalidUrl: boolean;
  details: ValidationDetail[];
}

export interface ValidationDetail {
  code: string;
  path: (string | number)[];
  message: string;
  keys?: string[];
}

function flatten(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[] = []): ValidationDetail[] {
  const out: ValidationDetail[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path].map((part) => (typeof part === 'symbol' ? String(part) : part));
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const nested = issue.errors.map((branch) => flatten(branch, path));
      const custom = nested.find((branch) => branch.some((detail) => detail.code === 'custom'));
      // Report the branch that says the most specific thing: a custom rule, else the closest match.
      const best = custom ?? nested.reduce((a, b) => (depth(b) > depth(a) ? b : a));
      out.push(...best);
      continue;
    }
    out.push({
      code: issue.code,
      path,
      message: issue.message,
      ...(issue.code === 'unrecognized_keys' ? { keys: issue.keys } : {}),
    });
  }
  return out;
}

const depth = (details: ValidationDetail[]) => Math.max(0, ...details.map((d) => d.path.length));

/**
 * Turns a zod error into the message and `details` of a 400 (docs/compatibility.md#errors): an unknown key wins (at any
 * depth: `location.foo`, an extra key of an action or a format object), then an `Invalid URL`, then the
 * first custom rule's message, else "Bad Request".
 */
export function describeValidationError(error: z.ZodError): ValidationFailure {
  const details = flatten(error.issues);
  const isInvalidUrl = details.some((detail) => detail.path.length === 1 && detail.path[0] === 'url');
  let message = 'Bad Request';
  if (details.some((detail) => detail.code === 'unrecognized_keys')) message = UNRECOGNIZED_KEY_MESSAGE;
  else if (isInvalidUrl) message = INVALID_URL;
  else {
    const custom = details.find((detail) => detail.code === 'custom');
    if (custom) message = custom.message;
  }
  return { message, isInvalidUrl, details };
}
