const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '55000', // object_not_in_prerequisite_state: database not accepting connections
  '3D000', // invalid_catalog_name: database does not exist (yet)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'P1001',
  'P1002',
  'P1017',
  'P2024',
]);

const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /connection refused/i,
  /can't reach database/i,
  /server closed the connection/i,
  /timeout exceeded when trying to connect/i,
  /database system is (shutting down|starting up)/i,
  /is not currently accepting connections/i,
  /terminating connection due to administrator command/i,
  /DatabaseNotReachable/i,
  /Connection(Closed|Refused)/i,
];

/** True when an error means the database cannot be reached right now (answered as 503, retried by workers). */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const record = error as Record<string, unknown>;
  for (const key of ['code', 'errorCode']) {
    const code = record[key];
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  }
  const message = typeof record['message'] === 'string' ? record['message'] : '';
  if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  const kind = (record['cause'] as Record<string, unknown> | undefined)?.['kind'];
  if (
    typeof kind === 'string' &&
    /DatabaseNotReachable|ConnectionClosed|SocketTimeout|TooManyConnections/.test(kind)
  )
    return true;
  return (
    isDatabaseUnavailable(record['cause'], depth + 1) ||
    isDatabaseUnavailable(record['originalError'], depth + 1)
  );
}

const DATA_ERROR_MESSAGE =
  /Code: `2[23][0-9A-Z]{3}`|unsupported Unicode escape sequence|invalid byte sequence|out of range|value too long/i;

/**
 * True when the database refused a value (SQLSTATE class 22, data exception, or 23, integrity
 * constraint): the same write fails however often it is retried, so the work is failed, not
 * redelivered.
 */
export function isDataError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const record = error as Record<string, unknown>;
  const code = record['code'];
  if (typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code)) return true;
  const message = typeof record['message'] === 'string' ? record['message'] : '';
  if (DATA_ERROR_MESSAGE.test(message)) return true;
  return isDataError(record['cause'], depth + 1) || isDataError(record['originalError'], depth + 1);
}

/**
 * A JSON value PostgreSQL can store: `jsonb` (and `text`) cannot hold U+0000, which binary bodies
 * and some PDF fonts put into extracted text; it is replaced by U+FFFD, as HTML parsers do. Returns
 * the value itself when it has none (no copy).
 */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string')
    return (value.includes('\u0000') ? value.replaceAll('\u0000', '\ufffd') : value) as T;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const clean = storableJson(item);
      if (clean !== item) (copy ??= [...value])[index] = clean;
    });
    return (copy ?? value) as T;
  }
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const clean = storableJson(item);
      const cleanKey = storableJson(key);
      if (clean !== item || cleanKey !== key) {
        copy ??= { ...(value as Record<string, unknown>) };
        if (cleanKey !== key) delete copy[key];
        copy[cleanKey] = clean;
      }
    }
    return (copy ?? value) as T;
  }
  return value;
}
