import { randomUUID } from 'node:crypto';

import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';

import { AppError, bodyCodeFor, ERROR_CATALOG, type ErrorBody, type ErrorCode } from '@quarry/contracts';
import { isBusUnavailable } from '@quarry/platform/bus';
import { isDatabaseUnavailable } from '@quarry/platform/database';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  408: 'SCRAPE_TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'UNPROCESSABLE_ENTITY',
  429: 'RATE_LIMITED',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

interface Rendered {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

/** Renders an AppError as the API's error body (docs/compatibility.md#errors). */
export function renderAppError(error: AppError): Rendered {
  const code = bodyCodeFor(error.code);
  const body: ErrorBody = { success: false, error: error.message };
  if (code) body.code = code;
  if (error.details !== undefined) body.details = error.details;
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) {
    headers['retry-after'] = String(error.retryAfterSeconds);
    body['retry_after_seconds'] = error.retryAfterSeconds;
  }
  return { status: error.status, body, headers };
}

/** Maps anything thrown to an error body; logs 5xx with an error id that is also in the body. */
export function renderError(
  error: unknown,
  logger: Logger,
  context: { method?: string; url?: string },
): Rendered {
  if (error instanceof AppError) {
    const rendered = renderAppError(error);
    if (error.status >= 500) rendered.body['errorId'] = logFailure(error, logger, context);
    return rendered;
  }
  if (isDatabaseUnavailable(error)) {
    logger.warn({ err: error, ...context }, 'database unavailable');
    return renderAppError(new AppError('SERVICE_UNAVAILABLE', { retryAfterSeconds: 5 }));
  }
  if (isBusUnavailable(error)) {
    logger.warn({ err: error, ...context }, 'message bus unavailable');
    return renderAppError(new AppError('SERVICE_UNAVAILABLE', { retryAfterSeconds: 5 }));
  }
  const fastifyCode = (error as { code?: unknown })?.code;
  if (typeof fastifyCode === 'string' && fastifyCode.startsWith('FST_')) {
    if (fastifyCode === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return renderAppError(new AppError('PAYLOAD_TOO_LARGE'));
    if (fastifyCode === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyCode === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return renderAppError(new AppError('BAD_REQUEST_INVALID_JSON'));
    }
    if (fastifyCode === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return { status: 415, body: { success: false, error: 'Unsupported Media Type' }, headers: {} };
    }
  }
  const status =
    error instanceof HttpException ? error.getStatus() : (error as { statusCode?: unknown })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = STATUS_CODES[status];
    if (code) return renderAppError(new AppError(code));
    return {
      status,
      body: { success: false, error: error instanceof Error ? error.message : 'Bad Request' },
      headers: {},
    };
  }
  const errorId = logFailure(error, logger, context);
  return {
    status: 500,
    body: { success: false, code: 'UNKNOWN_ERROR', error: ERROR_CATALOG.UNKNOWN_ERROR.message, errorId },
    headers: {},
  };
}

function logFailure(error: unknown, logger: Logger, context: { method?: string; url?: string }): string {
  const errorId = randomUUID();
  logger.error({ err: error, errorId, ...context }, 'request failed');
  return errorId;
}

/** The one global filter: every non-2xx HTTP answer is written here (docs/compatibility.md#errors). */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<{ method?: string; url?: string }>();
    const rendered = renderError(exception, this.logger, {
      method: request?.method,
      url: redactUrl(request?.url),
    });
    if (reply.sent) return;
    void reply.status(rendered.status).headers(rendered.headers).send(rendered.body);
  }
}

function redactUrl(url?: string): string | undefined {
  return url?.split('?')[0];
}
