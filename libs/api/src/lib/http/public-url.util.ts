/** A host (name, IPv4 or bracketed IPv6) with an optional port: what a Host header may hold. */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

type Headers = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim().toLowerCase() || undefined;

/**
 * The base of absolute URLs handed to this caller (crawl/batch `url`, status `next`): PUBLIC_URL when
 * configured; otherwise the host the request came through, as the reference service does — the first
 * `X-Forwarded-Host` / `X-Forwarded-Proto` (a reverse proxy), else the `Host` header over the
 * connection's protocol. Undefined (use the configured fallback) when no usable host was sent.
 */
export function requestPublicUrl(
  configured: string | undefined,
  headers: Headers,
  protocol: string | undefined,
): string | undefined {
  if (configured) return configured;
  const forwardedHost = first(headers['x-forwarded-host']);
  const host = forwardedHost && HOST.test(forwardedHost) ? forwardedHost : first(headers['host']);
  if (!host || !HOST.test(host)) return undefined;
  const forwardedProto = first(headers['x-forwarded-proto']);
  const scheme =
    forwardedProto === 'https' || forwardedProto === 'http'
      ? forwardedProto
      : protocol === 'https'
        ? 'https'
        : 'http';
  return `${scheme}://${host}`;
}
