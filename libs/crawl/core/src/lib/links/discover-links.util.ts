/**
 * Link discovery for the crawler: absolute http(s) targets of `<a href>`/`<area href>` in the raw
 * HTML (docs/crawl.md#crawl-options), resolved against `<base href>`, without fragments, de-duplicated in document
 * order. A tag scanner rather than a DOM: it runs on every crawled page, next to the full content
 * pipeline, and must cost little.
 */

const SKIP_BLOCKS =
  /<!--[\s\S]*?-->|<script\b[^>]*>[\s\S]*?<\/script\s*>|<style\b[^>]*>[\s\S]*?<\/style\s*>|<template\b[^>]*>[\s\S]*?<\/template\s*>/gi;
const TAG = /<(a|area|base)\s[^>]*>/gi;
const HREF = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;
const NON_HTTP = /^(?:javascript|mailto|tel|data|sms|ftp|file|about|blob):/i;

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  sol: '/',
  colon: ':',
  quest: '?',
  equals: '=',
  num: '#',
};

export function decodeHtmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (match, entity: string) => {
    if (entity[0] === '#') {
      const code =
        entity[1] === 'x' || entity[1] === 'X'
          ? parseInt(entity.slice(2), 16)
          : parseInt(entity.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return NAMED_ENTITIES[entity.toLowerCase()] ?? match;
  });
}

export function discoverLinks(html: string, pageUrl: string): string[] {
  const text = html.replace(SKIP_BLOCKS, ' ');
  let base = pageUrl;
  const seen = new Set<string>();
  const links: string[] = [];
  TAG.lastIndex = 0;
  for (let match = TAG.exec(text); match; match = TAG.exec(text)) {
    const href = HREF.exec(match[0]);
    if (!href) continue;
    const value = decodeHtmlEntities((href[1] ?? href[2] ?? href[3] ?? '').trim());
    if (match[1].toLowerCase() === 'base') {
      if (base === pageUrl && value) base = resolve(value, pageUrl) ?? pageUrl;
      continue;
    }
    if (!value || value.startsWith('#') || NON_HTTP.test(value)) continue;
    const absolute = resolve(value, base);
    if (!absolute || seen.has(absolute)) continue;
    seen.add(absolute);
    links.push(absolute);
  }
  return links;
}

function resolve(href: string, base: string): string | undefined {
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return withoutFragment(url.href);
  } catch {
    return undefined;
  }
}

/**
 * A serialised URL without its fragment: the first `#` of a WHATWG serialisation starts the fragment
 * (a `#` in the path or query is percent-encoded). Cheaper than `url.hash = ''`, which re-serialises
 * the URL, on every link of every crawled page.
 */
function withoutFragment(href: string): string {
  const hash = href.indexOf('#');
  return hash < 0 ? href : href.slice(0, hash);
}
