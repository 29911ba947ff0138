import type { FastifyInstance } from 'fastify';

/**
 * JSON is the API's only body format, but clients such as `curl -d` label it form-urlencoded or send
 * no type at all: every non-multipart body is parsed as JSON (malformed → 400 BAD_REQUEST_INVALID_JSON).
 */
export function registerJsonBodyParsers(app: FastifyInstance): void {
  const parseJson = (
    _request: unknown,
    body: string,
    done: (error: Error | null, value?: unknown) => void,
  ) => {
    if (body.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body));
    } catch {
      const error = new Error('Bad request, malformed JSON') as Error & { code: string; statusCode: number };
      error.code = 'FST_ERR_CTP_INVALID_JSON_BODY';
      error.statusCode = 400;
      done(error);
    }
  };
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(
    ['application/json', 'text/plain', 'application/x-www-form-urlencoded'],
    { parseAs: 'string' },
    parseJson,
  );
  app.addContentTypeParser('*', { parseAs: 'string' }, parseJson);
}
