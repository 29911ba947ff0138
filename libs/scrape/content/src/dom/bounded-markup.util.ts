import type { DomElement } from './dom.types';
import { limitDepth, MAX_DOM_DEPTH } from './limit-depth.util';
import { isParserVoid, parseHtml } from './parse-html.util';
import { serializeChildren } from './serialize-html.util';

function isNameChar(code: number): boolean {
  const lower = code | 0x20;
  return (lower >= 0x61 && lower <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x3a;
}

/**
 * An upper bound of the nesting the markup parses into, in one pass without parsing: start tags
 * open (a void one is a leaf), an end tag closes one open element of its name when any is counted.
 * Never below the real depth: an end tag the parser ignores, or that closes more than one element,
 * cannot make the count smaller than the elements really open; tags inside comments, scripts or
 * attribute values only make it larger.
 */
export function nestingBound(html: string): number {
  const open = new Map<string, number>();
  let depth = 0;
  let deepest = 0;
  const last = html.length - 1;
  for (let i = html.indexOf('<'); i >= 0 && i < last; i = html.indexOf('<', i + 1)) {
    const closing = html.charCodeAt(i + 1) === 0x2f;
    const start = closing ? i + 2 : i + 1;
    let end = start;
    while (end <= last && isNameChar(html.charCodeAt(end))) end++;
    if (end === start) continue;
    const first = html.charCodeAt(start) | 0x20;
    if (first < 0x61 || first > 0x7a) continue; // a tag name starts with a letter
    const name = html.slice(start, end).toLowerCase();
    if (isParserVoid(name)) {
      // A leaf one level down: it never stays open.
      if (!closing && depth + 1 > deepest) deepest = depth + 1;
      continue;
    }
    const count = open.get(name) ?? 0;
    if (closing) {
      if (count > 0) {
        open.set(name, count - 1);
        depth--;
      }
      continue;
    }
    open.set(name, count + 1);
    if (++depth > deepest) deepest = depth;
  }
  return deepest;
}

/**
 * The markup as given when it cannot nest deeper than MAX_DOM_DEPTH (`nestingBound`); otherwise
 * parsed, flattened at that depth as the content pipeline does (`limitDepth`: elements past it are
 * replaced by their text, in order) and written out again, scripts, JSON-LD and the attributes of
 * the elements kept. For DOM libraries whose time grows with the square of the
 * depth (linkedom took 22 s on 20,000 nested divs and 94 s on 20,000 nested microdata items, on the
 * scrape worker's event loop): a page parsed with one of them goes through this first.
 */
export function boundedMarkup(html: string): string {
  if (nestingBound(html) <= MAX_DOM_DEPTH) return html;
  const document = parseHtml(html);
  limitDepth(document as unknown as DomElement);
  return serializeChildren(document);
}
