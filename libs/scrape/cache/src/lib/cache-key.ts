import { hash } from 'node:crypto';

import { BoundedMap, findFormat, hasFormat, LIMITS, type ScrapeRequest, urlKey } from '@quarry/contracts';

/** Bumped when the meaning of cached documents changes (older entries then stop matching). */
const KEY_VERSION = 2;

/**
 * The cache key of a request: the normalised URL plus every option that changes the document
 * (formats with their options, main-content and tag filters, device, location, ad blocking,
 * base64 handling, waits, parsers, redaction and cleaning) and the sensitive ones (headers,
 * actions, profile) so such requests can never match a shared entry.
 */
export function scrapeCacheKey(request: ScrapeRequest): string {
  const material = {
    v: KEY_VERSION,
    url: cachedUrlKey(request.url),
    formats: [...request.formats].map(canonical).sort(),
    onlyMainContent: request.onlyMainContent,
    onlyCleanContent: request.onlyCleanContent,
    includeTags: request.includeTags ?? [],
    excludeTags: request.excludeTags ?? [],
    mobile: request.mobile,
    location: request.location
      ? { country: request.location.country, languages: request.location.languages ?? [] }
      : null,
    removeBase64Images: request.removeBase64Images,
    blockAds: request.blockAds,
    waitFor: request.waitFor,
    parsers: request.parsers ?? null,
    redactPII: request.redactPII,
    headers: request.headers ? canonical(lowerKeys(request.headers)) : null,
    actions: request.actions ?? null,
    profile: request.profile?.name ?? null,
  };
  return hash('sha256', canonical(material), 'hex');
}

/** URLs looked up lately and their keys: a cache hit repeats its URL, and `urlKey` parses it (a `URL` and its query). */
const URL_KEYS = new BoundedMap<string, string>(1_024);
const URL_KEYS_MAX_URL = 2_048;

function cachedUrlKey(url: string): string {
  if (url.length > URL_KEYS_MAX_URL) return urlKey(url);
  let key = URL_KEYS.get(url);
  if (key === undefined) {
    key = urlKey(url);
    URL_KEYS.set(url, key);
  }
  return key;
}

/** Whether a fresh result of this request may be written to the cache. */
export function isCacheWritable(request: ScrapeRequest, statusCode: number): boolean {
  return (
    request.storeInCache &&
    !request.zeroDataRetention &&
    !request.profile &&
    !hasFormat(request.formats, 'changeTracking') &&
    statusCode >= 200 &&
    statusCode < 400
  );
}

/** Whether the request consults the cache before (or instead of) scraping. */
export function isCacheReadable(request: ScrapeRequest): boolean {
  if (request.lockdown || request.minAge !== undefined) return true;
  // Change tracking compares against the last scrape: a cached copy would always be "same".
  return (request.maxAge ?? 0) > 0 && !hasFormat(request.formats, 'changeTracking');
}

/** The oldest entry a lookup accepts: `maxAge`, capped so an entry's screenshot URL is still valid. */
export function oldestAcceptable(request: ScrapeRequest, now: number): Date {
  let maxAge = request.maxAge ?? LIMITS.defaultMaxAgeMs;
  if (findFormat(request.formats, 'screenshot'))
    maxAge = Math.min(maxAge, LIMITS.screenshotLifetimeMs - 5 * 60_000);
  return new Date(now - maxAge);
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
}

/**
 * JSON with sorted object keys, so equal options give equal keys. Computed on every cache lookup (a
 * cache hit's largest own cost in the gateway's CPU profile, as entries/filter/sort/map chains): one
 * pass per level with string concatenation, the same text as before (keys sorted by UTF-16 code
 * units, undefined members left out), so stored entries keep matching.
 */
export function canonical(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) out += ',';
      out += canonical(value[index]);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    if (out.length > 1) out += ',';
    out += `${JSON.stringify(key)}:${canonical(member)}`;
  }
  return `${out}}`;
}
