import { createHmac, timingSafeEqual } from 'node:crypto';

/** `X-Firecrawl-Signature` value: `sha256=<hex HMAC-SHA256 of the exact body>` (docs/crawl.md#webhooks). */
export function signWebhookBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** Receiver-side check (used by tests and documented for users). */
export function verifyWebhookSignature(body: string, secret: string, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signWebhookBody(body, secret));
  const actual = Buffer.from(header.trim());
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
