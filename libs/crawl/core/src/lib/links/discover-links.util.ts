/**
 * Link discovery for the crawler: absolute http(s) targets of `<a href>`/`<area href>` in the raw
 * HTML (docs/crawl.md#crawl-options), resolved against `<base href>`, without fragments, de-duplicated in document
 * order. A tag scanner rather than a DOM: it runs on every crawled page, next to the full content
 * pipeline, and must cost little.
 */

/** Blocks whose content is not markup, by the name after `<`: closed by the first matching end tag. */
type Skipped = 'script' | 'style' | 'template';
const CLOSERS: Record<Skipped, RegExp> = {
  script: /<\/script\s*>/gi,
  style: /<\/style\s*>/gi,
  template: /<\/template\s*>/gi,
};
const SKIPPED_OPEN = /(script|style|template)\b/iy;
const LINK_TAG = /(a|area|base)\s/iy;
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
  const text = withoutSkippedBlocks(html);
  let base = pageUrl;
  const seen = new Set<string>();
  const links: string[] = [];
  for (const tag of linkTags(text)) {
    const href = HREF.exec(tag.text);
    if (!href) continue;
    const value = decodeHtmlEntities((href[1] ?? href[2] ?? href[3] ?? '').trim());
    if (tag.name === 'base') {
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

/**
 * The page with comments and script, style and template blocks each replaced by a space. One pass:
 * each block's end is searched for once, and a kind of block found unterminated is not searched for
 * again (a page of 20,000 unclosed `<script>` tags cost 1 s per search from each, 6 minutes at 400,000).
 */
export function withoutSkippedBlocks(html: string): string {
  const parts: string[] = [];
  let kept = 0;
  let at = html.indexOf('<');
  const unterminated = new Set<string>();
  while (at >= 0) {
    let end = -1;
    if (html.startsWith('<!--', at)) {
      if (!unterminated.has('comment')) {
        const close = html.indexOf('-->', at + 4);
        if (close < 0) unterminated.add('comment');
        else end = close + 3;
      }
    } else {
      SKIPPED_OPEN.lastIndex = at + 1;
      const open = SKIPPED_OPEN.exec(html);
      const kind = open?.[1].toLowerCase() as Skipped | undefined;
      if (kind && !unterminated.has(kind)) {
        const openEnd = html.indexOf('>', at);
        const closer = CLOSERS[kind];
        closer.lastIndex = openEnd + 1;
        const close = openEnd < 0 ? null : closer.exec(html);
        if (!close) unterminated.add(kind);
        else end = close.index + close[0].length;
      }
    }
    if (end < 0) {
      at = html.indexOf('<', at + 1);
      continue;
    }
    parts.push(html.slice(kept, at), ' ');
    kept = end;
    at = html.indexOf('<', end);
  }
  parts.push(html.slice(kept));
  return parts.join('');
}

/** `<a …>`, `<area …>` and `<base …>` tags in document order, in one pass. */
function* linkTags(text: string): Generator<{ name: string; text: string }> {
  let at = text.indexOf('<');
  while (at >= 0) {
    LINK_TAG.lastIndex = at + 1;
    const name = LINK_TAG.exec(text)?.[1];
    if (!name) {
      at = text.indexOf('<', at + 1);
      continue;
    }
    const end = text.indexOf('>', at);
    if (end < 0) return; // no tag after this one can end either
    yield { name: name.toLowerCase(), text: text.slice(at, end + 1) };
    at = text.indexOf('<', end + 1);
  }
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
