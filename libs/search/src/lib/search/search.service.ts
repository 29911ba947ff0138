import { randomUUID } from 'node:crypto';

import { PRICES, scrapeCredits } from '@quarry/billing';
import {
  AppError,
  type ScrapeDocument,
  type ScrapeOptions,
  type SearchImageResult,
  type SearchNewsResult,
  type SearchRequest,
  type SearchResponse,
  type SearchWebResult,
} from '@quarry/contracts';
import { crawlUrlKey, isWithinDomain, parseHttpUrl } from '@quarry/crawl';

import type { IndexJobDeps } from './index-job.deps';
import type { ProviderCategory, ProviderResult } from './search-provider';

/** Scrapes one result (the API's synchronous scrape path). */
export type ResultScraper = (
  url: string,
  options: ScrapeOptions,
  timeoutMs: number,
) => Promise<ScrapeDocument>;

/** Starts the scrape of one result without waiting (`asyncScraping`): its job id. */
export type ResultStarter = (url: string, options: ScrapeOptions) => Promise<string>;

export interface SearchCaller {
  teamId: string;
  apiKeyId?: string;
  zeroDataRetention: boolean;
}

export interface SearchServiceDeps extends IndexJobDeps {
  providerTimeoutMs: number;
}

const MAX_PROVIDER_PAGES = 10;
const SCRAPE_PARALLELISM = 5;
const TIME_RANGES: Record<string, string> = {
  'qdr:h': 'day',
  'qdr:d': 'day',
  'qdr:w': 'week',
  'qdr:m': 'month',
  'qdr:y': 'year',
};

/**
 * `POST /v2/search` (docs/crawl.md#search): the configured web search provider (SearXNG protocol) and the
 * team's own index of stored pages (PostgreSQL full-text search), optionally scraping the web
 * results. Without a provider, results come from the index alone.
 */
export class SearchService {
  constructor(private readonly deps: SearchServiceDeps) {}

  async search(
    caller: SearchCaller,
    request: SearchRequest,
    scrape: ResultScraper,
    start?: ResultStarter,
  ): Promise<SearchResponse> {
    if (request.sources.some((source) => source.type === 'alexandria'))
      throw new AppError('EXCHANGE_NOT_ENABLED');
    if (
      request.asyncScraping &&
      scrapesResults(request) &&
      (caller.zeroDataRetention || request.enterprise?.includes('zdr'))
    ) {
      // Started scrapes are read back later, which zero data retention forbids (GET /v2/scrape/:id refuses them).
      throw new AppError('SCRAPE_ZDR_VIOLATION_ERROR', {
        message: 'asyncScraping keeps results to be read later and is unavailable with zero data retention',
      });
    }
    // The pre-check (402 otherwise): at least `limit` credits (docs/crawl.md#search), and at least the most the
    // request can cost, so a search never answers fewer results for lack of credits.
    await this.deps.credits.ensureAvailable(
      caller.teamId,
      Math.max(request.limit, maximumSearchCredits(request, caller.zeroDataRetention)),
    );
    const metrics = this.deps.metrics;
    return metrics
      ? metrics.trackJob('search', 'none', () => this.run(caller, request, scrape, start))
      : this.run(caller, request, scrape, start);
  }

  private async run(
    caller: SearchCaller,
    request: SearchRequest,
    scrape: ResultScraper,
    start?: ResultStarter,
  ): Promise<SearchResponse> {
    const deadline = Date.now() + request.timeout;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), request.timeout);
    try {
      const data: SearchResponse['data'] = {};
      const types = new Set(request.sources.map((source) => source.type));
      const work: Promise<void>[] = [];
      if (types.has('web'))
        work.push(this.web(caller, request, controller.signal).then((web) => void (data.web = web)));
      if (types.has('news'))
        work.push(
          this.fromProvider(request, 'news', controller.signal).then(
            (news) => void (data.news = news.map(toNews)),
          ),
        );
      if (types.has('images'))
        work.push(
          this.fromProvider(request, 'images', controller.signal).then(
            (images) => void (data.images = images.map(toImage)),
          ),
        );
      await Promise.all(work);
      if (controller.signal.aborted) throw new AppError('SCRAPE_TIMEOUT');
      let scrapeCreditsUsed = 0;
      let scrapeIds: SearchResponse['scrapeIds'];
      const scrapeOptions = data.web?.length && scrapesResults(request) ? request.scrapeOptions : undefined;
      if (data.web && scrapeOptions && request.asyncScraping && start) {
        // Each result's scrape is started and billed when it runs; the answer names the jobs (docs/crawl.md#search).
        scrapeIds = { web: await this.startScrapes(data.web, scrapeOptions, start) };
      } else if (data.web && scrapeOptions) {
        const scraped = await this.scrapeResults(data.web, scrapeOptions, deadline, scrape);
        data.web = scraped.results;
        scrapeCreditsUsed = scraped.credits;
      }
      const count = (data.web?.length ?? 0) + (data.news?.length ?? 0) + (data.images?.length ?? 0);
      const searchCreditsUsed = searchCredits(count, request);
      const id = await this.record(caller, request, searchCreditsUsed);
      // The scrapes were charged by the scrape path (one job each): the answer reports both (docs/crawl.md#search).
      return {
        success: true,
        data,
        creditsUsed: searchCreditsUsed + scrapeCreditsUsed,
        id,
        ...(scrapeIds ? { scrapeIds } : {}),
      };
    } catch (error) {
      if (controller.signal.aborted && !(error instanceof AppError)) throw new AppError('SCRAPE_TIMEOUT');
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private async web(
    caller: SearchCaller,
    request: SearchRequest,
    signal: AbortSignal,
  ): Promise<SearchWebResult[]> {
    const seen = new Set<string>();
    const results: SearchWebResult[] = [];
    const push = (url: string, title: string, description: string) => {
      const parsed = parseHttpUrl(url);
      if (!parsed || results.length >= request.limit || !this.domainAllowed(parsed, request)) return;
      const key = crawlUrlKey(parsed, { ignoreQueryParameters: false, deduplicateSimilarURLs: true });
      if (seen.has(key)) return;
      seen.add(key);
      results.push({ url, title, description, position: results.length + 1 });
    };
    const categories = [...new Set(request.categories ?? [])];
    if (categories.length === 0) {
      for (const result of await this.fromProvider(request, 'general', signal))
        push(result.url, result.title, result.content);
    }
    // Each category is its own provider query (docs/crawl.md#search: results labelled with their category).
    for (const category of categories) {
      const plan = SEARCH_CATEGORIES[category];
      const before = results.length;
      for (const result of await this.fromProvider(request, plan.provider, signal, plan.queryFilter))
        push(result.url, result.title, result.content);
      for (const result of results.slice(before)) result.category = category;
    }
    if (results.length < request.limit) {
      const hits = await this.deps.index.search(caller.teamId, request.query, {
        limit: request.limit,
        include: request.includeDomains,
        exclude: request.excludeDomains,
      });
      for (const hit of hits) {
        // With categories, the team's pages count only where they belong to one.
        const category = categories.find((name) => SEARCH_CATEGORIES[name].matches(hit.url));
        if (categories.length && !category) continue;
        const before = results.length;
        push(hit.url, hit.title ?? hit.url, hit.description ?? hit.snippet ?? '');
        if (category && results.length > before) results[before].category = category;
      }
    }
    return results;
  }

  /** Provider results for one category, following result pages until `limit` (after domain filters). */
  private async fromProvider(
    request: SearchRequest,
    category: ProviderCategory,
    signal: AbortSignal,
    queryFilter?: string,
  ): Promise<ProviderResult[]> {
    const provider = this.deps.provider;
    if (!provider) return [];
    const query = [withSiteFilter(request.query, request.includeDomains), queryFilter]
      .filter(Boolean)
      .join(' ');
    const out: ProviderResult[] = [];
    const seen = new Set<string>();
    for (
      let page = 1;
      page <= MAX_PROVIDER_PAGES && out.length < request.limit && !signal.aborted;
      page += 1
    ) {
      let batch: ProviderResult[];
      try {
        batch = await provider.search(
          {
            query,
            category,
            page,
            language: providerLanguage(request),
            safe: request.safe,
            timeRange: request.tbs ? TIME_RANGES[request.tbs] : undefined,
          },
          { signal, timeoutMs: this.deps.providerTimeoutMs },
        );
      } catch (error) {
        if (signal.aborted) throw new AppError('SCRAPE_TIMEOUT');
        this.deps.logger.warn({ err: error, provider: provider.name }, 'search provider failed');
        break;
      }
      let fresh = 0;
      for (const result of batch) {
        const parsed = parseHttpUrl(result.url);
        if (!parsed || seen.has(parsed.href) || !this.domainAllowed(parsed, request)) continue;
        seen.add(parsed.href);
        fresh += 1;
        out.push(result);
        if (out.length >= request.limit) break;
      }
      if (batch.length === 0 || fresh === 0) break;
    }
    return out;
  }

  private domainAllowed(url: URL, request: SearchRequest): boolean {
    const host = url.hostname.toLowerCase();
    const matches = (domains: string[]) =>
      domains.some((domain) =>
        isWithinDomain(host, domain.toLowerCase().replace(/^\*\./, '').replace(/:\d+$/, '')),
      );
    if (request.includeDomains?.length && !matches(request.includeDomains)) return false;
    if (request.excludeDomains?.length && matches(request.excludeDomains)) return false;
    return true;
  }

  /** Scrapes the web results (5 at a time) into Documents; `credits` = what those scrapes were charged. */
  private async scrapeResults(
    results: SearchWebResult[],
    options: ScrapeOptions,
    deadline: number,
    scrape: ResultScraper,
  ): Promise<{ results: SearchWebResult[]; credits: number }> {
    const out = [...results];
    let credits = 0;
    await eachResult(out.length, async (index) => {
      const remaining = deadline - Date.now();
      if (remaining < 1_000) return;
      try {
        const document = await scrape(out[index].url, options, Math.min(options.timeout, remaining));
        credits += document.metadata.creditsUsed ?? 0;
        out[index] = { ...document, ...out[index], metadata: document.metadata };
      } catch (error) {
        this.deps.logger.debug({ err: error, url: out[index].url }, 'search result could not be scraped');
      }
    });
    return { results: out, credits };
  }

  /** Starts a scrape per web result (5 at a time); the ids in result order, a result that could not start left out. */
  private async startScrapes(
    results: SearchWebResult[],
    options: ScrapeOptions,
    start: ResultStarter,
  ): Promise<string[]> {
    const ids: (string | undefined)[] = new Array(results.length);
    await eachResult(results.length, async (index) => {
      try {
        ids[index] = await start(results[index].url, options);
      } catch (error) {
        this.deps.logger.debug(
          { err: error, url: results[index].url },
          'search result scrape could not start',
        );
      }
    });
    return ids.filter((id): id is string => !!id);
  }

  private async record(caller: SearchCaller, request: SearchRequest, credits: number): Promise<string> {
    const id = randomUUID();
    const zdr = caller.zeroDataRetention || !!request.enterprise?.includes('zdr');
    await this.deps.jobs.create({
      id,
      teamId: caller.teamId,
      apiKeyId: caller.apiKeyId,
      kind: 'search',
      input: { query: request.query, limit: request.limit, sources: request.sources },
      zeroDataRetention: zdr,
      expiresAt: new Date(Date.now() + this.deps.retentionHours * 3_600_000),
    });
    if (
      await this.deps.outcomes.complete({
        jobId: id,
        teamId: caller.teamId,
        kind: 'search',
        apiKeyId: caller.apiKeyId,
        credits,
      })
    ) {
      this.deps.metrics?.creditsConsumed.inc({ kind: 'search' }, credits);
    }
    return id;
  }
}

/** Runs `task` for result indexes 0..count-1, SCRAPE_PARALLELISM at a time. */
async function eachResult(count: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(SCRAPE_PARALLELISM, count) }, worker));
}

/** Search credits for `results` results (docs/crawl.md#search): 2 per started block of 10, × 5 with enterprise `zdr`/`anon`. */
export function searchCredits(results: number, request: Pick<SearchRequest, 'enterprise'>): number {
  const premium = request.enterprise?.some((mode) => mode === 'zdr' || mode === 'anon') ? 5 : 1;
  return results <= 0 ? 0 : Math.ceil(results / 10) * PRICES.searchPer10Results * premium;
}

function scrapesResults(request: SearchRequest): boolean {
  return (
    (request.scrapeOptions?.formats.length ?? 0) > 0 &&
    request.sources.some((source) => source.type === 'web')
  );
}

/**
 * The most a search can cost: every requested source filled to `limit`, and with `scrapeOptions`
 * formats every web result scraped at the page price of those options.
 */
export function maximumSearchCredits(request: SearchRequest, teamZeroDataRetention: boolean): number {
  let credits = searchCredits(
    request.limit * new Set(request.sources.map((source) => source.type)).size,
    request,
  );
  const options = request.scrapeOptions;
  if (options && scrapesResults(request)) {
    const perPage = scrapeCredits({
      formats: options.formats,
      zeroDataRetention: teamZeroDataRetention,
      redactPII: options.redactPII,
      lockdown: options.lockdown,
      checkPromptInjection: options.checkPromptInjection,
      cacheHit: true,
    });
    credits += request.limit * perPage;
  }
  return credits;
}

/**
 * The provider's `language`: `lang` narrowed to the requested country as a locale (`en` + `us` →
 * `en-US`, which SearXNG engines read as the region); `lang` alone when no country applies or
 * `lang` already names a region.
 */
export function providerLanguage(request: Pick<SearchRequest, 'lang' | 'country'>): string | undefined {
  const lang = request.lang.trim();
  if (!lang) return undefined;
  const country = request.country?.trim();
  if (!country || !/^[a-z]{2}$/i.test(country) || lang.includes('-') || lang === 'all') return lang;
  return `${lang.toLowerCase()}-${country.toUpperCase()}`;
}

const RESEARCH_HOSTS = [
  'arxiv.org',
  'biorxiv.org',
  'medrxiv.org',
  'pubmed.ncbi.nlm.nih.gov',
  'ncbi.nlm.nih.gov',
  'semanticscholar.org',
  'scholar.google.com',
  'researchgate.net',
  'nature.com',
  'science.org',
  'sciencedirect.com',
  'springer.com',
  'link.springer.com',
  'ieeexplore.ieee.org',
  'dl.acm.org',
  'openreview.net',
  'plos.org',
  'ssrn.com',
];
const DEVELOPER_HOSTS = [
  'github.com',
  'gitlab.com',
  'bitbucket.org',
  'stackoverflow.com',
  'npmjs.com',
  'pypi.org',
  'crates.io',
  'pkg.go.dev',
  'developer.mozilla.org',
  'readthedocs.io',
];

const hostOf = (url: string) => parseHttpUrl(url)?.hostname.toLowerCase() ?? '';
const onHosts = (url: string, hosts: readonly string[]) => {
  const host = hostOf(url);
  return hosts.some((domain) => isWithinDomain(host, domain));
};

/**
 * How each search category (docs/crawl.md#search) is asked of a SearXNG provider — its category and a query
 * filter — and which of the team's own pages belong to it.
 */
export const SEARCH_CATEGORIES: Record<
  NonNullable<SearchRequest['categories']>[number],
  { provider: ProviderCategory; queryFilter?: string; matches: (url: string) => boolean }
> = {
  github: { provider: 'it', queryFilter: 'site:github.com', matches: (url) => onHosts(url, ['github.com']) },
  research: { provider: 'science', matches: (url) => onHosts(url, RESEARCH_HOSTS) },
  pdf: {
    provider: 'general',
    queryFilter: 'filetype:pdf',
    matches: (url) => /\.pdf$/i.test(parseHttpUrl(url)?.pathname ?? ''),
  },
  developer: {
    provider: 'it',
    matches: (url) => onHosts(url, DEVELOPER_HOSTS) || /^(?:docs|developers?|api)\./.test(hostOf(url)),
  },
};

function withSiteFilter(query: string, include: string[] | undefined): string {
  if (!include?.length) return query;
  return `${query} ${include.map((domain) => `site:${domain.replace(/^\*\./, '')}`).join(' OR ')}`;
}

function toNews(result: ProviderResult, index: number): SearchNewsResult {
  return {
    title: result.title,
    url: result.url,
    snippet: result.content,
    ...(result.publishedDate ? { date: result.publishedDate } : {}),
    ...(result.thumbnailUrl || result.imageUrl ? { imageUrl: result.thumbnailUrl ?? result.imageUrl } : {}),
    position: index + 1,
  };
}

function toImage(result: ProviderResult, index: number): SearchImageResult {
  return {
    title: result.title,
    imageUrl: result.imageUrl ?? result.thumbnailUrl ?? result.url,
    imageWidth: result.width,
    imageHeight: result.height,
    url: result.url,
    position: index + 1,
  };
}
