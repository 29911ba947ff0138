import { z } from 'zod';

export const INVALID_URL = 'Invalid URL';

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const TLD = /\.[a-z][a-z0-9-]*[a-z0-9]\.?$|\.xn--[a-z0-9-]+\.?$/i;

/**
 * True when `value` is an absolute http(s) URL whose host looks routable: a dotted name with a
 * TLD-like last label, an IP literal, or a `localhost` name (whether local targets may be reached
 * is the outbound guard's decision, not the contract's).
 */
export function isAcceptableHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const host = url.hostname;
  if (!host) return false;
  if (host.startsWith('[') && host.endsWith(']')) return true;
  if (IPV4.test(host)) return true;
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return TLD.test(host);
}

/** An absolute http(s) URL kept exactly as sent (`sourceURL` is never normalised). */
export const httpUrlSchema = z
  .string({ error: INVALID_URL })
  .max(8_192, { error: INVALID_URL })
  .refine((value) => isAcceptableHttpUrl(value.trim()), { error: INVALID_URL });

export const uuidSchema = z.uuid();
