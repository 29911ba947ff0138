import { z } from 'zod';

import { LIMITS } from '../common/limits';
import { httpUrlSchema } from '../common/url.schema';
import { scrapeOptionsSchema } from '../scrape/scrape-options.schema';
import { webhookSchema } from './webhook.schema';

export const SITEMAP_MODES = ['skip', 'include', 'only'] as const;
export type SitemapMode = (typeof SITEMAP_MODES)[number];

/** A quantified group that itself contains a quantifier, e.g. `(a+)+` or `(x*y){2,}`: exponential backtracking on some inputs. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*(?:[+*]|\{\d+,?\d*\})(?:[^()\\]|\\.)*\)(?:[+*]|\{\d+,\d*\})/;

/**
 * `includePaths`/`excludePaths`: regular expressions, each compiled here so a bad one is a 400 naming
 * its error. Patterns with nested quantifiers are refused: workers match them against every
 * discovered URL, and JavaScript regular expressions cannot be time-limited.
 */
export const pathPatternsSchema = z
  .array(z.string().min(1).max(LIMITS.crawl.maxPatternLength))
  .max(LIMITS.crawl.maxPatterns)
  .default([])
  .superRefine((patterns, ctx) => {
    patterns.forEach((pattern, index) => {
      try {
        new RegExp(pattern);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `Invalid regular expression in ${pattern}: ${(error as Error).message}`,
          path: [index],
        });
        return;
      }
      if (NESTED_QUANTIFIER.test(pattern)) {
        ctx.addIssue({
          code: 'custom',
          message: `Regular expression ${pattern} nests quantifiers (catastrophic backtracking); rewrite it without a repeated group of repetitions`,
          path: [index],
        });
      }
    });
  });

/**
 * Crawler options shared by crawl and (partly) map (docs/crawl.md#crawl-options): how links are followed. Kept as a
 * plain shape so each endpoint composes its own strict object.
 */
export const crawlerOptionsShape = {
  includePaths: pathPatternsSchema,
  excludePaths: pathPatternsSchema,
  regexOnFullURL: z.boolean().default(false),
  maxDiscoveryDepth: z.int().min(0).max(LIMITS.crawl.maxDepth).optional(),
  limit: z.int().min(1).max(LIMITS.crawl.maxLimit).default(LIMITS.crawl.defaultLimit),
  crawlEntireDomain: z.boolean().default(false),
  allowExternalLinks: z.boolean().default(false),
  allowSubdomains: z.boolean().default(false),
  ignoreQueryParameters: z.boolean().default(false),
  deduplicateSimilarURLs: z.boolean().default(true),
  ignoreRobotsTxt: z.boolean().default(false),
  robotsUserAgent: z.string().min(1).max(256).optional(),
  sitemap: z.enum(SITEMAP_MODES).default('include'),
  /** Seconds between two requests to the same host. */
  delay: z.number().gt(0).max(LIMITS.crawl.maxDelaySeconds).optional(),
  maxConcurrency: z.int().min(1).max(LIMITS.crawl.maxConcurrency).optional(),
};

/** Natural-language crawl instructions (docs/crawl.md#crawl-options): an empty or blank prompt is an invalid prompt (400). */
const promptSchema = z
  .string()
  .max(LIMITS.promptMaxLength)
  .refine((prompt) => prompt.trim().length > 0, { error: 'The prompt must not be empty' });

/** Body of `POST /v2/crawl` (docs/crawl.md#crawl-options). Unknown keys are rejected. */
export const crawlRequestSchema = z.strictObject({
  url: httpUrlSchema,
  ...crawlerOptionsShape,
  prompt: promptSchema.optional(),
  webhook: webhookSchema.optional(),
  scrapeOptions: scrapeOptionsSchema.prefault({}),
  zeroDataRetention: z.boolean().default(false),
  origin: z.string().max(256).default('api'),
  integration: z.string().max(256).optional(),
});

export type CrawlRequestInput = z.input<typeof crawlRequestSchema>;
export type CrawlRequest = z.output<typeof crawlRequestSchema>;
export type CrawlerOptions = Omit<
  CrawlRequest,
  'url' | 'prompt' | 'webhook' | 'scrapeOptions' | 'zeroDataRetention' | 'origin' | 'integration'
>;

/** Body of `POST /v2/crawl/params-preview` (docs/crawl.md#crawl-options; not strict in the reference). */
export const crawlParamsPreviewSchema = z.object({
  url: httpUrlSchema,
  prompt: promptSchema,
  origin: z.string().max(256).optional(),
  integration: z.string().max(256).optional(),
});
export type CrawlParamsPreviewRequest = z.output<typeof crawlParamsPreviewSchema>;

const previewedOptions = z.object(crawlerOptionsShape).pick({
  includePaths: true,
  excludePaths: true,
  maxDiscoveryDepth: true,
  crawlEntireDomain: true,
  allowExternalLinks: true,
  allowSubdomains: true,
  sitemap: true,
  ignoreQueryParameters: true,
  deduplicateSimilarURLs: true,
  delay: true,
  limit: true,
});

/** Answer of `POST /v2/crawl/params-preview`: the crawler options the prompt sets, and the URL. */
export const crawlParamsPreviewResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ ...previewedOptions.partial().shape, url: z.string() }),
  warning: z.string().optional(),
});
