import { Readable } from 'node:stream';

import { XMLParser } from 'fast-xml-parser';

import { type GuardedHttpClient, readBounded } from '@quarry/platform/net';

export interface SitemapLimits {
  /** Sitemap files fetched per collection (index files included). */
  maxSitemaps: number;
  /** URLs collected in total. */
  maxUrls: number;
  /** Levels of sitemap index files followed. */
  maxDepth: number;
  /** Bytes of one sitemap after decompression (MAX_RESPONSE_BYTES in the services). */
  maxBytes: number;
  /** Per sitemap request. */
  timeoutMs: number;
}

export const DEFAULT_SITEMAP_LIMITS: SitemapLimits = {
  maxSitemaps: 100,
  maxUrls: 100_000,
  maxDepth: 4,
  maxBytes: 50 * 1024 * 1024,
  timeoutMs: 15_000,
};

export interface SitemapResult {
  urls: string[];
  sitemaps: string[];
  errors: { url: string; error: string }[];
}

interface ParsedSitemap {
  urls: string[];
  children: string[];
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

/**
 * Collects page URLs from sitemaps: `urlset` files, `sitemapindex` files (followed to `maxDepth`),
 * gzip-compressed files (by content, whatever the Content-Type) and plain-text sitemaps.
 */
export class SitemapFetcher {
  constructor(
    private readonly client: GuardedHttpClient,
    private readonly limits: SitemapLimits = DEFAULT_SITEMAP_LIMITS,
  ) {}

  async collect(
    roots: string[],
    options: { signal?: AbortSignal; deadline?: number } = {},
  ): Promise<SitemapResult> {
    const result: SitemapResult = { urls: [], sitemaps: [], errors: [] };
    const seenSitemaps = new Set<string>();
    const seenUrls = new Set<string>();
    let level = [...new Set(roots)];
    for (let depth = 0; depth <= this.limits.maxDepth && level.length > 0; depth += 1) {
      const next: string[] = [];
      for (const sitemap of level) {
        if (seenSitemaps.has(sitemap) || seenSitemaps.size >= this.limits.maxSitemaps) continue;
        if (options.signal?.aborted || (options.deadline !== undefined && Date.now() > options.deadline))
          return result;
        seenSitemaps.add(sitemap);
        let parsed: ParsedSitemap;
        try {
          parsed = await this.fetchOne(sitemap, options);
        } catch (error) {
          result.errors.push({ url: sitemap, error: error instanceof Error ? error.message : String(error) });
          continue;
        }
        result.sitemaps.push(sitemap);
        for (const url of parsed.urls) {
          if (result.urls.length >= this.limits.maxUrls) return result;
          if (seenUrls.has(url)) continue;
          seenUrls.add(url);
          result.urls.push(url);
        }
        for (const child of parsed.children) next.push(child);
      }
      level = next;
    }
    return result;
  }

  private async fetchOne(
    url: string,
    options: { signal?: AbortSignal; deadline?: number },
  ): Promise<ParsedSitemap> {
    const remaining =
      options.deadline === undefined
        ? this.limits.timeoutMs
        : Math.min(this.limits.timeoutMs, options.deadline - Date.now());
    if (remaining <= 0) throw new Error('sitemap deadline passed');
    const response = await this.client.fetch({
      url,
      timeoutMs: remaining,
      maxBytes: this.limits.maxBytes,
      headers: { accept: 'application/xml,text/xml,application/x-gzip,text/plain;q=0.8,*/*;q=0.5' },
      signal: options.signal,
    });
    if (response.status < 200 || response.status >= 300) throw new Error(`HTTP ${response.status}`);
    let body = response.body;
    // A .xml.gz file (also inside a gzip Content-Encoding): decoded as a stream, bounded like the response.
    if (body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b)
      body = await readBounded(Readable.from([body]), ['gzip'], this.limits.maxBytes);
    return parseSitemap(body.toString('utf8'), response.url);
  }
}

/** Parses a sitemap document: XML `urlset`/`sitemapindex`, or one URL per line. */
export function parseSitemap(text: string, sitemapUrl: string): ParsedSitemap {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('<')) {
    const urls = trimmed
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => /^https?:\/\//i.test(line));
    return { urls, children: [] };
  }
  const doc = parser.parse(trimmed) as {
    urlset?: { url?: { loc?: unknown }[] };
    sitemapindex?: { sitemap?: { loc?: unknown }[] };
  };
  const locs = (entries: { loc?: unknown }[] | undefined) =>
    (entries ?? [])
      .map((entry) => (typeof entry.loc === 'string' ? entry.loc.trim() : ''))
      .filter(Boolean)
      .map((loc) => absolute(loc, sitemapUrl))
      .filter((loc): loc is string => loc !== undefined);
  return { urls: locs(doc.urlset?.url), children: locs(doc.sitemapindex?.sitemap) };
}

function absolute(loc: string, base: string): string | undefined {
  try {
    const url = new URL(loc, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
