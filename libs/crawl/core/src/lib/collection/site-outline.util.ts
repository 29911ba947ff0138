import { withoutSkippedBlocks } from '../links/discover-links.util';

/**
 * The sections of a site as its own navigation and sitemap show them: path prefixes ("/blog",
 * "/docs/api", "/en/latest") with the anchor texts that link to them ("Blog", "Customer stories")
 * and how many known pages they hold. Crawl prompts are mapped onto these sections offline
 * ("Only crawl the blog articles" → the site's /journal when its navigation calls it "Blog").
 */

export interface SiteLink {
  url: string;
  text: string;
}

export interface SiteSection {
  /** Path prefix without trailing slash ("/docs/api"). */
  path: string;
  /** Words naming the section: its path segments and the anchor texts of links into it. */
  labels: string[];
  /** Known pages under it (links and sitemap URLs). */
  pages: number;
}

export interface SiteOutline {
  origin: string;
  sections: SiteSection[];
}

/** Leading path segments that are not sections themselves: languages and versions. */
const PREFIX_SEGMENT = /^(?:[a-z]{2}(?:[-_][a-z]{2})?|v\d+(?:\.\d+)*|latest|stable|current|next|dev)$/i;

function hostKey(host: string): string {
  return host.toLowerCase().replace(/^www\./, '');
}

function pathOf(url: string, base: string): { host: string; segments: string[] } | undefined {
  try {
    const parsed = new URL(url, base);
    if (!/^https?:$/.test(parsed.protocol)) return undefined;
    return { host: hostKey(parsed.hostname), segments: parsed.pathname.split('/').filter(Boolean) };
  } catch {
    return undefined;
  }
}

/**
 * Sections of a site from its start page's links and its sitemap: every first-level path prefix
 * (after a language or version prefix, "/en/latest" counts as one), and second-level prefixes
 * under them that hold pages of their own.
 */
export function outlineFromLinks(
  startUrl: string,
  links: readonly SiteLink[],
  sitemap: readonly string[],
): SiteOutline {
  const start = new URL(startUrl);
  const host = hostKey(start.hostname);
  const sections = new Map<string, { labels: Set<string>; pages: Set<string> }>();
  const entries = [
    ...links.map((link) => ({ url: link.url, text: link.text })),
    ...sitemap.map((url) => ({ url, text: '' })),
  ];
  for (const entry of entries) {
    const location = pathOf(entry.url, start.href);
    if (!location || location.host !== host || location.segments.length === 0) continue;
    const { segments } = location;
    const prefixLength = PREFIX_SEGMENT.test(segments[0])
      ? segments.length > 1 && PREFIX_SEGMENT.test(segments[1])
        ? 2
        : 1
      : 0;
    for (let depth = prefixLength + 1; depth <= Math.min(segments.length, prefixLength + 2); depth += 1) {
      // A leaf page counts as a section only when a short navigation label names it ("Camping").
      if (
        depth > prefixLength + 1 &&
        depth === segments.length &&
        (entry.text === '' || entry.text.split(/\s+/).length > 2)
      )
        continue;
      const path = `/${segments.slice(0, depth).join('/')}`;
      const section = sections.get(path) ?? { labels: new Set<string>(), pages: new Set<string>() };
      section.pages.add(segments.join('/'));
      // Anchor text names the section when the link points at the section itself or just below it.
      if (entry.text && segments.length <= depth + 1) section.labels.add(entry.text.trim());
      sections.set(path, section);
    }
    if (prefixLength > 0) {
      const path = `/${segments.slice(0, prefixLength).join('/')}`;
      const section = sections.get(path) ?? { labels: new Set<string>(), pages: new Set<string>() };
      section.pages.add(segments.join('/'));
      if (entry.text && segments.length === prefixLength) section.labels.add(entry.text.trim());
      sections.set(path, section);
    }
  }
  return {
    origin: start.origin,
    sections: [...sections.entries()]
      .map(([path, section]) => ({ path, labels: [...section.labels], pages: section.pages.size }))
      .sort((a, b) => a.path.localeCompare(b.path)),
  };
}

const ANCHOR_OPEN = /<a\b/gi;
const ANCHOR_CLOSE = /<\/a\s*>/gi;
const ANCHOR_HREF = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

/**
 * Links of a page with their anchor text (navigation names sections: "Blog" → /journal). One pass:
 * each `<a …>` is read up to its `>`, its text up to the first `</a>` after it; the end tag is
 * searched for once past the last one found, so unclosed anchors cost nothing (an expression
 * searched from each to the end of the page: 100,000 of them held the event loop for minutes).
 */
export function linksWithText(html: string, pageUrl: string): SiteLink[] {
  const out: SiteLink[] = [];
  const body = withoutSkippedBlocks(html);
  ANCHOR_OPEN.lastIndex = 0;
  for (let open = ANCHOR_OPEN.exec(body); open; open = ANCHOR_OPEN.exec(body)) {
    const tagEnd = body.indexOf('>', open.index);
    if (tagEnd < 0) break; // no tag after this one ends either
    ANCHOR_CLOSE.lastIndex = tagEnd + 1;
    const close = ANCHOR_CLOSE.exec(body);
    if (!close) break; // no anchor after this one is closed either
    ANCHOR_OPEN.lastIndex = close.index + close[0].length;
    const href = ANCHOR_HREF.exec(body.slice(open.index, tagEnd));
    const value = (href?.[1] ?? href?.[2] ?? href?.[3] ?? '').trim();
    if (!value || value.startsWith('#') || /^(?:javascript|mailto|tel):/i.test(value)) continue;
    const inner = body.slice(tagEnd + 1, close.index);
    const lastEnd = inner.lastIndexOf('>') + 1; // no tag ends after it: not searched
    const text = (inner.slice(0, lastEnd).replace(/<[^>]+>/g, ' ') + inner.slice(lastEnd))
      .replace(/&amp;/g, '&')
      .replace(/&nbsp;|&#160;/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    try {
      out.push({ url: new URL(value, pageUrl).href, text: text.slice(0, 80) });
    } catch {
      // not a URL
    }
    if (out.length >= 2_000) break;
  }
  return out;
}
