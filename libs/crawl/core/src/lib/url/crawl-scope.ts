import type { CrawlerOptions } from '@quarry/contracts';

import { bareHost, crawlTarget, crawlUrlKey, originOf, parseHttpUrl } from './crawl-url.util';
import { isWithinDomain, registrableDomain } from './registrable-domain.util';
import { trapReason, urlShape } from './trap-guard.util';

/** Links to files a crawl never turns into documents. */
const SKIPPED_EXTENSIONS = new Set(
  (
    'png jpg jpeg gif webp svg ico bmp tif tiff avif heic css js mjs map json5 woff woff2 ttf otf eot ' +
    'mp3 mp4 m4a m4v mov avi wmv webm ogg ogv wav flac zip gz tgz bz2 xz 7z rar tar exe dmg iso bin apk msi deb rpm'
  ).split(' '),
);

export interface FrontierCandidate {
  /** URL to fetch (as discovered, minus fragment/ignored query). */
  url: string;
  urlKey: string;
  origin: string;
  depth: number;
  trapRun: number;
}

export type ScopeDecision =
  { accepted: true; candidate: FrontierCandidate } | { accepted: false; reason: string };

export interface ParentPage {
  url: URL;
  depth: number;
  trapRun: number;
  /** `urlShape(url)`, set by the first `link` call: a page's links share their parent. */
  shape?: string;
}

export type ScopeOptions = Pick<
  CrawlerOptions,
  | 'includePaths'
  | 'excludePaths'
  | 'regexOnFullURL'
  | 'maxDiscoveryDepth'
  | 'crawlEntireDomain'
  | 'allowExternalLinks'
  | 'allowSubdomains'
  | 'ignoreQueryParameters'
  | 'deduplicateSimilarURLs'
>;

/** `includePaths`/`excludePaths` (on the path, or the full URL with `regexOnFullURL`) as one predicate. */
export function pathPatternFilter(
  options: Pick<CrawlerOptions, 'includePaths' | 'excludePaths' | 'regexOnFullURL'>,
): (url: URL) => 'excluded' | 'not-included' | undefined {
  const includes = options.includePaths.map((pattern) => new RegExp(pattern));
  const excludes = options.excludePaths.map((pattern) => new RegExp(pattern));
  return (url) => {
    const target = options.regexOnFullURL ? url.href : url.pathname;
    if (excludes.some((pattern) => pattern.test(target))) return 'excluded';
    if (includes.length > 0 && !includes.some((pattern) => pattern.test(target))) return 'not-included';
    return undefined;
  };
}

/**
 * Decides which discovered URLs a crawl follows (docs/crawl.md#crawl-options): host rules (same host, subdomains,
 * external), the start path unless `crawlEntireDomain`, include/exclude patterns, discovery depth
 * and link-trap bounds.
 */
export class CrawlScope {
  readonly start: URL;
  private readonly startHost: string;
  private readonly domain: string;
  private readonly pathPrefix: string;
  private readonly patterns: ReturnType<typeof pathPatternFilter>;

  constructor(
    startUrl: string,
    private readonly options: ScopeOptions,
    private readonly maxTrapRun: number,
  ) {
    const start = parseHttpUrl(startUrl.trim());
    if (!start) throw new Error(`not an http(s) URL: ${startUrl}`);
    this.start = start;
    this.startHost = bareHost(start.hostname);
    this.domain = registrableDomain(this.startHost);
    // A start URL naming a file (`/docs/index.html`) scopes the crawl to its directory.
    const path = start.pathname.replace(/\/[^/]*\.[a-z0-9]{1,5}$/i, '').replace(/\/+$/, '');
    this.pathPrefix = path;
    this.patterns = pathPatternFilter(options);
  }

  /** The start URL's frontier entry (always admitted: include/exclude patterns apply to discovered URLs). */
  startCandidate(): FrontierCandidate {
    return this.candidate(this.start, 0, 0);
  }

  /** A URL listed by a sitemap (depth 0, as the reference counts discovery depth). */
  sitemapUrl(raw: string): ScopeDecision {
    const url = parseHttpUrl(raw.trim());
    if (!url) return { accepted: false, reason: 'not an http(s) URL' };
    return this.judge(url, 0, 0);
  }

  /** A link found on `parent`. */
  link(raw: string, parent: ParentPage): ScopeDecision {
    const url = parseHttpUrl(raw);
    if (!url) return { accepted: false, reason: 'not an http(s) URL' };
    const depth = parent.depth + 1;
    if (this.options.maxDiscoveryDepth !== undefined && depth > this.options.maxDiscoveryDepth)
      return { accepted: false, reason: 'too deep' };
    parent.shape ??= urlShape(parent.url);
    const trapRun = urlShape(url) === parent.shape ? parent.trapRun + 1 : 0;
    if (trapRun > this.maxTrapRun) return { accepted: false, reason: 'link trap (repeating URL shape)' };
    return this.judge(url, depth, trapRun);
  }

  /** Whether a URL a page redirected to may be kept (host and path rules only). */
  allowsRedirectTarget(raw: string): boolean {
    const url = parseHttpUrl(raw);
    return !!url && this.hostAllowed(url) && this.pathAllowed(url);
  }

  keyOf(url: URL): string {
    return crawlUrlKey(url, this.options);
  }

  private judge(url: URL, depth: number, trapRun: number): ScopeDecision {
    if (!this.hostAllowed(url)) return { accepted: false, reason: 'outside the allowed hosts' };
    if (!this.pathAllowed(url)) return { accepted: false, reason: 'outside the start path' };
    const extension = /\.([a-z0-9]{1,5})$/i.exec(url.pathname)?.[1]?.toLowerCase();
    if (extension && SKIPPED_EXTENSIONS.has(extension)) return { accepted: false, reason: 'not a page' };
    const refused = this.patterns(url);
    if (refused === 'excluded') return { accepted: false, reason: 'excluded by excludePaths' };
    if (refused === 'not-included') return { accepted: false, reason: 'not matched by includePaths' };
    const trap = trapReason(url);
    if (trap) return { accepted: false, reason: `link trap (${trap})` };
    return { accepted: true, candidate: this.candidate(url, depth, trapRun) };
  }

  private candidate(url: URL, depth: number, trapRun: number): FrontierCandidate {
    const href = crawlTarget(url, this.options);
    // Parsed again only when the target differs (a query dropped): `url` is only read below.
    const target = href === url.href ? url : (parseHttpUrl(href) as URL);
    return { url: target.href, urlKey: this.keyOf(target), origin: originOf(target), depth, trapRun };
  }

  private hostAllowed(url: URL): boolean {
    if (this.options.allowExternalLinks) return true;
    const host = bareHost(url.hostname);
    if (host === this.startHost) return true;
    return this.options.allowSubdomains && isWithinDomain(host, this.domain);
  }

  private pathAllowed(url: URL): boolean {
    if (this.options.crawlEntireDomain || this.pathPrefix === '') return true;
    if (bareHost(url.hostname) !== this.startHost) return true;
    const path = url.pathname;
    return (
      path === this.pathPrefix || path.startsWith(`${this.pathPrefix}/`) || path === `${this.pathPrefix}/`
    );
  }
}
