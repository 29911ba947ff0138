import { z } from 'zod';
import { httpUrlSchema } from '../common/url.schema';

/** Events a caller may subscribe to (compat §17); every event is sent when `events` is omitted. */
export const WEBHOOK_EVENTS = ['completed', 'failed', 'page', 'started'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The header our signature travels in; callers may not set it themselves. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-firecrawl-signature';

const webhookObjectSchema = z.strictObject({
  url: httpUrlSchema,
  headers: z.record(z.string().min(1).max(256), z.string().max(8_192)).default({}),
  metadata: z.record(z.string(), z.unknown()).default({}),
  events: z.array(z.enum(WEBHOOK_EVENTS)).max(WEBHOOK_EVENTS.length).default([...WEBHOOK_EVENTS]),
});

/** `webhook` of crawl and batch requests: a URL or `{url, headers, metadata, events}` (compat §8.1). */
export const webhookSchema = z
  .union([httpUrlSchema, webhookObjectSchema])
  .transform((value) => (typeof value === 'string' ? webhookObjectSchema.parse({ url: value }) : value))
  .superRefine((webhook, ctx) => {
    if (Object.keys(webhook.headers).some((name) => name.toLowerCase() === WEBHOOK_SIGNATURE_HEADER)) {
      ctx.addIssue({ code: 'custom', message: `The webhook header ${WEBHOOK_SIGNATURE_HEADER} is reserved for the signature`, path: ['headers'] });
    }
  });

export type WebhookSettings = z.output<typeof webhookObjectSchema>;

/** Body POSTed to a webhook (compat §17). `webhookId` is stable across retries of one delivery. */
export interface WebhookBody<T = unknown> {
  success: boolean;
  type: string;
  id: string;
  webhookId: string;
  data: T[];
  error?: string;
  metadata: Record<string, unknown>;
}
