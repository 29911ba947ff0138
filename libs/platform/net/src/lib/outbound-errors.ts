/** The target resolves to (or is) an address outbound requests may not reach. */
export class BlockedAddressError extends Error {
  readonly code = 'BLOCKED_ADDRESS';
  constructor(
    readonly url: string,
    readonly address?: string,
  ) {
    super(`Blocked insecure target URL: ${url} resolves to a private, loopback, link-local or metadata address`);
    this.name = 'BlockedAddressError';
  }
}

export class DnsResolutionError extends Error {
  readonly code = 'DNS_RESOLUTION';
  constructor(readonly hostname: string, cause?: unknown) {
    super(`DNS resolution failed for ${hostname}`, { cause });
    this.name = 'DnsResolutionError';
  }
}

export class ResponseTooLargeError extends Error {
  readonly code = 'RESPONSE_TOO_LARGE';
  constructor(readonly limitBytes: number) {
    super(`The response body exceeds the limit of ${limitBytes} bytes`);
    this.name = 'ResponseTooLargeError';
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
