import type { FastifyInstance } from 'fastify';

import { AppError } from '@quarry/contracts';

/**
 * JSON is the API's only body format, but clients such as `curl -d` label it form-urlencoded or send
 * no type at all: every non-multipart body is parsed as JSON (malformed → 400 BAD_REQUEST_INVALID_JSON).
 * A string holding U+0000 is refused with a 400 that names where it is (`nulCharacterError`).
 */
export function registerJsonBodyParsers(app: FastifyInstance): void {
  const parseJson = (
    _request: unknown,
    body: string,
    done: (error: Error | null, value?: unknown) => void,
  ) => {
    if (body.trim() === '') return done(null, undefined);
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      const error = new Error('Bad request, malformed JSON') as Error & { code: string; statusCode: number };
      error.code = 'FST_ERR_CTP_INVALID_JSON_BODY';
      error.statusCode = 400;
      return done(error);
    }
    // JSON can only carry U+0000 escaped, so a body without the escape has none (no walk).
    const refused = body.includes('\\u0000') ? nulCharacterError(value) : undefined;
    done(refused ?? null, refused ? undefined : value);
  };
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(
    ['application/json', 'text/plain', 'application/x-www-form-urlencoded'],
    { parseAs: 'string' },
    parseJson,
  );
  app.addContentTypeParser('*', { parseAs: 'string' }, parseJson);
}

/**
 * A 400 (BAD_REQUEST, with the path in `details`) when a string or key of the body holds U+0000:
 * PostgreSQL's `text` and `jsonb` cannot store it, so such a request would otherwise fail wherever
 * it is first written (a job's input, a search query), as a 500. No text carries it meaningfully.
 */
export function nulCharacterError(value: unknown): AppError | undefined {
  const found = nulPath(value);
  if (!found) return undefined;
  // A hostile body may nest the string thousands of levels deep: the answer names the first levels.
  const path = found.slice(0, MAX_DETAIL_PATH);
  const message = 'Strings in the request body may not contain the NUL character (\\u0000)';
  return new AppError('BAD_REQUEST', {
    message,
    details: [{ code: 'invalid_string', path, message }],
  });
}

const MAX_DETAIL_PATH = 64;

interface Visit {
  value: unknown;
  key?: string | number;
  parent?: Visit;
}

/**
 * Where the first U+0000 is (depth-first), walked with an explicit stack and parent links: bodies may
 * nest deeper than the call stack, and the path is built only for the string that has one.
 */
function nulPath(root: unknown): (string | number)[] | undefined {
  const pathOf = (visit: Visit, last?: string): (string | number)[] => {
    const path: (string | number)[] = last === undefined ? [] : [last];
    for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const stack: Visit[] = [{ value: root }];
  while (stack.length > 0) {
    const visit = stack.pop() as Visit;
    const { value } = visit;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return pathOf(visit);
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1)
        stack.push({ value: value[index], key: index, parent: visit });
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, item] = entries[index];
        if (key.includes('\u0000')) return pathOf(visit, key);
        stack.push({ value: item, key, parent: visit });
      }
    }
  }
  return undefined;
}
