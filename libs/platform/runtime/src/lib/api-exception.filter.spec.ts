import { NotFoundException } from '@nestjs/common';
import pino from 'pino';

import { AppError, errorBodySchema } from '@quarry/contracts';
import { BusUnavailableError } from '@quarry/platform/bus';

import { renderError } from './api-exception.filter';

describe('renderError', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  // Every rendered body must be the error body (docs/compatibility.md#errors).
  const sut = (error: unknown) => {
    const rendered = renderError(error, logger, { method: 'POST', url: '/v2/scrape' });
    errorBodySchema.parse(rendered.body);
    return rendered;
  };

  beforeEach(() => (lines.length = 0));

  it('renders an AppError with its catalogue status, message and body code', () => {
    expect(sut(new AppError('SCRAPE_TIMEOUT'))).toEqual({
      status: 408,
      body: { success: false, error: 'Request Timeout', code: 'SCRAPE_TIMEOUT' },
      headers: {},
    });
    expect(sut(new AppError('UNAUTHORIZED'))).toEqual({
      status: 401,
      body: { success: false, error: 'Unauthorized: Invalid token' },
      headers: {},
    });
  });

  it('adds Retry-After on rate limits', () => {
    const rendered = sut(new AppError('RATE_LIMITED', { retryAfterSeconds: 17 }));
    expect(rendered.status).toBe(429);
    expect(rendered.headers).toEqual({ 'retry-after': '17' });
    expect(rendered.body).toMatchObject({ error: 'Rate limit exceeded', retry_after_seconds: 17 });
  });

  it('answers 500 UNKNOWN_ERROR with an error id that is also logged, without leaking the message', () => {
    const rendered = sut(new TypeError('secret internal detail'));
    expect(rendered.status).toBe(500);
    expect(rendered.body).toMatchObject({
      success: false,
      code: 'UNKNOWN_ERROR',
      error: 'Internal Server Error',
    });
    expect(JSON.stringify(rendered.body)).not.toContain('secret internal detail');
    const errorId = rendered.body['errorId'];
    expect(errorId).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
    expect(lines.some((line) => line['errorId'] === errorId && line['level'] === 50)).toBe(true);
  });

  it('gives a 5xx AppError the id of its log line too, keeping its message and code', () => {
    const rendered = sut(new AppError('SCRAPE_ALL_ENGINES_FAILED', { message: 'Every engine failed' }));
    expect(rendered.status).toBe(500);
    expect(rendered.body).toMatchObject({
      success: false,
      code: 'SCRAPE_ALL_ENGINES_FAILED',
      error: 'Every engine failed',
    });
    const errorId = rendered.body['errorId'];
    expect(errorId).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
    expect(lines.some((line) => line['errorId'] === errorId && line['level'] === 50)).toBe(true);
  });

  it('answers 503 when the database cannot be reached', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const rendered = sut(Object.assign(new Error('query failed'), { cause: refused }));
    expect(rendered.status).toBe(503);
    expect(rendered.body).toEqual({ success: false, error: 'Service Unavailable', retry_after_seconds: 5 });
    expect(rendered.headers['retry-after']).toBe('5');
  });

  it('answers 503 when the message bus cannot take the job', () => {
    const rendered = sut(
      new BusUnavailableError(
        'scrape.jobs',
        new Error('Connection error: connect ECONNREFUSED 127.0.0.1:9092'),
      ),
    );
    expect(rendered.status).toBe(503);
    expect(rendered.body).toEqual({ success: false, error: 'Service Unavailable', retry_after_seconds: 5 });
    expect(rendered.headers['retry-after']).toBe('5');
  });

  it('maps framework errors: unknown route, body too large, malformed JSON', () => {
    expect(sut(new NotFoundException('Cannot GET /x')).body).toEqual({ success: false, error: 'Not Found' });
    expect(
      sut(Object.assign(new Error('too large'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }))
        .status,
    ).toBe(413);
    expect(
      sut(Object.assign(new Error('bad'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 })).body,
    ).toEqual({
      success: false,
      error: 'Bad request, malformed JSON',
      code: 'BAD_REQUEST_INVALID_JSON',
    });
  });
});
