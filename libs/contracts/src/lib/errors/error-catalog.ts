/**
 * Every error the API answers with: HTTP status, default message (docs/compatibility.md#errors) and whether a
 * client may retry. Domain code throws `AppError(code)`; the gateway's one filter renders this table.
 */
export const ERROR_CATALOG = {
  BAD_REQUEST: { status: 400, message: 'Bad Request', retryable: false },
  BAD_REQUEST_INVALID_JSON: { status: 400, message: 'Bad request, malformed JSON', retryable: false },
  INVALID_URL: { status: 400, message: 'Invalid URL', retryable: false },
  INVALID_JOB_ID: {
    status: 400,
    message: 'Invalid job ID format. Job ID must be a valid UUID.',
    retryable: false,
  },
  SCRAPE_ACTIONS_NOT_SUPPORTED: {
    status: 400,
    message:
      'Actions are not supported by any available engines. Configure a browser (CHROMIUM_PATH) to use actions.',
    retryable: false,
  },
  PARSE_UNSUPPORTED_OPTIONS: { status: 400, message: 'Unsupported options for parse', retryable: false },
  PARSE_UNSUPPORTED_FILE_TYPE: { status: 400, message: 'Unsupported file type', retryable: false },
  SCRAPE_PDF_OCR_REQUIRED: {
    status: 400,
    message:
      'This PDF has no usable text layer and requires OCR, but the requested PDF mode is "fast". Use mode "auto" (falls back to OCR) or "ocr", e.g. parsers: [{ type: "pdf", mode: "auto" }]',
    retryable: false,
  },
  SCRAPE_ZDR_VIOLATION_ERROR: {
    status: 400,
    message: 'This feature is unavailable with zero data retention',
    retryable: false,
  },
  UNAUTHORIZED: { status: 401, message: 'Unauthorized: Invalid token', retryable: false },
  PAYMENT_REQUIRED: { status: 402, message: 'Payment Required: Insufficient credits', retryable: false },
  FORBIDDEN: { status: 403, message: 'Forbidden', retryable: false },
  SCRAPE_PROMPT_INJECTION_DETECTED: {
    status: 403,
    message: 'SCRAPE_PROMPT_INJECTION_DETECTED',
    retryable: false,
  },
  /** Hosted-only search sources (the reference's data-provider catalogue), answered as for a team without them. */
  EXCHANGE_NOT_ENABLED: { status: 403, message: 'Exchange is not enabled for this team.', retryable: false },
  NOT_FOUND: { status: 404, message: 'Not Found', retryable: false },
  /** A method the path does not serve (the answer names the allowed ones in `Allow`). */
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method Not Allowed', retryable: false },
  JOB_NOT_FOUND: { status: 404, message: 'Job not found', retryable: false },
  SCRAPE_NO_CACHED_DATA: {
    status: 404,
    message: 'No cached data is available for this URL and age',
    retryable: false,
  },
  SCRAPE_LOCKDOWN_CACHE_MISS: {
    status: 404,
    message: 'No cached copy is available in lockdown mode',
    retryable: false,
  },
  SCRAPE_TIMEOUT: { status: 408, message: 'Request Timeout', retryable: true },
  SCRAPE_PDF_INSUFFICIENT_TIME_ERROR: {
    status: 408,
    message:
      'The time budget ran out before any page of the document was parsed; retry with a higher timeout or a lower maxPages',
    retryable: true,
  },
  MAP_TIMEOUT: {
    status: 408,
    message: 'The map operation timed out. Try again with a higher timeout or a lower limit.',
    retryable: true,
  },
  CONFLICT: { status: 409, message: 'Conflict', retryable: false },
  /** A second session asked to save a browser profile another session is saving (docs/scraping.md#profiles; text per docs/compatibility.md#errors, reason in details). */
  SCRAPE_PROFILE_LOCKED: { status: 409, message: 'Conflict', retryable: false },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Payload Too Large', retryable: false },
  REQUEST_HEADER_FIELDS_TOO_LARGE: {
    status: 431,
    message: 'Request Header Fields Too Large',
    retryable: false,
  },
  UNPROCESSABLE_ENTITY: { status: 422, message: 'Unprocessable Entity', retryable: true },
  /** A page over MAX_PAGE_ELEMENTS/MAX_PAGE_LINKS or a content worker's memory: refused, not charged (body code SCRAPE_SITE_ERROR). */
  SCRAPE_PAGE_TOO_LARGE: { status: 422, message: 'The page is too large to process', retryable: false },
  DOCUMENT_ENCRYPTED: {
    status: 422,
    message: 'The document is password-protected and cannot be parsed',
    retryable: false,
  },
  DOCUMENT_INVALID: {
    status: 422,
    message: 'The document is malformed or truncated and could not be parsed',
    retryable: false,
  },
  /** A document that expands beyond DOC_MAX_ENTRY_BYTES, DOC_MAX_INFLATED_BYTES or DOC_MAX_OUTPUT_BYTES (the message names it). */
  DOCUMENT_TOO_LARGE: {
    status: 422,
    message: 'The document expands beyond the size this deployment parses',
    retryable: false,
  },
  RATE_LIMITED: { status: 429, message: 'Rate limit exceeded', retryable: true },
  CONCURRENCY_LIMITED: { status: 429, message: 'Concurrency limit reached', retryable: true },
  PARSE_UPLOAD_UNPARSED_LIMIT_REACHED: {
    status: 429,
    message:
      'Too many unparsed uploads: parse or let expire the upload references of the last 24 hours before requesting more',
    retryable: true,
  },
  UNKNOWN_ERROR: { status: 500, message: 'Internal Server Error', retryable: true },
  SCRAPE_ALL_ENGINES_FAILED: {
    status: 500,
    message: 'All scraping engines failed for this URL',
    retryable: true,
  },
  SCRAPE_SSL_ERROR: {
    status: 500,
    message: 'The target TLS certificate could not be verified',
    retryable: false,
  },
  SCRAPE_SITE_ERROR: { status: 500, message: 'The target site could not be loaded', retryable: true },
  SCRAPE_UNSUPPORTED_FILE_ERROR: {
    status: 500,
    message: 'The file type of the target is not supported',
    retryable: false,
  },
  SCRAPE_ACTION_ERROR: { status: 500, message: 'An action failed on the page', retryable: false },
  /** Poison work: every allowed attempt ended without an outcome (its process died); quarantined, never run again. */
  SCRAPE_RETRY_LIMIT: {
    status: 500,
    message: 'The work was quarantined after repeated attempts',
    retryable: false,
  },
  BAD_GATEWAY: { status: 502, message: 'Bad Gateway', retryable: true },
  SERVICE_UNAVAILABLE: { status: 503, message: 'Service Unavailable', retryable: true },
  GATEWAY_TIMEOUT: { status: 504, message: 'Gateway Timeout', retryable: true },
  // Answered with HTTP 200 and success:false (docs/compatibility.md#errors): the SDK raises it as an error.
  SCRAPE_DNS_RESOLUTION_ERROR: {
    status: 200,
    message: 'The domain name of the URL could not be resolved',
    retryable: false,
  },
} as const satisfies Record<string, { status: number; message: string; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** Codes written into the body as `code`; others use the generic class of their status. */
export function bodyCodeFor(code: ErrorCode): string | undefined {
  switch (code) {
    case 'INVALID_URL':
    case 'INVALID_JOB_ID':
    case 'BAD_REQUEST':
      return 'BAD_REQUEST';
    case 'UNAUTHORIZED':
    case 'PAYMENT_REQUIRED':
    case 'FORBIDDEN':
    case 'NOT_FOUND':
    case 'METHOD_NOT_ALLOWED':
    case 'JOB_NOT_FOUND':
    case 'CONFLICT':
    case 'RATE_LIMITED':
    case 'CONCURRENCY_LIMITED':
    case 'SERVICE_UNAVAILABLE':
    case 'BAD_GATEWAY':
    case 'GATEWAY_TIMEOUT':
    case 'PAYLOAD_TOO_LARGE':
    case 'REQUEST_HEADER_FIELDS_TOO_LARGE':
    case 'UNPROCESSABLE_ENTITY':
      return undefined;
    case 'SCRAPE_PAGE_TOO_LARGE':
      return 'SCRAPE_SITE_ERROR';
    default:
      return code;
  }
}
