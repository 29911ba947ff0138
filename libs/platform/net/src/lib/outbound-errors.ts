/** How every refusal of a target by the outbound guard begins (docs/scraping.md#engines: `metadata.error` of the 403 answer). */
export const BLOCKED_TARGET_ERROR = 'Blocked insecure target URL';

/** The target resolves to (or is) an address outbound requests may not reach. */
export class BlockedAddressError extends Error {
  readonly code = 'BLOCKED_ADDRESS';
  constructor(
    readonly url: string,
    readonly address?: string,
  ) {
    super(`${BLOCKED_TARGET_ERROR}: ${url} resolves to a private, loopback, link-local or metadata address`);
    this.name = 'BlockedAddressError';
  }
}

export class DnsResolutionError extends Error {
  readonly code = 'DNS_RESOLUTION';
  constructor(
    readonly hostname: string,
    cause?: unknown,
  ) {
    super(`DNS resolution failed for ${hostname}`, { cause });
    this.name = 'DnsResolutionError';
  }
}

export class ResponseTooLargeError extends Error {
  readonly code = 'RESPONSE_TOO_LARGE';
  /** `encoding`: the Content-Encoding whose decoding passed the limit (decoding was stopped there). */
  constructor(
    readonly limitBytes: number,
    readonly encoding?: string,
  ) {
    super(
      `The response body exceeds the limit of ${limitBytes} bytes${encoding ? ` once decoded (Content-Encoding: ${encoding}); decoding was stopped at the limit` : ''}`,
    );
    this.name = 'ResponseTooLargeError';
  }
}

/** The target answered with a content coding the client did not offer and cannot decode (e.g. zstd). */
export class UnsupportedContentEncodingError extends Error {
  readonly code = 'UNSUPPORTED_CONTENT_ENCODING';
  constructor(readonly encoding: string) {
    super(
      `The target answered with Content-Encoding ${encoding}, which was not offered (Accept-Encoding: gzip, deflate, br) and is not decoded`,
    );
    this.name = 'UnsupportedContentEncodingError';
  }
}

export class OutboundTimeoutError extends Error {
  readonly code = 'TIMEOUT';
  constructor(readonly timeoutMs: number) {
    super(`The target did not answer within ${timeoutMs} ms`);
    this.name = 'OutboundTimeoutError';
  }
}

export class TooManyRedirectsError extends Error {
  readonly code = 'TOO_MANY_REDIRECTS';
  constructor(readonly url: string) {
    super(`Too many redirects starting at ${url}`);
    this.name = 'TooManyRedirectsError';
  }
}

const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/i;

/** True for a certificate verification failure. */
export function isTlsError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && TLS_CODES.test(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
