import type { CreditUsageResponse, TokenUsageResponse } from '../account/usage.schema';
import { LIMITS } from '../common/limits';
import { AppError } from '../errors/app-error';
import type { ScrapeDocument } from '../scrape/document.schema';
import type {
  V1BatchScrapeRequest,
  V1CrawlRequest,
  V1ExtractRequest,
  V1MapRequest,
  V1ScrapeOptions,
  V1ScrapeRequest,
  V1SearchRequest,
} from './v1-requests.schema';

/**
 * Translation between the v1 API and the v2 contracts (docs/v1.md). Requests become v2 request
 * bodies (then validated by the v2 schemas and served by the v2 services); documents and usage
 * figures are rendered back in their v1 shapes. Pure functions: no I/O.
 */

/** Which of the v1 names the json result is answered under (`extract`, `json`). */
export interface V1Outputs {
  extract: boolean;
  json: boolean;
}

/** Unknown in advance (crawl and batch status pages): the json result goes under both names. */
export const V1_BOTH_OUTPUTS: V1Outputs = { extract: true, json: true };

/** v1 default of `timeout` on `/v1/scrape` (v2's default is 60000). */
export const V1_SCRAPE_TIMEOUT_MS = 30_000;

const JSON_OPTIONS_MESSAGE =
  "When 'extract' or 'json' format is specified, corresponding options must be provided, and vice versa";

/** Drops undefined and null members (v1 clients send nulls for options they leave unset). */
function compact<T extends Record<string, unknown>>(value: T): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value).filter(([, member]) => member !== undefined && member !== null),
  );
}

/** v1 assumed `http://` when a URL had no scheme. */
export function v1Url(url: string): string {
  const trimmed = url.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
}

const clampTimeout = (timeout: number | undefined) =>
  timeout === undefined
    ? undefined
    : Math.min(LIMITS.timeoutMs.max, Math.max(LIMITS.timeoutMs.min, Math.round(timeout)));

/** `us-generic` / `us-whitelist` (v1 proxy pools) are the country `US`. */
function v1Location(location: V1ScrapeOptions['location']): Record<string, unknown> | undefined {
  if (!location) return undefined;
  const country = location.country?.replace(/-(generic|whitelist)$/i, '');
  return compact({ country, languages: location.languages });
}

/**
 * v1 scrape options → v2 scrape options: string formats with their side options become format
 * objects (`screenshot@fullPage`, `extract`/`json` + `extract`/`jsonOptions`, `changeTracking` +
 * `changeTrackingOptions`), `parsePDF: false` becomes `parsers: []`, `stealth` is `enhanced`,
 * `geolocation` is `location`, and the timeout is clamped into v2's 1000..300000.
 */
export function v1ScrapeOptionsToV2(
  options: V1ScrapeOptions,
  defaults: { timeout?: number } = {},
): { options: Record<string, unknown>; outputs: V1Outputs } {
  if (options.agent) {
    throw new AppError('BAD_REQUEST', {
      message:
        'The FIRE-1 agent is not available: use actions, or POST /v2/scrape/{id}/interact on the scraped page',
      details: [{ code: 'custom', path: ['agent'], message: 'not supported' }],
    });
  }
  const formats = options.formats;
  const outputs: V1Outputs = { extract: !!formats?.includes('extract'), json: !!formats?.includes('json') };
  const extraction = outputs.extract
    ? (options.extract ?? options.jsonOptions)
    : (options.jsonOptions ?? options.extract);
  if ((outputs.extract || outputs.json) !== !!extraction) {
    throw new AppError('BAD_REQUEST', {
      message: JSON_OPTIONS_MESSAGE,
      details: [{ code: 'custom', path: ['formats'], message: JSON_OPTIONS_MESSAGE }],
    });
  }
  let jsonAdded = false;
  const v2Formats = formats?.flatMap((format): unknown[] => {
    switch (format) {
      case 'screenshot@fullPage':
        return [{ type: 'screenshot', fullPage: true }];
      case 'extract':
      case 'json':
        if (jsonAdded) return [];
        jsonAdded = true;
        return [
          compact({
            type: 'json',
            schema: extraction?.schema,
            prompt: extraction?.prompt ?? (extraction?.schema ? undefined : extraction?.systemPrompt),
            checkPromptInjection: extraction?.checkPromptInjection,
          }),
        ];
      case 'changeTracking':
        return [compact({ type: 'changeTracking', ...options.changeTrackingOptions })];
      default:
        return [format];
    }
  });
  return {
    outputs,
    options: compact({
      formats: v2Formats,
      headers: options.headers,
      includeTags: options.includeTags,
      excludeTags: options.excludeTags,
      onlyMainContent: options.onlyMainContent,
      onlyCleanContent: options.onlyCleanContent,
      timeout: clampTimeout(options.timeout ?? defaults.timeout),
      waitFor: options.waitFor,
      mobile: options.mobile,
      parsers: options.parsePDF === false ? [] : undefined,
      actions: options.actions,
      location: v1Location(options.location ?? options.geolocation),
      skipTlsVerification: options.skipTlsVerification,
      removeBase64Images: options.removeBase64Images,
      fastMode: options.fastMode,
      blockAds: options.blockAds,
      proxy: options.proxy === 'stealth' ? 'enhanced' : options.proxy,
      maxAge: options.maxAge,
      storeInCache: options.storeInCache,
      threatProtection: options.threatProtection,
      auditMetadata: options.auditMetadata,
    }),
  };
}

const envelope = (body: { origin?: string; integration?: string | null }) =>
  compact({ origin: body.origin, integration: body.integration });

/** `POST /v1/scrape` → the body of `POST /v2/scrape`. */
export function v1ScrapeToV2(request: V1ScrapeRequest): {
  body: Record<string, unknown>;
  outputs: V1Outputs;
} {
  const { url, zeroDataRetention, origin, integration, ...rest } = request;
  const { options, outputs } = v1ScrapeOptionsToV2(rest, { timeout: V1_SCRAPE_TIMEOUT_MS });
  return {
    outputs,
    body: {
      url: v1Url(url),
      ...options,
      ...compact({ zeroDataRetention }),
      ...envelope({ origin, integration }),
    },
  };
}

/** `POST /v1/batch/scrape` → `POST /v2/batch/scrape` (v1 refuses invalid URLs unless told otherwise). */
export function v1BatchToV2(request: V1BatchScrapeRequest): {
  body: Record<string, unknown>;
  outputs: V1Outputs;
} {
  const {
    urls,
    webhook,
    appendToId,
    ignoreInvalidURLs,
    maxConcurrency,
    zeroDataRetention,
    origin,
    integration,
    ...rest
  } = request;
  const { options, outputs } = v1ScrapeOptionsToV2(rest);
  return {
    outputs,
    body: {
      urls: urls.map(v1Url),
      ...options,
      ignoreInvalidURLs: ignoreInvalidURLs ?? false,
      ...compact({ webhook, appendToId, maxConcurrency, zeroDataRetention }),
      ...envelope({ origin, integration }),
    },
  };
}

/**
 * `POST /v1/crawl` → `POST /v2/crawl`: `ignoreSitemap` is `sitemap: "skip"`, `allowBackwardLinks` is
 * `crawlEntireDomain`, and v1's `maxDepth` (URL path depth) bounds the link depth (`maxDiscoveryDepth`)
 * when that is not given.
 */
export function v1CrawlToV2(request: V1CrawlRequest): Record<string, unknown> {
  return compact({
    url: v1Url(request.url),
    includePaths: request.includePaths,
    excludePaths: request.excludePaths,
    maxDiscoveryDepth: request.maxDiscoveryDepth ?? request.maxDepth,
    limit: request.limit,
    crawlEntireDomain: request.crawlEntireDomain ?? request.allowBackwardLinks,
    allowExternalLinks: request.allowExternalLinks,
    allowSubdomains: request.allowSubdomains,
    ignoreRobotsTxt: request.ignoreRobotsTxt || undefined,
    sitemap: request.ignoreSitemap ? 'skip' : undefined,
    deduplicateSimilarURLs: request.deduplicateSimilarURLs,
    ignoreQueryParameters: request.ignoreQueryParameters,
    regexOnFullURL: request.regexOnFullURL,
    delay: request.delay,
    maxConcurrency: request.maxConcurrency,
    webhook: request.webhook,
    zeroDataRetention: request.zeroDataRetention,
    scrapeOptions: request.scrapeOptions ? v1ScrapeOptionsToV2(request.scrapeOptions).options : undefined,
    ...envelope(request),
  });
}

/** `POST /v1/map` → `POST /v2/map`: `sitemapOnly` / `ignoreSitemap` are the `sitemap` modes. */
export function v1MapToV2(request: V1MapRequest): Record<string, unknown> {
  return compact({
    url: v1Url(request.url),
    search: request.search,
    sitemap: request.sitemapOnly ? 'only' : request.ignoreSitemap ? 'skip' : undefined,
    includeSubdomains: request.includeSubdomains,
    limit: request.limit,
    timeout:
      request.timeout === undefined
        ? undefined
        : Math.min(LIMITS.timeoutMs.max, Math.max(1, Math.round(request.timeout))),
    useIndex: request.useIndex,
    ignoreCache: request.ignoreCache,
    filterByPath: request.filterByPath,
    location: v1Location(request.location),
    headers: request.headers,
    includePaths: request.includePaths,
    excludePaths: request.excludePaths,
    maxDiscoveryDepth: request.maxDiscoveryDepth,
    crawlEntireDomain: request.crawlEntireDomain ?? request.allowBackwardLinks,
    allowExternalLinks: request.allowExternalLinks,
    allowSubdomains: request.allowSubdomains,
    ignoreQueryParameters: request.ignoreQueryParameters,
    regexOnFullURL: request.regexOnFullURL,
    deduplicateSimilarURLs: request.deduplicateSimilarURLs,
    threatProtection: request.threatProtection,
    auditMetadata: request.auditMetadata,
    ...envelope(request),
  });
}

/** `POST /v1/search` → `POST /v2/search`: web results only; result pages scraped only when formats are named. */
export function v1SearchToV2(request: V1SearchRequest): Record<string, unknown> {
  const scrape = request.scrapeOptions?.formats?.length
    ? v1ScrapeOptionsToV2(request.scrapeOptions).options
    : undefined;
  return compact({
    query: request.query,
    limit: request.limit,
    tbs: request.tbs,
    filter: request.filter,
    lang: request.lang,
    country: request.country,
    location: request.location,
    timeout: clampTimeout(request.timeout),
    ignoreInvalidURLs: request.ignoreInvalidURLs,
    sources: ['web'],
    scrapeOptions: scrape,
    threatProtection: request.threatProtection,
    ...envelope(request),
  });
}

/** `POST /v1/extract` → `POST /v2/extract`. */
export function v1ExtractToV2(request: V1ExtractRequest): Record<string, unknown> {
  return compact({
    urls: request.urls?.map(v1Url),
    prompt: request.prompt,
    systemPrompt: request.systemPrompt,
    schema: request.schema,
    limit: request.limit,
    ignoreSitemap: request.ignoreSitemap,
    includeSubdomains: request.includeSubdomains,
    allowExternalLinks: request.allowExternalLinks,
    enableWebSearch: request.enableWebSearch,
    scrapeOptions: request.scrapeOptions ? v1ScrapeOptionsToV2(request.scrapeOptions).options : undefined,
    urlTrace: request.urlTrace,
    timeout: clampTimeout(request.timeout),
    showSources: request.showSources || request.__experimental_showSources || undefined,
    agent: request.agent,
    ignoreInvalidURLs: request.ignoreInvalidURLs,
    webhook: request.webhook,
    threatProtection: request.threatProtection,
    ...envelope(request),
  });
}

/**
 * A v2 document in its v1 shape: the json result under `extract` and/or `json` as the request
 * named it, and a change-tracking diff as v1's `{text}` object instead of v2's git-diff string.
 */
export function toV1Document(
  document: ScrapeDocument,
  outputs: V1Outputs = V1_BOTH_OUTPUTS,
): Record<string, unknown> {
  const { json, changeTracking, ...rest } = document;
  const v1: Record<string, unknown> = { ...rest };
  if (json !== undefined) {
    if (outputs.extract) v1['extract'] = json;
    if (outputs.json) v1['json'] = json;
  }
  if (changeTracking) {
    const diff = (changeTracking as { diff?: unknown }).diff;
    v1['changeTracking'] =
      typeof diff === 'string' ? { ...changeTracking, diff: { text: diff } } : changeTracking;
  }
  return v1;
}

/** `GET /v1/team/credit-usage`: v1 names its figures in snake case. */
export function toV1CreditUsage(usage: CreditUsageResponse) {
  const { remainingCredits, planCredits, billingPeriodStart, billingPeriodEnd } = usage.data;
  return {
    success: true as const,
    data: {
      remaining_credits: remainingCredits,
      plan_credits: planCredits,
      billing_period_start: billingPeriodStart,
      billing_period_end: billingPeriodEnd,
    },
  };
}

/** `GET /v1/team/token-usage`. */
export function toV1TokenUsage(usage: TokenUsageResponse) {
  const { remainingTokens, planTokens, billingPeriodStart, billingPeriodEnd } = usage.data;
  return {
    success: true as const,
    data: {
      remaining_tokens: remainingTokens,
      plan_tokens: planTokens,
      billing_period_start: billingPeriodStart,
      billing_period_end: billingPeriodEnd,
    },
  };
}
