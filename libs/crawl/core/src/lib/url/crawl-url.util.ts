/** URL handling of the crawler: parsing discovered links and the frontier's deduplication key. */

export interface UrlKeyOptions {
  /** Query strings are dropped: `/a?x=1` and `/a?x=2` are one page. */
  ignoreQueryParameters: boolean;
  /** www/non-www, http/https, trailing `/` and `index.html`/`index.php` variants are one page. */
  deduplicateSimilarURLs: boolean;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };
const INDEX_FILE = /\/index\.(?:html?|php|asp|aspx|jsp|cfm)$/i;

/** Parses an absolute http(s) URL (or `raw` relative to `base`), without its fragment; undefined otherwise. */
export function parseHttpUrl(raw: string, base?: string): URL | undefined {
  let url: URL;
  try {
    url = base === undefined ? new URL(raw) : new URL(raw, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (!url.hostname) return undefined;
  // Set only when there is one (an empty one too): setting it re-serialises the URL.
  if (url.href.includes('#')) url.hash = '';
  return url;
}

/** The URL the crawler fetches for a discovered link: no fragment, no query when queries are ignored. */
export function crawlTarget(url: URL, options: Pick<UrlKeyOptions, 'ignoreQueryParameters'>): string {
  if (!options.ignoreQueryParameters || url.search === '') return url.href;
  const copy = new URL(url.href);
  copy.search = '';
  return copy.href;
}

/** Host name without a leading `www.`, lower case. */
export function bareHost(hostname: string): string {
  const host = hostname.toLowerCase();
  return host.startsWith('www.') ? host.slice(4) : host;
}

/**
 * The frontier key of a URL: equal keys are the same page within one crawl. Scheme, host and path
 * are normalised; query parameters are sorted (or dropped).
 */
export function crawlUrlKey(url: URL, options: UrlKeyOptions): string {
  const port = url.port && url.port !== DEFAULT_PORTS[url.protocol] ? `:${url.port}` : '';
  let path = url.pathname.replace(/\/{2,}/g, '/') || '/';
  let host = url.hostname.toLowerCase();
  let scheme = `${url.protocol}//`;
  if (options.deduplicateSimilarURLs) {
    host = bareHost(host);
    scheme = '//';
    path = path.replace(INDEX_FILE, '/');
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  }
  let query = '';
  if (!options.ignoreQueryParameters && url.search.length > 1) {
    const params = [...url.searchParams.entries()].sort(([a, av], [b, bv]) =>
      a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1,
    );
    query = `?${new URLSearchParams(params).toString()}`;
  }
  return `${scheme}${host}${port}${path}${query}`;
}

/** `scheme://host[:port]`: the unit robots.txt applies to and politeness is counted by. */
export function originOf(url: URL): string {
  return url.origin.toLowerCase();
}
