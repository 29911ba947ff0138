import { randomUUID } from 'node:crypto';

import { PRICES } from '@quarry/billing';
import { AppError, type MapLink, type MapRequest, type MapResponse } from '@quarry/contracts';
import {
  bareHost,
  crawlUrlKey,
  discoverLinks,
  isWithinDomain,
  parseHttpUrl,
  pathPatternFilter,
  registrableDomain,
  type RobotsFetcher,
  RobotsRules,
  type SitemapFetcher,
} from '@quarry/crawl';
import type { GuardedHttpClient } from '@quarry/platform/net';

import type { IndexJobDeps } from '../search/index-job.deps';
import type { SearchProvider } from '../search/search-provider';
import { pageSummary } from './page-summary.util';
import { rankByRelevance } from './relevance.util';

export interface MapCaller {
  teamId: string;
  apiKeyId?: string;
  zeroDataRetention: boolean;
}

export interface MapServiceDeps extends IndexJobDeps {
  client: GuardedHttpClient;
  sitemaps: SitemapFetcher;
  robots: RobotsFetcher;
  /** Pages fetched by the light crawl after the start page. */
  crawlPages: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const CRAWL_PARALLELISM = 6;
const PAGE_TIMEOUT_MS = 10_000;
const PAGE_MAX_BYTES = 5 * 1024 * 1024;

interface Found {
  url: URL;
  title?: string;
  description?: string;
}

/**
 * `POST /v2/map` (docs/crawl.md#map): the URLs of a site from its sitemaps, a light link crawl, the team's
 * index of earlier scrapes and (when configured) web search — never from the sitemap alone unless
 * `sitemap:"only"` — filtered to the site, ranked by `search`, cut to `limit`.
 */
export class MapService {
  constructor(private readonly deps: MapServiceDeps) {}

  async map(caller: MapCaller, request: MapRequest): Promise<MapResponse> {
    await this.deps.credits.ensureAvailable(caller.teamId, PRICES.map);
    const metrics = this.deps.metrics;
    return metrics
      ? metrics.trackJob('map', 'none', () => this.run(caller, request))
      : this.run(caller, request);
  }

  private async run(caller: MapCaller, request: MapRequest): Promise<MapResponse> {
    const timeoutMs = request.timeout ?? DEFAULT_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const links = await this.collect(caller, request, deadline, controller.signal);
      if (controller.signal.aborted || Date.now() > deadline) throw new AppError('MAP_TIMEOUT');
      const id = await this.record(caller, request);
      const response: MapResponse = { success: true, id, links };
      if (links.length <= 1 && request.limit !== 1) {
        const start = new URL(request.url.trim());
        response.warning = `Only ${links.length} result(s) found. For broader coverage, try mapping the base domain: ${start.protocol}//${start.host}`;
      }
      return response;
    } catch (error) {
      if (controller.signal.aborted) throw new AppError('MAP_TIMEOUT');
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The links of a site as `map` finds them, without recording a map job or charging for it: for
   * jobs that bill their own work (extract jobs expanding `…/*` URLs). Empty when the time runs out.
   */
  async discover(caller: MapCaller, request: MapRequest): Promise<MapLink[]> {
    const timeoutMs = request.timeout ?? DEFAULT_TIMEOUT_MS;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      return await this.collect(caller, request, Date.now() + timeoutMs, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return [];
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private async collect(
    caller: MapCaller,
    request: MapRequest,
    deadline: number,
    signal: AbortSignal,
  ): Promise<MapLink[]> {
    let start = parseHttpUrl(request.url.trim()) as URL;
    const found = new Map<string, Found>();
    const keyOptions = {
      ignoreQueryParameters: request.ignoreQueryParameters,
      deduplicateSimilarURLs: request.deduplicateSimilarURLs,
    };
    let scopeOf = this.scope(start, request);
    const patterns = pathPatternFilter(request);
    const add = (raw: string, info: Omit<Found, 'url'> = {}) => {
      const url = parseHttpUrl(raw);
      if (!url || !scopeOf(url) || patterns(url)) return;
      if (request.ignoreQueryParameters) url.search = '';
      const key = crawlUrlKey(url, keyOptions);
      const known = found.get(key);
      if (known) {
        known.title ??= info.title;
        known.description ??= info.description;
      } else found.set(key, { url, ...info });
    };

    // The start page first: it tells us where the site really lives (redirects), in every mode, and its links.
    const startPage = await this.fetchPage(start.href, request, signal, deadline);
    if (
      startPage &&
      (bareHost(startPage.url.hostname) !== bareHost(start.hostname) ||
        sitePort(startPage.url) !== sitePort(start))
    ) {
      start = new URL(start.href);
      start.host = startPage.url.host;
      scopeOf = this.scope(start, request);
    }

    const sources: Promise<void>[] = [];
    if (request.sitemap !== 'skip') {
      sources.push(
        (async () => {
          const robots = await this.deps.robots.fetch(start.origin, signal);
          const rules = RobotsRules.parse(start.origin, robots.text, '*');
          const result = await this.deps.sitemaps.collect(
            [...rules.sitemaps(), `${start.origin}/sitemap.xml`],
            { signal, deadline },
          );
          for (const url of result.urls) add(url);
        })(),
      );
    }
    if (request.sitemap !== 'only') {
      if (startPage) {
        add(startPage.url.href, startPage.summary);
        sources.push(this.lightCrawl(startPage, request, scopeOf, add, signal, deadline));
      }
      if (request.useIndex && !caller.zeroDataRetention) {
        sources.push(
          (async () => {
            const subdomains = request.includeSubdomains || request.allowExternalLinks;
            const host = subdomains ? registrableDomain(bareHost(start.hostname)) : start.hostname;
            for (const entry of await this.deps.index.urlsOnHost(
              caller.teamId,
              host,
              subdomains,
              request.limit,
            )) {
              add(entry.url, {
                title: entry.title ?? undefined,
                description: entry.description ?? undefined,
              });
            }
          })(),
        );
      }
      if (this.deps.provider) sources.push(this.fromSearch(start, request, add, signal));
    }
    await Promise.all(sources);

    let links = [...found.values()].map((entry) => ({
      url: entry.url.href,
      ...(entry.title ? { title: entry.title } : {}),
      ...(entry.description ? { description: entry.description } : {}),
    }));
    if (request.search)
      links = rankByRelevance(
        links,
        request.search,
        (link) => `${safePath(link.url)} ${link.title ?? ''} ${link.description ?? ''}`,
      );
    return links.slice(0, request.limit);
  }

  /**
   * Breadth-first fetches of a few pages of the site (bounded by MAP_CRAWL_PAGES, `maxDiscoveryDepth`
   * and the deadline). Pages outside include/exclude patterns are still walked through, not listed.
   */
  private async lightCrawl(
    startPage: FetchedPage,
    request: MapRequest,
    inScope: (url: URL) => boolean,
    add: (url: string, info?: Omit<Found, 'url'>) => void,
    signal: AbortSignal,
    deadline: number,
  ): Promise<void> {
    const maxDepth = request.maxDiscoveryDepth ?? Number.POSITIVE_INFINITY;
    const queue: { url: string; depth: number }[] = [];
    const visited = new Set<string>([
      crawlUrlKey(startPage.url, { ignoreQueryParameters: true, deduplicateSimilarURLs: true }),
    ]);
    const enqueue = (links: string[], depth: number) => {
      if (depth > maxDepth) return;
      for (const link of links) {
        add(link);
        const url = parseHttpUrl(link);
        if (!url || !inScope(url)) continue;
        const key = crawlUrlKey(url, { ignoreQueryParameters: true, deduplicateSimilarURLs: true });
        if (visited.has(key)) continue;
        visited.add(key);
        // A page at the maximum depth would only yield links beyond it: listed, not fetched.
        if (depth < maxDepth) queue.push({ url: url.href, depth });
      }
    };
    enqueue(startPage.links, 1);
    let budget = this.deps.crawlPages;
    const worker = async () => {
      while (budget > 0 && queue.length > 0 && !signal.aborted && Date.now() < deadline - 250) {
        budget -= 1;
        const next = queue.shift() as { url: string; depth: number };
        const page = await this.fetchPage(next.url, request, signal, deadline).catch(() => undefined);
        if (!page) continue;
        add(page.url.href, page.summary);
        enqueue(page.links, next.depth + 1);
      }
    };
    const parallelism = Math.min(CRAWL_PARALLELISM, request.maxConcurrency ?? CRAWL_PARALLELISM);
    await Promise.all(Array.from({ length: parallelism }, worker));
  }

  private async fromSearch(
    start: URL,
    request: MapRequest,
    add: (url: string, info?: Omit<Found, 'url'>) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const provider = this.deps.provider as SearchProvider;
    const query = `${request.search ? `${request.search} ` : ''}site:${bareHost(start.hostname)}`;
    try {
      const results = await provider.search(
        { query, category: 'general', page: 1 },
        { signal, timeoutMs: PAGE_TIMEOUT_MS },
      );
      for (const result of results)
        add(result.url, { title: result.title || undefined, description: result.content || undefined });
    } catch (error) {
      this.deps.logger.debug({ err: error }, 'map: search provider failed');
    }
  }

  private async fetchPage(
    url: string,
    request: MapRequest,
    signal: AbortSignal,
    deadline: number,
  ): Promise<FetchedPage | undefined> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return undefined;
    try {
      const response = await this.deps.client.fetch({
        url,
        headers: request.headers,
        timeoutMs: Math.min(PAGE_TIMEOUT_MS, remaining),
        signal,
        maxBytes: PAGE_MAX_BYTES,
      });
      const type = response.contentType ?? '';
      if (response.status >= 400 || (type && !/html|xml/i.test(type))) return undefined;
      const html = response.body.toString('utf8');
      return {
        url: new URL(response.url),
        links: discoverLinks(html, response.url),
        summary: pageSummary(html),
      };
    } catch (error) {
      this.deps.logger.debug({ err: error, url }, 'map: page not fetched');
      return undefined;
    }
  }

  /**
   * Same site rules as docs/crawl.md#map: same origin (subdomains with `includeSubdomains` or the crawler's
   * `allowSubdomains`), the input path prefix with `filterByPath` unless `crawlEntireDomain`. Origins,
   * not host names: another port of the same host is another site (its pages in the team index are
   * not this site's); `http` and `https` on their default ports count as one site.
   */
  private scope(start: URL, request: MapRequest): (url: URL) => boolean {
    const host = bareHost(start.hostname);
    const port = sitePort(start);
    const domain = registrableDomain(host);
    const prefix = start.pathname.replace(/\/+$/, '');
    const subdomains = request.includeSubdomains || request.allowSubdomains;
    const byPath = request.filterByPath && !request.crawlEntireDomain;
    return (url) => {
      if (request.allowExternalLinks) return true;
      if (sitePort(url) !== port) return false;
      const candidate = bareHost(url.hostname);
      const sameHost = candidate === host;
      if (!sameHost && !(subdomains && isWithinDomain(candidate, domain))) return false;
      if (byPath && prefix && sameHost)
        return url.pathname === prefix || url.pathname.startsWith(`${prefix}/`);
      return true;
    };
  }

  private async record(caller: MapCaller, request: MapRequest): Promise<string> {
    const id = randomUUID();
    await this.deps.jobs.create({
      id,
      teamId: caller.teamId,
      apiKeyId: caller.apiKeyId,
      kind: 'map',
      input: { url: request.url, search: request.search, limit: request.limit, sitemap: request.sitemap },
      zeroDataRetention: caller.zeroDataRetention,
      expiresAt: new Date(Date.now() + this.deps.retentionHours * 3_600_000),
    });
    if (
      await this.deps.outcomes.complete({
        jobId: id,
        teamId: caller.teamId,
        kind: 'map',
        apiKeyId: caller.apiKeyId,
        credits: PRICES.map,
      })
    ) {
      this.deps.metrics?.creditsConsumed.inc({ kind: 'map' }, PRICES.map);
    }
    return id;
  }
}

interface FetchedPage {
  url: URL;
  links: string[];
  summary: { title?: string; description?: string };
}

function safePath(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname).replace(/[-_/.]+/g, ' ');
  } catch {
    return url;
  }
}

/** The port part of a URL's origin (WHATWG URLs leave a scheme's default port empty). */
function sitePort(url: URL): string {
  return url.port || 'default';
}
