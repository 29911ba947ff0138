import { z } from 'zod';
import { httpUrlSchema } from '../common/url.schema';
import { checkScrapeOptions, resolveScrapeOptions, scrapeOptionsShape } from './scrape-options.schema';

/** Body of `POST /v2/scrape` (spec §2.1, compat §7.1). Unknown keys are rejected. */
export const scrapeRequestSchema = z
  .strictObject({
    url: httpUrlSchema,
    ...scrapeOptionsShape,
    zeroDataRetention: z.boolean().default(false),
    origin: z.string().max(256).default('api'),
    integration: z.string().max(256).optional(),
    // SDK extras accepted and ignored (compat §7.1).
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
