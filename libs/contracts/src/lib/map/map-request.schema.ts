import { z } from 'zod';

import { LIMITS } from '../common/limits';
import { httpUrlSchema } from '../common/url.schema';
import { crawlerOptionsShape, SITEMAP_MODES } from '../crawl/crawl-request.schema';
import { locationSchema } from '../scrape/scrape-options.schema';

/**
 * The crawler options map takes (docs/crawl.md#map: all of them but `sitemap` and `ignoreQueryParameters`,
 * which map defines itself, and `limit`, whose range is map's). Patterns, full-URL matching, the
 * entire domain, subdomains, de-duplication, discovery depth and concurrency shape the listing;
 * robots and politeness options are accepted and have no effect (map fetches only a few pages).
 */
const {
  sitemap: _sitemap,
  ignoreQueryParameters: _ignore,
  limit: _limit,
  allowExternalLinks: _external,
  ...mapCrawlerOptions
} = crawlerOptionsShape;

/** Body of `POST /v2/map` (docs/crawl.md#map). */
export const mapRequestSchema = z.strictObject({
  ...mapCrawlerOptions,
  url: httpUrlSchema,
  search: z.string().max(1_000).optional(),
  sitemap: z.enum(SITEMAP_MODES).default('include'),
  includeSubdomains: z.boolean().default(true),
  ignoreQueryParameters: z.boolean().default(true),
  limit: z.int().min(1).max(LIMITS.map.maxLimit).default(LIMITS.map.defaultLimit),
  /** Milliseconds for the whole operation; 408 MAP_TIMEOUT when exceeded. */
  timeout: z.int().min(1).max(LIMITS.timeoutMs.max).optional(),
  filterByPath: z.boolean().default(true),
  useIndex: z.boolean().default(true),
  ignoreCache: z.boolean().default(false),
  allowExternalLinks: z.boolean().default(false),
  location: locationSchema.optional(),
  headers: z.record(z.string().max(1_000), z.string().max(8_192)).optional(),
  threatProtection: z.record(z.string(), z.unknown()).optional(),
  auditMetadata: z.record(z.string(), z.unknown()).optional(),
  origin: z.string().max(256).default('api'),
  integration: z.string().max(256).optional(),
});

export type MapRequest = z.output<typeof mapRequestSchema>;

export const mapLinkSchema = z.object({
  url: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
});
export type MapLink = z.infer<typeof mapLinkSchema>;

export const mapResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  links: z.array(mapLinkSchema),
  warning: z.string().optional(),
});
export type MapResponse = z.infer<typeof mapResponseSchema>;
