import { z } from 'zod';

import { httpUrlSchema } from '../common/url.schema';
import { checkScrapeOptions, resolveScrapeOptions, scrapeOptionsShape } from './scrape-options.schema';

/** Body of `POST /v2/scrape` (docs/scraping.md#options). Unknown keys are rejected. */
export const scrapeRequestSchema = z
  .strictObject({
    url: httpUrlSchema,
    ...scrapeOptionsShape,
    zeroDataRetention: z.boolean().default(false),
    origin: z.string().max(256).default('api'),
    integration: z.string().max(256).optional(),
    // SDK extras accepted and ignored (docs/compatibility.md#unknown-keys).
    domainTools: z.unknown().optional(),
    toolDetail: z.unknown().optional(),
  })
  .superRefine((request, ctx) => checkScrapeOptions(request, ctx))
  .transform((request) => {
    const { domainTools: _domainTools, toolDetail: _toolDetail, ...rest } = request;
    return resolveScrapeOptions(rest);
  });

export type ScrapeRequestInput = z.input<typeof scrapeRequestSchema>;
export type ScrapeRequest = z.output<typeof scrapeRequestSchema>;
