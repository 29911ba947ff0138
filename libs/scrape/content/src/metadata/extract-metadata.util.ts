import { absoluteUrl } from '../clean/resolve-urls.util';
import type { DomDocument, DomElement } from '../dom/dom.types';
import { type HeadElements, headElements } from '../dom/head-elements.util';

export type DocumentMetadata = Record<string, string | string[]>;

/** Standard keys filled from a meta name/property (first occurrence). */
const STANDARD_KEYS: ReadonlyArray<[key: string, metaName: string]> = [
  ['description', 'description'],
  ['keywords', 'keywords'],
  ['robots', 'robots'],
  ['ogTitle', 'og:title'],
  ['ogDescription', 'og:description'],
  ['ogUrl', 'og:url'],
  ['ogImage', 'og:image'],
  ['ogAudio', 'og:audio'],
  ['ogDeterminer', 'og:determiner'],
  ['ogLocale', 'og:locale'],
  ['ogSiteName', 'og:site_name'],
  ['ogVideo', 'og:video'],
  ['modifiedTime', 'article:modified_time'],
  ['publishedTime', 'article:published_time'],
  ['articleSection', 'article:section'],
];

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** `dc.date.created` → `dcDateCreated`, `dcterms.subject` → `dcTermsSubject`. */
function dublinCoreKey(name: string): string | undefined {
  const m = /^(dc|dcterms)[.:](.+)$/i.exec(name);
  if (!m) return undefined;
  const head = m[1].toLowerCase() === 'dcterms' ? 'dcTerms' : 'dc';
  const tail = m[2]
    .split(/[.:_-]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1).toLowerCase())
    .join('');
  return tail ? head + tail : undefined;
}

function faviconOf(links: readonly DomElement[], baseUrl: string): string | undefined {
  const icons = links.filter((link) =>
    /(?:^|\s)icon(?:\s|$)|apple-touch-icon/i.test(link.getAttribute('rel') ?? ''),
  );
  const preferred =
    icons.find((link) => /(?:^|\s)icon(?:\s|$)/i.test(link.getAttribute('rel') ?? '')) ?? icons[0];
  const href = preferred?.getAttribute('href');
  return href ? absoluteUrl(href, baseUrl) : undefined;
}

/**
 * Page metadata from the HTML: the title, the standard description/Open Graph/article/Dublin Core
 * keys, the favicon (absolute), and every `<meta name|property>` under its own name (repeated names
 * joined with ", ").
 */
export function extractMetadata(
  document: DomDocument,
  baseUrl: string,
  elements: HeadElements = headElements(document),
): DocumentMetadata {
  const metadata: DocumentMetadata = {};
  const byName = new Map<string, string[]>();
  for (const meta of elements.metas) {
    const name = (meta.getAttribute('name') ?? meta.getAttribute('property') ?? '').trim();
    const content = meta.getAttribute('content');
    if (!name || content === null) continue;
    const value = collapse(content);
    const key = name.toLowerCase().startsWith('og:') || name.includes(':') ? name.toLowerCase() : name;
    const list = byName.get(key) ?? [];
    list.push(value);
    byName.set(key, list);
  }
  const first = (name: string) => {
    const exact = byName.get(name);
    if (exact) return exact[0];
    for (const [key, values] of byName) if (key.toLowerCase() === name) return values[0];
    return undefined;
  };

  const title = elements.title?.textContent;
  const resolvedTitle = title && collapse(title) ? collapse(title) : first('og:title');
  if (resolvedTitle) metadata.title = resolvedTitle;
  for (const [key, metaName] of STANDARD_KEYS) {
    const value = first(metaName);
    if (value !== undefined) metadata[key] = value;
  }
  const language =
    document.documentElement.getAttribute('lang')?.trim() ||
    elements.metas
      .find((meta) => meta.getAttribute('http-equiv')?.toLowerCase() === 'content-language')
      ?.getAttribute('content')
      ?.trim();
  if (language) metadata.language = language;
  const alternates = byName.get('og:locale:alternate');
  if (alternates) metadata.ogLocaleAlternate = [...alternates];
  const tags = byName.get('article:tag');
  if (tags) metadata.articleTag = tags.join(', ');
  const favicon = faviconOf(elements.links, baseUrl);
  if (favicon) metadata.favicon = favicon;

  for (const [name, values] of byName) {
    const dc = dublinCoreKey(name);
    if (dc && metadata[dc] === undefined) metadata[dc] = values.join(', ');
    if (metadata[name] === undefined) metadata[name] = values.join(', ');
  }
  return metadata;
}
