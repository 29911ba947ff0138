import { ERROR_CATALOG, type ErrorCode } from './error-catalog';

export interface AppErrorOptions {
  /** Overrides the catalogue message (e.g. a specific validation message). */
  message?: string;
  details?: unknown;
  /** Seconds a client should wait before retrying (429, 503). */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/** A failure the API reports to its caller in the spec's error shape. Thrown by domain code. */
export class AppError extends Error {
  readonly status: number;
  readonly details?: unknown;
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    options: AppErrorOptions = {},
  ) {
    super(
      options.message ?? ERROR_CATALOG[code].message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'AppError';
    this.status = ERROR_CATALOG[code].status;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get retryable(): boolean {
    return ERROR_CATALOG[this.code].retryable;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
