import { z } from 'zod';

import { LIMITS } from '../common/limits';
import { actionSchema, actionsWaitMs } from './actions.schema';
import { formatEntrySchema, type FormatObject, hasFormat } from './formats.schema';
import { parserSchema } from './parsers.schema';

/**
 * `location.country` is an ISO 3166-1 alpha-2 code. Lower case ("us", "de") is normalised to upper
 * case, as the reference service does and its clients rely on (docs/compatibility.md).
 */
export const locationSchema = z.strictObject({
  // The pattern is on the input, so the OpenAPI document states it (generated clients and fuzzers read it).
  country: z
    .string()
    .regex(/^\s*[A-Za-z]{2}\s*$/, { error: 'location.country must be an ISO 3166-1 alpha-2 code, e.g. "US"' })
    .transform((country) => country.trim().toUpperCase())
    .default('US'),
  languages: z.array(z.string().min(1).max(35)).max(20).optional(),
});

export const profileSchema = z.strictObject({
  name: z.string().min(LIMITS.profileName.min).max(LIMITS.profileName.max),
  saveChanges: z.boolean().default(true),
});

export const PII_ENTITIES = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'] as const;

export const redactPiiSchema = z.union([
  z.boolean(),
  z.strictObject({
    mode: z.enum(['accurate', 'aggressive', 'fast']).default('accurate'),
    entities: z.array(z.enum(PII_ENTITIES)).optional(),
    replaceStyle: z.enum(['tag', 'mask', 'remove']).default('tag'),
  }),
]);

export const PROXY_MODES = ['basic', 'enhanced', 'auto'] as const;

const DEFAULT_FORMATS: FormatObject[] = [{ type: 'markdown' }];

/**
 * Fields shared by every request that scrapes pages (scrape, crawl `scrapeOptions`, batch, search,
 * parse). Kept as a plain shape so each endpoint composes its own strict object.
 */
export const scrapeOptionsShape = {
  formats: z.array(formatEntrySchema).max(25).default(DEFAULT_FORMATS),
  onlyMainContent: z.boolean().default(true),
  onlyCleanContent: z.boolean().default(false),
  includeTags: z.array(z.string().min(1).max(1_000)).max(100).optional(),
  excludeTags: z.array(z.string().min(1).max(1_000)).max(100).optional(),
  maxAge: z.int().min(0).optional(),
  minAge: z.int().min(0).optional(),
  headers: z.record(z.string().max(1_000), z.string().max(8_192)).optional(),
  waitFor: z.int().min(0).max(LIMITS.waitForMs.max).default(0),
  mobile: z.boolean().default(false),
  skipTlsVerification: z.boolean().default(true),
  timeout: z.int().min(LIMITS.timeoutMs.min).max(LIMITS.timeoutMs.max).default(LIMITS.timeoutMs.default),
  parsers: z.array(parserSchema).max(5).optional(),
  actions: z.array(actionSchema).max(LIMITS.maxActions).optional(),
  location: locationSchema.optional(),
  removeBase64Images: z.boolean().default(true),
  blockAds: z.boolean().default(true),
  proxy: z.enum(PROXY_MODES).default('auto'),
  storeInCache: z.boolean().default(true),
  lockdown: z.boolean().default(false),
  redactPII: redactPiiSchema.default(false),
  profile: profileSchema.optional(),
  fastMode: z.boolean().default(false),
  /** Scan the page for prompt injection before any language-model format runs (403 on a hit; +4 credits). */
  checkPromptInjection: z.boolean().default(false),
  threatProtection: z.record(z.string(), z.unknown()).optional(),
  auditMetadata: z.record(z.string(), z.unknown()).optional(),
};

type ScrapeOptionsInput = z.output<z.ZodObject<typeof scrapeOptionsShape>>;

/** RFC 9110 section 5.1: a field name is a token. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Cross-field rules of the scrape options (docs/scraping.md#options, docs/scraping.md#formats), shared by every schema built from the shape. */
export function checkScrapeOptions(
  options: ScrapeOptionsInput,
  ctx: z.RefinementCtx,
  path: PropertyKey[] = [],
): void {
  const issue = (message: string, at: PropertyKey[]) =>
    ctx.addIssue({ code: 'custom', message, path: [...path, ...at] });
  if (options.waitFor > options.timeout / 2) issue('waitFor must not exceed half of timeout', ['waitFor']);
  const actions = options.actions ?? [];
  if (options.waitFor + actionsWaitMs(actions) > LIMITS.totalWaitMs) {
    issue(`Total wait time (waitFor + wait actions) must not exceed ${LIMITS.totalWaitMs / 1000} seconds`, [
      'actions',
    ]);
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!HEADER_NAME.test(name))
      issue(
        `Invalid header name "${name.slice(0, 100)}": a header name is a token (letters, digits and !#$%&'*+-.^_\`|~)`,
        ['headers', name],
      );
    else if (/[\r\n\0]/.test(value))
      issue(`Invalid value of header "${name}": line breaks and NUL characters are not allowed`, [
        'headers',
        name,
      ]);
  }
  const formats = options.formats;
  if (hasFormat(formats, 'rawBase64') && formats.length > 1)
    issue('rawBase64 must be the only requested format', ['formats']);
  if (hasFormat(formats, 'changeTracking') && !hasFormat(formats, 'markdown')) {
    issue('The changeTracking format requires the markdown format', ['formats']);
  }
  if (formats.filter((format) => format.type === 'screenshot').length > 1)
    issue('Only one screenshot format may be requested', ['formats']);
  if (hasFormat(formats, 'json') && hasFormat(formats, 'deterministicJson')) {
    issue('The json and deterministicJson formats cannot be combined', ['formats']);
  }
}

/**
 * Applies the rules that derive one option from others (docs/scraping.md#options): lockdown's default maxAge,
 * storeInCache forced off by sensitive parameters, lockdown as zero data retention.
 */
export function resolveScrapeOptions<T extends ScrapeOptionsInput & { zeroDataRetention?: boolean }>(
  options: T,
) {
  const sensitive = (options.actions?.length ?? 0) > 0 || Object.keys(options.headers ?? {}).length > 0;
  return {
    ...options,
    maxAge: options.maxAge ?? (options.lockdown ? LIMITS.lockdownMaxAgeMs : LIMITS.defaultMaxAgeMs),
    storeInCache: options.storeInCache && !sensitive && !options.lockdown && !options.zeroDataRetention,
    zeroDataRetention: (options.zeroDataRetention ?? false) || options.lockdown,
  };
}

export const scrapeOptionsSchema = z
  .strictObject({
    ...scrapeOptionsShape,
    // The SDK's types allow these inside nested scrapeOptions (docs/crawl.md#crawl-options): accepted, ignored.
    origin: z.string().max(256).optional(),
    integration: z.string().max(256).optional(),
    toolDetail: z.unknown().optional(),
  })
  .superRefine((options, ctx) => checkScrapeOptions(options, ctx));

export type ScrapeOptions = z.infer<typeof scrapeOptionsSchema>;
