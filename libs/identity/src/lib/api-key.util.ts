import { hash, randomBytes } from 'node:crypto';

import { LIMITS } from '@quarry/contracts';

const KEY_PREFIX = 'fc-';

/** A new API key: `fc-` and 48 hex characters (192 random bits). Only its hash is stored. */
export function generateApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(24).toString('hex')}`;
}

/**
 * SHA-256 is enough for keys of this entropy (no dictionary to guard against); it keeps lookups O(1).
 * One-shot `hash` (no Hash object per call): it runs on every authenticated request.
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** The displayable start of a key, e.g. `fc-1a2b3c4d`. */
export function keyPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 8);
}

const BEARER = new RegExp(
  `^Bearer[ \\t]+(\\S{${LIMITS.apiKeyLength.min},${LIMITS.apiKeyLength.max}})[ \\t]*$`,
  'i',
);

/** Extracts the key from `Authorization: Bearer <key>`; undefined when absent or malformed. */
export function parseBearer(header: string | undefined): string | undefined {
  if (!header) return undefined;
  return BEARER.exec(header)?.[1];
}
