import { z } from 'zod';

import { LIMITS } from '../common/limits';
import { EXTRACT_LIMITS } from '../extract/extract-request.schema';

/**
 * The v1 API (docs/v1.md): request bodies as the v1 clients send them (firecrawl-py's `.v1`,
 * Flowise, n8n, LangChain, Dify). They are validated here with their v1 names, then translated
 * (v1-translate.ts) into v2 request bodies that the v2 contracts validate again. Unknown keys are
 * refused as in v2; the reference's experimental flags (`__experimental_*`) are accepted and ignored.
 */

/** v1 formats: strings only (`screenshot@fullPage`, `extract` and `json` take their options beside). */
export const V1_FORMATS = [
  'markdown',
  'html',
  'rawHtml',
  'rawBase64',
  'links',
  'images',
  'screenshot',
  'screenshot@fullPage',
  'extract',
  'json',
  'summary',
  'changeTracking',
  'branding',
  'product',
  'menu',
] as const;
export type V1Format = (typeof V1_FORMATS)[number];

const optionalText = z.string().max(LIMITS.promptMaxLength).nullish();
const jsonSchemaObject = z.record(z.string(), z.unknown()).nullish();

/** `extract` / `jsonOptions`: what the `extract` / `json` formats ask the model for. */
export const v1ExtractOptionsSchema = z.strictObject({
  mode: z.enum(['llm']).optional(),
  schema: jsonSchemaObject,
  systemPrompt: optionalText,
  prompt: optionalText,
  temperature: z.number().optional(),
  checkPromptInjection: z.boolean().optional(),
  agent: z.strictObject({ model: z.string().max(64).optional(), prompt: z.string().optional() }).optional(),
});

const v1LocationSchema = z.strictObject({
  country: z.string().max(32).optional(),
  languages: z.array(z.string().min(1).max(35)).max(20).optional(),
});

/** Experimental and internal keys of the reference's v1 schemas: accepted, no effect. */
const ignoredV1Keys = {
  __experimental_cache: z.boolean().optional(),
  __experimental_omce: z.boolean().optional(),
  __experimental_omceDomain: z.string().optional(),
  __forceFirePDF: z.boolean().optional(),
  __searchPreviewToken: z.string().optional(),
  useMock: z.string().optional(),
};

/** The v1 scrape options (scrape, batch, crawl `scrapeOptions`, search `scrapeOptions`, extract). */
export const v1ScrapeOptionsShape = {
  formats: z.array(z.enum(V1_FORMATS)).max(25).optional(),
  headers: z.record(z.string().max(1_000), z.string().max(8_192)).optional(),
  includeTags: z.array(z.string().min(1).max(1_000)).max(100).optional(),
  excludeTags: z.array(z.string().min(1).max(1_000)).max(100).optional(),
  onlyMainContent: z.boolean().optional(),
  onlyCleanContent: z.boolean().optional(),
  timeout: z.int().min(LIMITS.timeoutMs.min).optional(),
  waitFor: z.int().min(0).max(LIMITS.waitForMs.max).optional(),
  extract: v1ExtractOptionsSchema.optional(),
  jsonOptions: v1ExtractOptionsSchema.optional(),
  changeTrackingOptions: z
    .strictObject({
      prompt: optionalText,
      schema: jsonSchemaObject,
      modes: z.array(z.enum(['json', 'git-diff'])).optional(),
      tag: z.string().max(256).nullish(),
    })
    .optional(),
  mobile: z.boolean().optional(),
  parsePDF: z.boolean().optional(),
  /** Validated by the v2 action schemas after translation. */
  actions: z.array(z.record(z.string(), z.unknown())).max(LIMITS.maxActions).optional(),
  location: v1LocationSchema.optional(),
  /** Deprecated name of `location`. */
  geolocation: v1LocationSchema.optional(),
  skipTlsVerification: z.boolean().optional(),
  removeBase64Images: z.boolean().optional(),
  fastMode: z.boolean().optional(),
  blockAds: z.boolean().optional(),
  proxy: z.enum(['basic', 'stealth', 'enhanced', 'auto']).optional(),
  maxAge: z.int().min(0).optional(),
  storeInCache: z.boolean().optional(),
  threatProtection: z.record(z.string(), z.unknown()).optional(),
  auditMetadata: z.record(z.string(), z.unknown()).optional(),
  /** FIRE-1 agentic scraping: not available here (refused when sent, docs/v1.md). */
  agent: z
    .strictObject({
      model: z.string().max(64).optional(),
      prompt: z.string().optional(),
      sessionId: z.string().optional(),
      waitBeforeClosingMs: z.number().optional(),
    })
    .optional(),
  ...ignoredV1Keys,
};

export const v1ScrapeOptionsSchema = z.strictObject(v1ScrapeOptionsShape);
export type V1ScrapeOptions = z.output<typeof v1ScrapeOptionsSchema>;

const envelope = {
  origin: z.string().max(256).optional(),
  integration: z.string().max(256).nullish(),
};

/** `POST /v1/scrape`. The URL may lack its scheme (`http://` is then assumed, as v1 did). */
export const v1ScrapeRequestSchema = z.strictObject({
  url: z.string().min(1).max(8_192),
  ...v1ScrapeOptionsShape,
  zeroDataRetention: z.boolean().optional(),
  ...envelope,
});
export type V1ScrapeRequest = z.output<typeof v1ScrapeRequestSchema>;

const v1WebhookSchema = z.union([
  z.string().max(8_192),
  z.strictObject({
    url: z.string().max(8_192),
    headers: z.record(z.string(), z.string()).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    events: z.array(z.enum(['completed', 'failed', 'page', 'started'])).optional(),
  }),
]);

/** `POST /v1/batch/scrape`: scrape options flattened beside `urls`. */
export const v1BatchScrapeRequestSchema = z.strictObject({
  urls: z.array(z.string().max(8_192)).min(1).max(LIMITS.batch.maxUrls),
  ...v1ScrapeOptionsShape,
  webhook: v1WebhookSchema.optional(),
  appendToId: z.uuid().optional(),
  ignoreInvalidURLs: z.boolean().optional(),
  maxConcurrency: z.int().min(1).optional(),
  zeroDataRetention: z.boolean().optional(),
  ...envelope,
});
export type V1BatchScrapeRequest = z.output<typeof v1BatchScrapeRequestSchema>;

/** The v1 crawler options (crawl; map takes some of them). */
const v1CrawlerOptionsShape = {
  includePaths: z.array(z.string()).optional(),
  excludePaths: z.array(z.string()).optional(),
  maxDepth: z.number().int().min(0).optional(),
  maxDiscoveryDepth: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).optional(),
  allowBackwardLinks: z.boolean().optional(),
  crawlEntireDomain: z.boolean().optional(),
  allowExternalLinks: z.boolean().optional(),
  allowSubdomains: z.boolean().optional(),
  ignoreRobotsTxt: z.boolean().optional(),
  ignoreSitemap: z.boolean().optional(),
  deduplicateSimilarURLs: z.boolean().optional(),
  ignoreQueryParameters: z.boolean().optional(),
  regexOnFullURL: z.boolean().optional(),
  delay: z.number().optional(),
};

/** `POST /v1/crawl`. */
export const v1CrawlRequestSchema = z.strictObject({
  url: z.string().min(1).max(8_192),
  ...v1CrawlerOptionsShape,
  scrapeOptions: v1ScrapeOptionsSchema.optional(),
  webhook: v1WebhookSchema.optional(),
  maxConcurrency: z.int().min(1).optional(),
  zeroDataRetention: z.boolean().optional(),
  ...envelope,
});
export type V1CrawlRequest = z.output<typeof v1CrawlRequestSchema>;

/** `POST /v1/map`: links as plain strings in the answer. */
export const v1MapRequestSchema = z.strictObject({
  url: z.string().min(1).max(8_192),
  ...v1CrawlerOptionsShape,
  search: z.string().max(1_000).optional(),
  includeSubdomains: z.boolean().optional(),
  sitemapOnly: z.boolean().optional(),
  timeout: z.number().positive().optional(),
  filterByPath: z.boolean().optional(),
  useIndex: z.boolean().optional(),
  ignoreCache: z.boolean().optional(),
  location: v1LocationSchema.optional(),
  headers: z.record(z.string().max(1_000), z.string().max(8_192)).optional(),
  threatProtection: z.record(z.string(), z.unknown()).optional(),
  auditMetadata: z.record(z.string(), z.unknown()).optional(),
  useMock: z.string().optional(),
  ...envelope,
});
export type V1MapRequest = z.output<typeof v1MapRequestSchema>;

/** `POST /v1/search`: web results only; `scrapeOptions.formats` empty (the default) means no scraping. */
export const v1SearchRequestSchema = z.strictObject({
  query: z.string().min(1).max(LIMITS.search.maxQueryLength),
  limit: z.int().min(1).max(LIMITS.search.maxLimit).optional(),
  tbs: z.string().max(256).nullish(),
  filter: z.string().max(256).nullish(),
  lang: z.string().max(16).nullish(),
  country: z.string().max(16).nullish(),
  location: z.string().max(256).nullish(),
  timeout: z.int().min(1).optional(),
  ignoreInvalidURLs: z.boolean().optional(),
  scrapeOptions: v1ScrapeOptionsSchema.optional(),
  threatProtection: z.record(z.string(), z.unknown()).optional(),
  __searchPreviewToken: z.string().optional(),
  ...envelope,
});
export type V1SearchRequest = z.output<typeof v1SearchRequestSchema>;

/** `POST /v1/extract`: as v2's, with v1 scrape options and the v1 experimental flags. */
export const v1ExtractRequestSchema = z.strictObject({
  urls: z.array(z.string().max(8_192)).max(EXTRACT_LIMITS.maxUrls).nullish(),
  prompt: optionalText,
  systemPrompt: optionalText,
  schema: jsonSchemaObject,
  limit: z.int().min(1).optional(),
  ignoreSitemap: z.boolean().optional(),
  includeSubdomains: z.boolean().optional(),
  allowExternalLinks: z.boolean().optional(),
  enableWebSearch: z.boolean().optional(),
  scrapeOptions: v1ScrapeOptionsSchema.optional(),
  urlTrace: z.boolean().optional(),
  timeout: z.int().min(1).optional(),
  showSources: z.boolean().optional(),
  agent: z.strictObject({ model: z.string().max(64).optional() }).optional(),
  ignoreInvalidURLs: z.boolean().optional(),
  webhook: v1WebhookSchema.optional(),
  threatProtection: z.record(z.string(), z.unknown()).optional(),
  __experimental_streamSteps: z.boolean().optional(),
  __experimental_llmUsage: z.boolean().optional(),
  __experimental_showSources: z.boolean().optional(),
  __experimental_cacheKey: z.string().optional(),
  __experimental_cacheMode: z.enum(['direct', 'save', 'load']).optional(),
  __experimental_showCostTracking: z.boolean().optional(),
  ...envelope,
});
export type V1ExtractRequest = z.output<typeof v1ExtractRequestSchema>;
