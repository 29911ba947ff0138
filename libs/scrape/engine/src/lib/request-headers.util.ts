/**
 * Header names of the `headers` option that no engine forwards: they describe the connection
 * rather than the request (RFC 9110 section 7.6.1 hop-by-hop headers, message framing, the target's
 * authority), so the HTTP client and the browser set them themselves, and Chromium refuses to
 * let a page override several of them. Browsers' fetch() ignores the same names.
 */
const CONNECTION_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  // never request headers: obsolete, or a response header (Chromium refuses both)
  'cookie2',
  'set-cookie',
]);

/** True for a header an engine never sends on the caller's behalf (see CONNECTION_HEADERS; also every `Proxy-*`). */
export function isConnectionHeader(name: string): boolean {
  const lower = name.trim().toLowerCase();
  return CONNECTION_HEADERS.has(lower) || lower.startsWith('proxy-');
}

/** The request's headers split into those sent to the target and those dropped (their names as given). */
export function forwardableHeaders(headers: Record<string, string> | undefined): {
  headers: Record<string, string>;
  dropped: string[];
} {
  const kept: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (isConnectionHeader(name)) dropped.push(name);
    else kept[name] = value;
  }
  return { headers: kept, dropped };
}

/** The document's warning for dropped headers, or undefined when none were. */
export function droppedHeadersWarning(dropped: readonly string[]): string | undefined {
  if (dropped.length === 0) return undefined;
  return `These headers describe the connection and are set by the scraper itself, so they were not sent: ${dropped.join(', ')}.`;
}
