/**
 * Bounds on link traps (calendars, session ids, ever-growing query strings). A URL is refused when it
 * is implausibly long or repetitive; chains of URLs of one shape are cut by `trapRun` (see CrawlScope).
 */
export const TRAP_LIMITS = {
  maxUrlLength: 2_048,
  maxPathSegments: 32,
  /** The same path segment more than this many times (e.g. `/a/b/a/b/a/b/a`). */
  maxSegmentRepeats: 3,
  maxQueryParameters: 24,
  /** One query key repeated more than this many times. */
  maxQueryKeyRepeats: 3,
} as const;

/** Why a URL looks like a trap, or undefined when it looks like a page. */
export function trapReason(url: URL): string | undefined {
  if (url.href.length > TRAP_LIMITS.maxUrlLength) return 'URL too long';
  const segments = url.pathname.split('/').filter(Boolean);
  if (segments.length > TRAP_LIMITS.maxPathSegments) return 'path too deep';
  const counts = new Map<string, number>();
  for (const segment of segments) {
    const count = (counts.get(segment) ?? 0) + 1;
    if (count > TRAP_LIMITS.maxSegmentRepeats) return 'repeated path segments';
    counts.set(segment, count);
  }
  if (url.search.length > 1) {
    const keys = new Map<string, number>();
    let total = 0;
    for (const key of url.searchParams.keys()) {
      total += 1;
      const count = (keys.get(key) ?? 0) + 1;
      if (count > TRAP_LIMITS.maxQueryKeyRepeats) return 'repeated query parameters';
      keys.set(key, count);
    }
    if (total > TRAP_LIMITS.maxQueryParameters) return 'too many query parameters';
  }
  return undefined;
}

/**
 * The shape of a URL: host and path with digit runs replaced, query keys with their values replaced.
 * `/calendar/2024/05?view=month` and `/calendar/2031/11?view=week` share a shape.
 */
export function urlShape(url: URL): string {
  const path = url.pathname.replace(/\d+/g, '#');
  const keys = url.search.length > 1 ? [...new Set(url.searchParams.keys())].sort().join('&') : '';
  return `${url.hostname.toLowerCase()}${path}${keys ? `?${keys}` : ''}`;
}
