import { ZodError } from 'zod';

import { PRICES, scrapeCredits } from '@quarry/billing';
import {
  type BatchScrapeRequest,
  batchScrapeRequestSchema,
  type CrawlRequest,
  crawlRequestSchema,
  findFormat,
  type FormatObject,
  hasFormat,
  MONITOR_LIMITS,
  type MonitorSearchWindow,
  monitorTargetSchema,
  type MonitorTargetView,
  type ScrapeOptions,
  scrapeOptionsSchema,
  type SearchRequest,
  searchRequestSchema,
} from '@quarry/contracts';

/**
 * How a target's pages are compared (docs/monitor.md `diff` shapes):
 * - `markdown`: change tracking of the markdown; diff `{text, json: parsed diff}`.
 * - `extraction`: a `json`/`deterministicJson` format; the extraction is compared field by field
 *   with the previous check's snapshot; diff `{json: {field: {previous, current}}}`.
 * - `mixed`: extraction plus an explicit change-tracking `git-diff`: both.
 * - `trackedJson`: change tracking in `json` mode (schema fields); diff `{json: fields}` (+ `text` with git-diff).
 */
export type ComparisonMode = 'markdown' | 'extraction' | 'mixed' | 'trackedJson';

export interface TargetPlan {
  targetId: string;
  type: 'scrape' | 'crawl' | 'search';
  mode: ComparisonMode;
  /** The change-tracking tag: each monitor target has its own history. */
  tag: string;
  /** Credits one page costs with the options the check uses. */
  pageCredits: number;
  /** Credits a check of this target is expected to cost. */
  estimatedCredits: number;
  /** Credits needed to start it at all (one page per crawl, every URL of a scrape). */
  minimumCredits: number;
  /** Scrape target: the batch to start. */
  batch?: BatchScrapeRequest;
  /** Crawl target: the crawl to start. */
  crawl?: CrawlRequest;
  /** Search target: one search per query, and the scrape options of its results. */
  searches?: SearchRequest[];
  resultOptions?: Record<string, unknown>;
}

const SEARCH_WINDOW_TBS: Record<MonitorSearchWindow, string> = {
  '5m': 'qdr:h',
  '15m': 'qdr:h',
  '1h': 'qdr:h',
  '6h': 'qdr:d',
  '24h': 'qdr:d',
  '7d': 'qdr:w',
};

export const monitorTag = (monitorId: string, targetId: string): string => `monitor:${monitorId}:${targetId}`;

/**
 * Turns a stored target into the work of one check: the change-tracking format is added (or the
 * caller's is given the monitor's tag), markdown is always produced (change tracking needs it),
 * the cache is never read. Throws a ZodError when the combination is invalid (the API's 400).
 */
export function planTarget(monitorId: string, stored: MonitorTargetView): TargetPlan {
  const target = monitorTargetSchema.parse(stored);
  const tag = monitorTag(monitorId, stored.id);
  if (target.type === 'search') {
    const { options, mode } = trackedOptions({}, tag);
    const pageCredits = credits(options);
    const searches = target.queries.map((query) =>
      searchRequestSchema.parse({
        query,
        limit: target.maxResults,
        tbs: SEARCH_WINDOW_TBS[target.searchWindow],
        ...(target.includeDomains?.length ? { includeDomains: target.includeDomains } : {}),
        ...(target.excludeDomains?.length ? { excludeDomains: target.excludeDomains } : {}),
        origin: 'monitor',
      }),
    );
    const searchCredits =
      target.queries.length * Math.ceil(target.maxResults / 10) * PRICES.searchPer10Results;
    return {
      targetId: stored.id,
      type: 'search',
      mode,
      tag,
      pageCredits,
      estimatedCredits: searchCredits + target.queries.length * target.maxResults * pageCredits,
      minimumCredits: PRICES.searchPer10Results,
      searches,
      resultOptions: options,
    };
  }
  const { options, mode } = trackedOptions(target.scrapeOptions ?? {}, tag);
  const pageCredits = credits(options);
  if (target.type === 'scrape') {
    const batch = batchScrapeRequestSchema.parse({
      urls: target.urls,
      ...options,
      ignoreInvalidURLs: true,
      origin: 'monitor',
    });
    return {
      targetId: stored.id,
      type: 'scrape',
      mode,
      tag,
      pageCredits,
      estimatedCredits: target.urls.length * pageCredits,
      minimumCredits: target.urls.length * pageCredits,
      batch,
    };
  }
  const crawl = crawlRequestSchema.parse({
    url: target.url,
    limit: MONITOR_LIMITS.defaultCrawlLimit,
    // The options as the caller stored them: the partial schema's defaults would replace ours.
    ...((stored['crawlOptions'] as Record<string, unknown> | undefined) ?? {}),
    scrapeOptions: options,
    origin: 'monitor',
  });
  return {
    targetId: stored.id,
    type: 'crawl',
    mode,
    tag,
    pageCredits,
    estimatedCredits: crawl.limit * pageCredits,
    minimumCredits: pageCredits,
    crawl,
  };
}

/** Scrape options with markdown and the monitor's change-tracking format, and no cache reads. */
function trackedOptions(
  input: Record<string, unknown>,
  tag: string,
): { options: Record<string, unknown>; mode: ComparisonMode } {
  const {
    origin: _origin,
    integration: _integration,
    toolDetail: _toolDetail,
    ...rest
  } = scrapeOptionsSchema.parse(input) as ScrapeOptions & Record<string, unknown>;
  if (rest.lockdown) {
    // Valid in a scrape (cache only), but a monitor compares fresh scrapes: refused like a schema failure.
    throw new ZodError([
      {
        code: 'custom',
        message:
          'lockdown answers from the cache only and cannot be used by a monitor, which compares fresh scrapes',
        path: ['lockdown'],
        input: true,
      },
    ]);
  }
  const formats: FormatObject[] = [...(rest.formats as FormatObject[])];
  const extraction = hasFormat(formats, 'json') || hasFormat(formats, 'deterministicJson');
  const requested = findFormat(formats, 'changeTracking');
  const modes = new Set(requested?.modes ?? []);
  let mode: ComparisonMode = 'markdown';
  if (modes.has('json')) mode = 'trackedJson';
  else if (extraction) mode = modes.has('git-diff') ? 'mixed' : 'extraction';
  // git-diff is always computed: it is the text diff of markdown and mixed targets.
  modes.add('git-diff');
  const tracking: FormatObject = {
    type: 'changeTracking',
    modes: [...modes],
    tag,
    ...(requested?.schema ? { schema: requested.schema } : {}),
    ...(requested?.prompt ? { prompt: requested.prompt } : {}),
  };
  const kept = formats.filter((format) => format.type !== 'changeTracking');
  if (!hasFormat(kept, 'markdown')) kept.unshift({ type: 'markdown' });
  return { options: { ...rest, formats: [...kept, tracking], maxAge: 0, storeInCache: false }, mode };
}

function credits(options: Record<string, unknown>): number {
  const parsed = scrapeOptionsSchema.parse(options);
  return scrapeCredits({
    formats: parsed.formats,
    zeroDataRetention: false,
    redactPII: parsed.redactPII,
    lockdown: parsed.lockdown,
  });
}
