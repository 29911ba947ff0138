import { AppError } from '@quarry/contracts';
import {
  BlockedAddressError,
  DnsResolutionError,
  isTlsError,
  OutboundTimeoutError,
  ResponseTooLargeError,
  TooManyRedirectsError,
  UnsupportedContentEncodingError,
} from '@quarry/platform/net';

/** Maps an engine failure to the API's error (docs/compatibility.md#errors). Blocked targets are not errors: see ScrapePipeline. */
export function toScrapeError(error: unknown, url: string): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof DnsResolutionError) {
    return new AppError('SCRAPE_DNS_RESOLUTION_ERROR', {
      message: `DNS resolution failed for ${error.hostname}: the domain could not be found`,
    });
  }
  if (error instanceof OutboundTimeoutError || isAbort(error)) return new AppError('SCRAPE_TIMEOUT');
  if (isTlsError(error)) {
    return new AppError('SCRAPE_SSL_ERROR', {
      message: `TLS certificate verification failed for ${url}; retry with skipTlsVerification true`,
    });
  }
  if (error instanceof ResponseTooLargeError) {
    // The engines read pages with the default limit: MAX_RESPONSE_BYTES, counted after decoding.
    return new AppError('SCRAPE_SITE_ERROR', { message: `${error.message} (MAX_RESPONSE_BYTES)` });
  }
  if (error instanceof UnsupportedContentEncodingError)
    return new AppError('SCRAPE_SITE_ERROR', { message: error.message });
  if (error instanceof TooManyRedirectsError)
    return new AppError('SCRAPE_SITE_ERROR', { message: error.message });
  const code = (error as { code?: unknown })?.code ?? (error as { cause?: { code?: unknown } })?.cause?.code;
  const reason = typeof code === 'string' ? code : error instanceof Error ? error.message : 'unknown error';
  return new AppError('SCRAPE_SITE_ERROR', { message: `The target could not be loaded (${reason})` });
}

export function isBlocked(error: unknown): error is BlockedAddressError {
  return error instanceof BlockedAddressError;
}

function isAbort(error: unknown): boolean {
  const name = (error as { name?: unknown })?.name;
  return name === 'AbortError' || name === 'TimeoutError';
}
