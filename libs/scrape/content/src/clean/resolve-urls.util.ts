import type { DomDocument, DomElement, DomParent } from '../dom/dom.types';
import { type HeadElements, headElements } from '../dom/head-elements.util';
import { queryAll } from '../dom/query.util';
import { largestSrcsetUrl } from './srcset.util';

const LAZY_SRC_ATTRIBUTES = ['data-src', 'data-lazy-src', 'data-original', 'data-lazy', 'data-url'];

/** Absolute form of `href` against `base`, or undefined when it cannot be parsed. */
export function absoluteUrl(href: string, base: string): string | undefined {
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return undefined;
  }
}

/** The document's base URL: `<base href>` resolved against the page URL, else the page URL. */
export function documentBaseUrl(
  document: DomDocument,
  pageUrl: string,
  elements: HeadElements = headElements(document),
): string {
  const href = elements.base?.getAttribute('href');
  return (href && absoluteUrl(href, pageUrl)) || pageUrl;
}

/** Best source of an `<img>`: the largest srcset/data-srcset candidate, else a lazy-load attribute, else src. */
export function imageSource(img: DomElement): string | undefined {
  const found: string[] = [];
  for (const attr of ['srcset', 'data-srcset']) {
    const value = img.getAttribute(attr);
    const best = value ? largestSrcsetUrl(value) : undefined;
    if (best) found.push(best);
  }
  for (const attr of LAZY_SRC_ATTRIBUTES) {
    const value = img.getAttribute(attr)?.trim();
    if (value && !value.startsWith('{')) found.push(value);
  }
  const src = img.getAttribute('src')?.trim();
  if (src) found.push(src);
  // Lazy loaders park a tiny data: placeholder in src/srcset; a real URL elsewhere wins.
  return found.find((url) => !/^data:/i.test(url)) ?? found[0];
}

function isHttpLike(href: string): boolean {
  return !/^(?:data|javascript|mailto|tel|about|blob|vbscript):/i.test(href);
}

/** Rewrites `img src` (responsive sets resolved to their largest image) and `a href` to absolute URLs. */
export function resolveUrls(root: DomParent, baseUrl: string): void {
  for (const img of Array.from(queryAll(root, 'img'))) {
    const src = imageSource(img);
    if (!src) continue;
    const resolved = isHttpLike(src) ? (absoluteUrl(src, baseUrl) ?? src) : src;
    img.setAttribute('src', resolved);
  }
  for (const a of Array.from(queryAll(root, 'a[href]'))) {
    const href = a.getAttribute('href') ?? '';
    if (!href.trim() || !isHttpLike(href.trim())) continue;
    const resolved = absoluteUrl(href, baseUrl);
    if (resolved) a.setAttribute('href', resolved);
  }
}
