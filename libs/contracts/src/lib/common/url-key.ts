/**
 * The key under which a URL is cached and indexed: lower-case scheme and host, no default port,
 * no fragment, no trailing slash on the path, query parameters sorted. `sourceURL` keeps the URL as
 * sent; this key only groups equivalent spellings.
 */
export function urlKey(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return raw.trim();
  }
  url.hash = '';
  const params = [...url.searchParams.entries()].sort(([a, av], [b, bv]) =>
    a === b ? av.localeCompare(bv) : a.localeCompare(b),
  );
  url.search = '';
  for (const [key, value] of params) url.searchParams.append(key, value);
  let path = url.pathname.replace(/\/{2,}/g, '/');
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  url.pathname = path;
  return url.toString();
}
