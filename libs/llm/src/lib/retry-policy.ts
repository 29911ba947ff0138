/**
 * Retry rules of spec §7.4, applied to calls the platform makes itself: retry 408, 429, 500, 502,
 * 503, 504 and connection failures; exponential backoff with jitter, doubling per attempt, capped at
 * 30 s; at most 5 attempts; a `Retry-After` header wins when present.
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);
export const MAX_BACKOFF_MS = 30_000;

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
