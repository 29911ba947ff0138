/**
 * Retry rules of docs/llm.md#the-provider, applied to calls the platform makes itself: retry 408, 429, 500, 502,
 * 503, 504 and connection failures; exponential backoff with jitter, doubling per attempt, capped at
 * 30 s; at most 5 attempts; a `Retry-After` header wins when present.
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);
export const MAX_BACKOFF_MS = 30_000;
/** docs/llm.md#the-provider: at most 5 attempts. */
export const MAX_ATTEMPTS = 5;
/**
 * The longest `Retry-After` a call without a deadline waits for; a server asking for more is
 * answered by giving up (the spec forbids retrying sooner, and nobody waits minutes for a format).
 */
export const MAX_RETRY_AFTER_MS = 120_000;
/** Less time than this left after a wait is not worth another attempt. */
export const MIN_ATTEMPT_MS = 250;

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/** Delay before attempt `attempt + 1` (attempt counts from 1), full jitter over the upper half. */
export function backoffDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), or undefined. */
export function parseRetryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Whether waiting `delayMs` before the next attempt still leaves time for it: within the caller's
 * deadline (and a minimal attempt), else within MAX_RETRY_AFTER_MS when the caller has none.
 */
export function waitFitsBudget(delayMs: number, deadline: number | undefined, now = Date.now()): boolean {
  if (deadline === undefined) return delayMs <= MAX_RETRY_AFTER_MS;
  return now + delayMs + MIN_ATTEMPT_MS <= deadline;
}
