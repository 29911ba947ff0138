import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

import { activeTraceIds } from './tracing';

export type { Logger } from 'pino';

/** Injection token of the process's pino logger. */
export const LOGGER = Symbol('LOGGER');

export function createLogger(options: { service: string; level: string }): Logger {
  return pino({
    level: options.level,
    base: { service: options.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Log lines written while a sampled span is active carry its ids, so logs and traces join up.
    mixin: () => activeTraceIds() ?? {},
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', '*.apiKey', 'apiKey'],
      censor: '[redacted]',
    },
  });
}

/** Routes Nest's own log lines into pino. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
