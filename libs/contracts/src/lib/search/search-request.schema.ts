import { z } from 'zod';

import { LIMITS } from '../common/limits';
import { scrapeDocumentSchema } from '../scrape/document.schema';
import type { FormatType } from '../scrape/formats.schema';
import { scrapeOptionsSchema } from '../scrape/scrape-options.schema';

export const SEARCH_SOURCES = ['web', 'images', 'news'] as const;
export type SearchSource = (typeof SEARCH_SOURCES)[number];

const CATEGORY_ALIASES: Record<string, 'github' | 'research' | 'pdf' | 'developer'> = {
  github: 'github',
  research: 'research',
  pdf: 'pdf',
  developer: 'developer',
  repo: 'developer',
  repos: 'developer',
  code: 'developer',
  docs: 'developer',
  documentation: 'developer',
};

/** Formats a search may scrape its results into (docs/crawl.md#search). */
export const SEARCH_SCRAPE_FORMATS: readonly FormatType[] = [
  'markdown',
  'html',
  'rawHtml',
  'links',
  'images',
  'summary',
  'product',
  'menu',
  'json',
  'question',
  'highlights',
  'query',
  'screenshot',
];

const webSourceSchema = z.strictObject({
  type: z.literal('web'),
  tbs: z.string().max(256).optional(),
  filter: z.string().max(256).optional(),
  lang: z.string().max(16).optional(),
  country: z.string().max(16).optional(),
  location: z.string().max(256).optional(),
});

/**
 * The reference service's catalogue of data providers (`alexandria`, formerly `exchange`): a hosted
 * feature. Asking for it is answered 403 "Exchange is not enabled for this team." as the reference
 * answers a team without it, which its MCP server takes as the cue to retry with `web` alone.
 */
export const HOSTED_SEARCH_SOURCES = ['alexandria', 'exchange'] as const;

const hostedSourceSchema = z.union([
  z.enum(HOSTED_SEARCH_SOURCES),
  z.looseObject({ type: z.enum(HOSTED_SEARCH_SOURCES) }),
]);

const sourceSchema = z.union([
  z.enum(SEARCH_SOURCES).transform((type) => ({ type })),
  webSourceSchema,
  z.strictObject({ type: z.literal('images') }),
  z.strictObject({ type: z.literal('news') }),
  hostedSourceSchema.transform(() => ({ type: 'alexandria' as const })),
]);

const categorySchema = z.union([z.string(), z.strictObject({ type: z.string() })]).transform((value, ctx) => {
  const name = (typeof value === 'string' ? value : value.type).toLowerCase();
  const category = CATEGORY_ALIASES[name];
  if (!category) {
    ctx.addIssue({ code: 'custom', message: `Unknown search category ${name}` });
    return z.NEVER;
  }
  return category;
});

const domainSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(/^(\*\.)?[a-z0-9.-]+(:\d+)?$/i, { error: 'Domains must be host names, e.g. example.com' });

/** Body of `POST /v2/search` (docs/crawl.md#search). */
export const searchRequestSchema = z
  .strictObject({
    query: z.string().trim().min(1).max(LIMITS.search.maxQueryLength),
    limit: z.int().min(1).max(LIMITS.search.maxLimit).default(LIMITS.search.defaultLimit),
    sources: z
      .array(sourceSchema)
      .min(1)
      .max(3)
      .default(['web'].map((type) => ({ type: type as 'web' }))),
    categories: z.array(categorySchema).max(4).optional(),
    includeDomains: z.array(domainSchema).max(100).optional(),
    excludeDomains: z.array(domainSchema).max(100).optional(),
    tbs: z.string().max(256).optional(),
    filter: z.string().max(256).optional(),
    location: z.string().max(256).optional(),
    lang: z.string().max(16).default('en'),
    country: z.string().max(16).optional(),
    safe: z.boolean().optional(),
    highlights: z.boolean().optional(),
    timeout: z.int().min(1).max(LIMITS.timeoutMs.max).default(LIMITS.timeoutMs.default),
    ignoreInvalidURLs: z.boolean().default(false),
    asyncScraping: z.boolean().default(false),
    enterprise: z
      .array(z.enum(['default', 'anon', 'zdr']))
      .max(3)
      .optional(),
    scrapeOptions: scrapeOptionsSchema.optional(),
    threatProtection: z.record(z.string(), z.unknown()).optional(),
    origin: z.string().max(256).default('api'),
    integration: z.string().max(256).optional(),
    // SDK extras accepted and ignored (docs/compatibility.md#unknown-keys).
    toolDetail: z.unknown().optional(),
    domainTools: z.unknown().optional(),
  })
  .superRefine((request, ctx) => {
    if (request.includeDomains?.length && request.excludeDomains?.length) {
      ctx.addIssue({
        code: 'custom',
        message: 'includeDomains and excludeDomains cannot both be specified',
        path: ['includeDomains'],
      });
    }
    // Aliases of one category (`docs`, `code` → developer) are one category, not a combination.
    const categories = new Set(request.categories ?? []);
    if (categories.has('developer') && categories.size > 1) {
      ctx.addIssue({
        code: 'custom',
        message: 'The developer category cannot be combined with other categories',
        path: ['categories'],
      });
    }
    for (const format of request.scrapeOptions?.formats ?? []) {
      if (!SEARCH_SCRAPE_FORMATS.includes(format.type)) {
        ctx.addIssue({
          code: 'custom',
          message: `The ${format.type} format is not available in search`,
          path: ['scrapeOptions', 'formats'],
        });
      }
    }
  })
  .transform((request) => {
    const { toolDetail: _toolDetail, domainTools: _domainTools, ...rest } = request;
    return { ...rest, country: request.country ?? (request.location ? undefined : 'us') };
  });

export type SearchRequest = z.output<typeof searchRequestSchema>;
export const SEARCH_VALIDATION_MESSAGE = 'Invalid request body';

export const searchWebResultSchema = scrapeDocumentSchema.partial().extend({
  url: z.string(),
  title: z.string(),
  description: z.string(),
  position: z.int(),
  category: z.string().optional(),
});
export type SearchWebResult = z.infer<typeof searchWebResultSchema>;

export const searchImageResultSchema = z.object({
  title: z.string(),
  imageUrl: z.string(),
  imageWidth: z.number().optional(),
  imageHeight: z.number().optional(),
  url: z.string(),
  position: z.int(),
});
export type SearchImageResult = z.infer<typeof searchImageResultSchema>;

export const searchNewsResultSchema = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  date: z.string().optional(),
  imageUrl: z.string().optional(),
  position: z.int(),
});
export type SearchNewsResult = z.infer<typeof searchNewsResultSchema>;

export const searchResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    web: z.array(searchWebResultSchema).optional(),
    images: z.array(searchImageResultSchema).optional(),
    news: z.array(searchNewsResultSchema).optional(),
  }),
  creditsUsed: z.number(),
  id: z.string(),
  /** With `asyncScraping`: the started scrape jobs, read with `GET /v2/scrape/:jobId`. */
  scrapeIds: z
    .object({
      web: z.array(z.string()).optional(),
      news: z.array(z.string()).optional(),
      images: z.array(z.string()).optional(),
    })
    .optional(),
  warning: z.string().optional(),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
