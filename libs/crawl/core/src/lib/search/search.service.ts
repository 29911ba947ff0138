import { randomUUID } from 'node:crypto';
import { PRICES, type CreditsService } from '@quarry/billing';
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
import type { JobOutcomeStore, JobRepository } from '@quarry/jobs';
import type { PlatformMetrics } from '@quarry/platform/observability';
import type { Logger } from 'pino';
import { crawlUrlKey, parseHttpUrl } from '../url/crawl-url.util';
import { isWithinDomain } from '../url/registrable-domain.util';
import type { DocumentIndexRepository } from './document-index.repository';
import type { ProviderCategory, ProviderResult, SearchProvider } from './search-provider';

/** Scrapes one result (the API's synchronous scrape path). */
export type ResultScraper = (url: string, options: ScrapeOptions, timeoutMs: number) => Promise<ScrapeDocument>;

export interface SearchCaller {
  teamId: string;
  apiKeyId?: string;
  zeroDataRetention: boolean;
}

export interface SearchServiceDeps {
  index: DocumentIndexRepository;
  provider?: SearchProvider;
  jobs: JobRepository;
  outcomes: JobOutcomeStore;
  credits: CreditsService;
  logger: Logger;
  /** Counts searches (`kind="search"`: running, finished, duration, credits). */
  metrics?: PlatformMetrics;
  providerTimeoutMs: number;
  retentionHours: number;
}

const MAX_PROVIDER_PAGES = 10;
const SCRAPE_PARALLELISM = 5;
const TIME_RANGES: Record<string, string> = { 'qdr:h': 'day', 'qdr:d': 'day', 'qdr:w': 'week', 'qdr:m': 'month', 'qdr:y': 'year' };

/**
 * `POST /v2/search` (compat §11): the configured web search provider (SearXNG protocol) and the
 * team's own index of stored pages (PostgreSQL full-text search), optionally scraping the web
 * results. Without a provider, results come from the index alone.
 */
export class SearchService {
  constructor(private readonly deps: SearchServiceDeps) {}

  async search(caller: SearchCaller, request: SearchRequest, scrape: ResultScraper): Promise<SearchResponse> {
    await this.deps.credits.ensureAvailable(caller.teamId, PRICES.searchPer10Results);
    const metrics = this.deps.metrics;
    return metrics ? metrics.trackJob('search', 'none', () => this.run(caller, request, scrape)) : this.run(caller, request, scrape);
  }

  private async run(caller: SearchCaller, request: SearchRequest, scrape: ResultScraper): Promise<SearchResponse> {
    const deadline = Date.now() + request.timeout;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), request.timeout);
    try {
      const data: SearchResponse['data'] = {};
      const types = new Set(request.sources.map((source) => source.type));
      const work: Promise<void>[] = [];
      if (types.has('web')) work.push(this.web(caller, request, controller.signal).then((web) => void (data.web = web)));
      if (types.has('news')) work.push(this.fromProvider(request, 'news', controller.signal).then((news) => void (data.news = news.map(toNews))));
      if (types.has('images')) work.push(this.fromProvider(request, 'images', controller.signal).then((images) => void (data.images = images.map(toImage))));
      await Promise.all(work);
      if (controller.signal.aborted) throw new AppError('SCRAPE_TIMEOUT');
      const formats = request.scrapeOptions?.formats ?? [];
      if (data.web?.length && request.scrapeOptions && formats.length > 0) {
        data.web = await this.scrapeResults(data.web, request.scrapeOptions, deadline, scrape);
      }
      const count = (data.web?.length ?? 0) + (data.news?.length ?? 0) + (data.images?.length ?? 0);
      const premium = request.enterprise?.some((mode) => mode === 'zdr' || mode === 'anon') ? 5 : 1;
      const creditsUsed = count === 0 ? 0 : Math.ceil(count / 10) * PRICES.searchPer10Results * premium;
      const id = await this.record(caller, request, creditsUsed);
      return { success: true, data, creditsUsed, id };
    } catch (error) {
      if (controller.signal.aborted && !(error instanceof AppError)) throw new AppError('SCRAPE_TIMEOUT');
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private async web(caller: SearchCaller, request: SearchRequest, signal: AbortSignal): Promise<SearchWebResult[]> {
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
    for (const result of await this.fromProvider(request, 'general', signal)) push(result.url, result.title, result.content);
    if (results.length < request.limit) {
      const hits = await this.deps.index.search(caller.teamId, request.query, { limit: request.limit, include: request.includeDomains, exclude: request.excludeDomains });
      for (const hit of hits) push(hit.url, hit.title ?? hit.url, hit.description ?? hit.snippet ?? '');
    }
    if (request.categories?.length) for (const result of results) result.category = request.categories[0];
    return results;
  }

  /** Provider results for one category, following result pages until `limit` (after domain filters). */
  private async fromProvider(request: SearchRequest, category: ProviderCategory, signal: AbortSignal): Promise<ProviderResult[]> {
    const provider = this.deps.provider;
    if (!provider) return [];
    const query = withSiteFilter(request.query, request.includeDomains);
    const out: ProviderResult[] = [];
    const seen = new Set<string>();
    for (let page = 1; page <= MAX_PROVIDER_PAGES && out.length < request.limit && !signal.aborted; page += 1) {
      let batch: ProviderResult[];
      try {
        batch = await provider.search(
          { query, category, page, language: request.lang, safe: request.safe, timeRange: request.tbs ? TIME_RANGES[request.tbs] : undefined },
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
    const matches = (domains: string[]) => domains.some((domain) => isWithinDomain(host, domain.toLowerCase().replace(/^\*\./, '').replace(/:\d+$/, '')));
    if (request.includeDomains?.length && !matches(request.includeDomains)) return false;
    if (request.excludeDomains?.length && matches(request.excludeDomains)) return false;
    return true;
  }

  private async scrapeResults(results: SearchWebResult[], options: ScrapeOptions, deadline: number, scrape: ResultScraper): Promise<SearchWebResult[]> {
    const out = [...results];
    let next = 0;
    const worker = async () => {
      while (next < out.length) {
        const index = next++;
        const remaining = deadline - Date.now();
        if (remaining < 1_000) return;
        try {
          const document = await scrape(out[index].url, options, Math.min(options.timeout, remaining));
          out[index] = { ...document, ...out[index], metadata: document.metadata };
        } catch (error) {
          this.deps.logger.debug({ err: error, url: out[index].url }, 'search result could not be scraped');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(SCRAPE_PARALLELISM, out.length) }, worker));
    return out;
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
    if (await this.deps.outcomes.complete({ jobId: id, teamId: caller.teamId, kind: 'search', apiKeyId: caller.apiKeyId, credits })) {
      this.deps.metrics?.creditsConsumed.inc({ kind: 'search' }, credits);
    }
    return id;
  }
}

function withSiteFilter(query: string, include: string[] | undefined): string {
  if (!include?.length) return query;
  return `${query} ${include.map((domain) => `site:${domain.replace(/^\*\./, '')}`).join(' OR ')}`;
}

function toNews(result: ProviderResult, index: number): SearchNewsResult {
  return { title: result.title, url: result.url, snippet: result.content, ...(result.publishedDate ? { date: result.publishedDate } : {}), ...(result.thumbnailUrl || result.imageUrl ? { imageUrl: result.thumbnailUrl ?? result.imageUrl } : {}), position: index + 1 };
}

function toImage(result: ProviderResult, index: number): SearchImageResult {
  return { title: result.title, imageUrl: result.imageUrl ?? result.thumbnailUrl ?? result.url, imageWidth: result.width, imageHeight: result.height, url: result.url, position: index + 1 };
}
