import { z } from 'zod';

import { httpUrlSchema } from '../common/url.schema';

/** Events a caller may subscribe to (docs/crawl.md#webhooks); every event is sent when `events` is omitted. */
export const WEBHOOK_EVENTS = ['completed', 'failed', 'page', 'started'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The header our signature travels in; callers may not set it themselves. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-firecrawl-signature';

/**
 * A webhook object `{url, headers, metadata, events}` (docs/crawl.md#webhooks, docs/agent.md#webhooks, docs/monitor.md#notifications): `events` out of
 * `events`, all of them by default; the signature header is reserved.
 */
export function webhookObjectSchemaFor<const E extends readonly [string, ...string[]]>(events: E) {
  return z
    .strictObject({
      url: httpUrlSchema,
      headers: z.record(z.string().min(1).max(256), z.string().max(8_192)).default({}),
      metadata: z.record(z.string(), z.unknown()).default({}),
      events: z
        .array(z.enum(events))
        .max(events.length)
        .default([...events] as E[number][]),
    })
    .superRefine((webhook, ctx) => {
      if (Object.keys(webhook.headers).some((name) => name.toLowerCase() === WEBHOOK_SIGNATURE_HEADER)) {
        ctx.addIssue({
          code: 'custom',
          message: `The webhook header ${WEBHOOK_SIGNATURE_HEADER} is reserved for the signature`,
          path: ['headers'],
        });
      }
    });
}

/** A request's `webhook` as a URL or a webhook object, normalised to the object. */
export function webhookSchemaFor<const E extends readonly [string, ...string[]]>(events: E) {
  const object = webhookObjectSchemaFor(events);
  return z
    .union([httpUrlSchema, object])
    .transform((value) => (typeof value === 'string' ? object.parse({ url: value }) : value));
}

/** `webhook` of crawl, batch and extract requests (docs/crawl.md#webhooks, docs/extract.md#webhooks). */
export const webhookSchema = webhookSchemaFor(WEBHOOK_EVENTS);

/** Where and what to deliver: the normalised `webhook` of a job (its events of its own kind). */
export interface WebhookSettings<E extends string = WebhookEvent> {
  url: string;
  headers: Record<string, string>;
  metadata: Record<string, unknown>;
  events: E[];
}

/** Body POSTed to a webhook (docs/crawl.md#webhooks). `webhookId` is stable across retries of one delivery. */
export interface WebhookBody<T = unknown> {
  success: boolean;
  type: string;
  id: string;
  webhookId: string;
  data: T[];
  error?: string;
  metadata: Record<string, unknown>;
}

/**
 * How a job's webhook events have fared so far, in the status bodies of crawls, batches, extract
 * and agent jobs and monitor checks (`webhookDelivery`, present when the job has a webhook): a
 * refused or failing receiver shows here instead of failing silently.
 */
export const webhookDeliverySummarySchema = z.object({
  /** Events the receiver accepted (2xx). */
  delivered: z.int(),
  /** Events waiting for their first attempt or a retry. */
  pending: z.int(),
  /** Events given up: every attempt failed, or the outbound policy refused the target. */
  failed: z.int(),
  /** The latest event (in event order) whose last attempt failed; it may still be retried at `nextAttemptAt`. */
  lastError: z
    .object({
      event: z.string(),
      error: z.string(),
      /** HTTP status of the receiver's answer; null when there was none (refused, timeout, connection error). */
      statusCode: z.int().nullable(),
      attempts: z.int(),
      /** When it is tried again; null once given up. */
      nextAttemptAt: z.string().nullable(),
    })
    .optional(),
});
export type WebhookDeliverySummary = z.infer<typeof webhookDeliverySummarySchema>;
