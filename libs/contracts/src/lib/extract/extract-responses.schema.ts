/** Response shapes of the extract routes (docs/extract.md). */
import { z } from 'zod';

import { webhookDeliverySummarySchema } from '../crawl/webhook.schema';

export const extractStartResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  /** Always empty: URL traces are not recorded. */
  urlTrace: z.tuple([]),
  /** URLs dropped because they were invalid (with `ignoreInvalidURLs`, the default). */
  invalidURLs: z.array(z.string()).optional(),
});
export type ExtractStartResponse = z.infer<typeof extractStartResponseSchema>;

export const EXTRACT_JOB_STATUSES = ['processing', 'completed', 'failed', 'cancelled'] as const;
export type ExtractJobStatus = (typeof EXTRACT_JOB_STATUSES)[number];

export const extractStatusResponseSchema = z.object({
  /** False only when the job failed. */
  success: z.boolean(),
  /** The extracted value once completed; `[]` before (as the reference service answers). */
  data: z.unknown(),
  status: z.enum(EXTRACT_JOB_STATUSES),
  error: z.string().optional(),
  /** Offline fallbacks and other caveats, e.g. "json: no language model is configured…". */
  warning: z.string().optional(),
  expiresAt: z.string(),
  /** With `showSources`: per top-level field of `data`, the URLs of the pages it was found on. */
  sources: z.record(z.string(), z.array(z.string())).optional(),
  /** Language-model tokens the job used (0 without a model). */
  tokensUsed: z.number(),
  /** Credits charged: the pages read plus the extraction, only once completed. */
  creditsUsed: z.number(),
  /** With a webhook: how its deliveries fared. */
  webhookDelivery: webhookDeliverySummarySchema.optional(),
});
export type ExtractStatusResponse = z.infer<typeof extractStatusResponseSchema>;
