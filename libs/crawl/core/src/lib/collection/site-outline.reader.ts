import type { GuardedHttpClient } from '@quarry/platform/net';

import type { SitemapFetcher } from '../sitemap/sitemap-fetcher';
import { linksWithText, outlineFromLinks, type SiteOutline } from './site-outline.util';

const PAGE_BYTES = 2 * 1024 * 1024;

/**
 * Reads a site's outline for offline crawl-prompt interpretation: the start page's links (with
 * their anchor texts) and the site's /sitemap.xml, through the guarded outbound client, within a
 * small time budget. Undefined when neither could be read (the prompt is then read without it).
 */
export class SiteOutlineReader {
  constructor(
    private readonly client: GuardedHttpClient,
    private readonly sitemaps: SitemapFetcher,
    private readonly timeoutMs = 5_000,
  ) {}

  async read(url: string, signal?: AbortSignal): Promise<SiteOutline | undefined> {
    let start: URL;
    try {
      start = new URL(url.trim());
    } catch {
      return undefined;
    }
    const deadline = Date.now() + this.timeoutMs;
    const [page, sitemap] = await Promise.all([
      this.client
        .fetch({
          url: start.href,
          timeoutMs: this.timeoutMs,
          maxBytes: PAGE_BYTES,
          headers: { accept: 'text/html,*/*;q=0.5' },
          signal,
        })
        .catch(() => undefined),
      this.sitemaps.collect([`${start.origin}/sitemap.xml`], { signal, deadline }).catch(() => undefined),
    ]);
    const html =
      page &&
      page.status >= 200 &&
      page.status < 300 &&
      /html/i.test(page.contentType ?? page.headers['content-type'] ?? 'text/html');
    const links = html && page ? linksWithText(page.body.toString('utf8'), page.url) : [];
    const urls = sitemap?.urls ?? [];
    if (links.length === 0 && urls.length === 0) return undefined;
    return outlineFromLinks(page?.url ?? start.href, links, urls);
  }
}
