import { absoluteUrl, imageSource } from '../clean/resolve-urls.util';
import type { DomParent } from '../dom/dom.types';
import { queryAll } from '../dom/query.util';

function httpUrl(href: string, base: string): string | undefined {
  const url = absoluteUrl(href, base);
  return url && /^https?:/i.test(url) ? url : undefined;
}

/** Absolute http(s) targets of `<a href>` under `root`, de-duplicated in document order. */
export function collectLinks(root: DomParent, baseUrl: string): string[] {
  const seen = new Set<string>();
  for (const a of Array.from(queryAll(root, 'a[href]'))) {
    const url = httpUrl(a.getAttribute('href') ?? '', baseUrl);
    if (url) seen.add(url);
  }
  return [...seen];
}

/** Absolute http(s) image URLs under `root` (responsive sets resolved to their largest image), plus extras. */
export function collectImages(root: DomParent, baseUrl: string, extra: readonly string[] = []): string[] {
  const seen = new Set<string>();
  for (const img of Array.from(queryAll(root, 'img'))) {
    const src = imageSource(img);
    const url = src ? httpUrl(src, baseUrl) : undefined;
    if (url) seen.add(url);
  }
  for (const candidate of extra) {
    const url = httpUrl(candidate, baseUrl);
    if (url) seen.add(url);
  }
  return [...seen];
}
