import { z } from 'zod';

import { LIMITS } from '../common/limits';
import { webhookSchema } from '../crawl/webhook.schema';
import { isOpenObjectWithoutProperties, OPEN_SCHEMA_MESSAGE } from '../scrape/formats.schema';
import { scrapeOptionsSchema } from '../scrape/scrape-options.schema';

export const EXTRACT_LIMITS = {
  /** URLs a request may name (docs/extract.md). */
  maxUrls: 10,
  /** Minimum balance before a job starts (docs/extract.md#api: credits ≥ 20). */
  minimumCredits: 20,
  /** Upper bound of `limit` (the pages actually read are also capped by AGENT_MAX_PAGES). */
  maxLimit: 10_000,
} as const;

/** Texts of the extract routes (docs/extract.md#api), word for word. */
export const EXTRACT_MESSAGES = {
  notFound: 'Extract job not found',
  urlsOrPrompt: "Either 'urls' or 'prompt' must be provided.",
  tooManyUrls: `Maximum of ${EXTRACT_LIMITS.maxUrls} URLs allowed per request while in beta.`,
  noValidUrls: 'No valid URLs provided',
  lockdown:
    'scrapeOptions.lockdown is not supported on extract: an extract job reads the pages it scrapes back from the store',
} as const;

/** A URL ending in `/*` means "this site": the job maps the site and reads what it finds. */
export const SITE_GLOB_SUFFIX = '/*';

/**
 * Body of `POST /v2/extract` (docs/extract.md; deprecated, kept for the SDK's `extract`/`startExtract`).
 * Strict. URLs are checked one by one by the service, so `ignoreInvalidURLs` can list the bad ones;
 * the schema's JSON Schema validity is checked there too (422).
 */
export const extractRequestSchema = z
  .strictObject({
    urls: z.array(z.string().max(8_192)).optional(),
    prompt: z.string().max(LIMITS.promptMaxLength).optional(),
    systemPrompt: z.string().max(LIMITS.promptMaxLength).optional(),
    schema: z.record(z.string(), z.unknown()).optional(),
    limit: z.int().min(1).max(EXTRACT_LIMITS.maxLimit).optional(),
    ignoreSitemap: z.boolean().default(false),
    includeSubdomains: z.boolean().default(true),
    allowExternalLinks: z.boolean().default(false),
    enableWebSearch: z.boolean().default(false),
    scrapeOptions: scrapeOptionsSchema.optional(),
    showSources: z.boolean().default(false),
    ignoreInvalidURLs: z.boolean().default(true),
    webhook: webhookSchema.optional(),
    /** The SDK's `agent: {model}` (FIRE-1…): accepted; the configured model (LLM_MODEL) is used. */
    agent: z.strictObject({ model: z.string().max(256).optional() }).optional(),
    /** Timeout of each page read (ms). */
    timeout: z.int().min(LIMITS.timeoutMs.min).max(LIMITS.timeoutMs.max).optional(),
    urlTrace: z.boolean().default(false),
    threatProtection: z.record(z.string(), z.unknown()).optional(),
    origin: z.string().max(256).default('api'),
    integration: z.string().max(256).optional(),
  })
  .superRefine((request, ctx) => {
    const issue = (message: string, path: PropertyKey[]) => ctx.addIssue({ code: 'custom', message, path });
    if ((request.urls?.length ?? 0) > EXTRACT_LIMITS.maxUrls) issue(EXTRACT_MESSAGES.tooManyUrls, ['urls']);
    if (!request.urls?.length && !request.prompt?.trim()) issue(EXTRACT_MESSAGES.urlsOrPrompt, []);
    if (isOpenObjectWithoutProperties(request.schema)) issue(OPEN_SCHEMA_MESSAGE, ['schema']);
    if (request.scrapeOptions?.lockdown) issue(EXTRACT_MESSAGES.lockdown, ['scrapeOptions', 'lockdown']);
    if (request.timeout !== undefined && (request.scrapeOptions?.waitFor ?? 0) > request.timeout / 2)
      issue('waitFor must not exceed half of timeout', ['scrapeOptions', 'waitFor']);
  })
  // Web search finds pages anywhere, so it implies external links (docs/extract.md).
  .transform((request) => ({
    ...request,
    allowExternalLinks: request.allowExternalLinks || request.enableWebSearch,
  }));

export type ExtractRequestInput = z.input<typeof extractRequestSchema>;
export type ExtractRequest = z.output<typeof extractRequestSchema>;
