export type LlmErrorKind =
  /** No model is configured. */
  | 'unavailable'
  /** The endpoint did not answer within the timeout (after retries). */
  | 'timeout'
  /** The endpoint answered an HTTP error (after retries for retryable ones). */
  | 'http'
  /** Connection-level failure (after retries). */
  | 'network'
  /** The answer was not what was asked for (no content, unparsable JSON, cut off by the token limit). */
  | 'invalid_response'
  /** The model declined to answer. */
  | 'refused';

/** A failed language-model call. */
export class LlmError extends Error {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly options: { status?: number; attempts?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LlmError';
  }

  get status(): number | undefined {
    return this.options.status;
  }

  /** Transport failures (the model could not be reached), as opposed to an answer that was wrong. */
  get unreachable(): boolean {
    return (
      this.kind === 'unavailable' ||
      this.kind === 'timeout' ||
      this.kind === 'network' ||
      this.kind === 'http'
    );
  }
}

export function isLlmError(error: unknown): error is LlmError {
  return error instanceof LlmError;
}
