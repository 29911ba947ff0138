import { z } from 'zod';

import { LIMITS } from '../common/limits';
import { checkScrapeOptions, scrapeOptionsShape } from '../scrape/scrape-options.schema';
import { webhookSchema } from './webhook.schema';

/**
 * Body of `POST /v2/batch/scrape` (docs/crawl.md#batch-scrape): scrape options flattened next to `urls`. URLs are
 * checked one by one by the service, so `ignoreInvalidURLs` can list the bad ones instead of failing.
 */
export const batchScrapeRequestSchema = z
  .strictObject({
    urls: z
      .array(z.string().max(8_192))
      .min(1, { error: 'urls must contain at least one URL' })
      .max(LIMITS.batch.maxUrls),
    ...scrapeOptionsShape,
    webhook: webhookSchema.optional(),
    appendToId: z.uuid().optional(),
    ignoreInvalidURLs: z.boolean().default(true),
    maxConcurrency: z.int().min(1).max(LIMITS.crawl.maxConcurrency).optional(),
    zeroDataRetention: z.boolean().default(false),
    origin: z.string().max(256).default('api'),
    integration: z.string().max(256).optional(),
  })
  .superRefine((request, ctx) => checkScrapeOptions(request, ctx));

export type BatchScrapeRequestInput = z.input<typeof batchScrapeRequestSchema>;
export type BatchScrapeRequest = z.output<typeof batchScrapeRequestSchema>;
