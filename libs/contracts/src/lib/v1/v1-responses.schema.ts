/** Answers of the `/v1` routes that differ from their v2 counterparts (docs/v1.md). */
import { z } from 'zod';

import { collectionStatusResponseSchema } from '../crawl/crawl-responses.schema';

/** A document in v1 shape: the v2 document's fields, the json result under `extract` and/or `json`. */
export const v1DocumentSchema = z.record(z.string(), z.unknown());

export const v1ScrapeResponseSchema = z.object({ success: z.literal(true), data: v1DocumentSchema });

export const v1CollectionStatusResponseSchema = collectionStatusResponseSchema.extend({
  data: z.array(v1DocumentSchema),
});

export const v1MapResponseSchema = z.object({
  success: z.literal(true),
  links: z.array(z.string()),
  warning: z.string().optional(),
});

/** Web results: a v1 document with title and description when the result was scraped, else the bare result. */
export const v1SearchResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(z.record(z.string(), z.unknown())),
  id: z.string(),
  warning: z.string().optional(),
});

const billingPeriod = { billing_period_start: z.string(), billing_period_end: z.string() };

export const v1CreditUsageResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ remaining_credits: z.number(), plan_credits: z.number(), ...billingPeriod }),
});

export const v1TokenUsageResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ remaining_tokens: z.number(), plan_tokens: z.number(), ...billingPeriod }),
});
