/**
 * Markup the parser would spend most of its time on without any of it reaching the outputs: script
 * and style bodies are half of a typical page's bytes, and the pipeline drops those elements right
 * after parsing. One scan empties them (the tags stay, so the tree is the same) with native string
 * searches, following the tokenizer's rules so that nothing else changes: comments are skipped
 * whole, `<title>`, `<textarea>` and `<xmp>` keep their text (where `<script` is just text), a raw
 * text element ends at `</name` followed by whitespace or `>`, and an open tag ends at the first `>`
 * outside a quoted attribute value.
 *
 * `<![CDATA[` in HTML opens a bogus comment that ends at the next `>` (htmlparser2 would instead
 * swallow the rest of the document): such sections are dropped, as a browser does.
 */
const MARKUP = /<(?:(script|style|title|textarea|xmp)(?=[\s/>])|!--|!\[CDATA\[)/gi;
const EMPTIED = new Set(['script', 'style']);
const closers = new Map<string, RegExp>();

function closerOf(name: string): RegExp {
  let re = closers.get(name);
  if (!re) {
    re = new RegExp(`</${name}(?=[\\s>])`, 'gi');
    closers.set(name, re);
  }
  return re;
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;

/** Index just past the `>` that ends the open tag whose name ends at `from`, or -1. */
function openTagEnd(html: string, from: number): number {
  let i = from;
  const n = html.length;
  while (i < n) {
    const c = html.charCodeAt(i);
    if (c === 62) return i + 1; // >
    if (c === 61) {
      // = : a value follows, quoted or not
      i++;
      while (i < n && isSpace(html.charCodeAt(i))) i++;
      const q = html.charCodeAt(i);
      if (q === 34 || q === 39) {
        const close = html.indexOf(q === 34 ? '"' : "'", i + 1);
        if (close < 0) return -1;
        i = close + 1;
      }
      continue;
    }
    i++;
  }
  return -1;
}

const isAsciiLetter = (c: number) => (c | 0x20) >= 97 && (c | 0x20) <= 122;

/** End of the tag that the nearest `<` before `at` opens, when that `<` starts a tag; else -1. */
function enclosingTagEnd(html: string, at: number): number {
  const lt = html.lastIndexOf('<', at - 1);
  if (lt < 0 || !isAsciiLetter(html.charCodeAt(lt + 1))) return -1;
  let nameEnd = lt + 1;
  while (nameEnd < at && !isSpace(html.charCodeAt(nameEnd)) && html.charCodeAt(nameEnd) !== 62) nameEnd++;
  return nameEnd >= at ? -1 : openTagEnd(html, nameEnd);
}

/** The markup with script and style bodies emptied and CDATA sections dropped. */
export function stripRawText(html: string): string {
  const parts: string[] = [];
  let copied = 0;
  MARKUP.lastIndex = 0;
  for (let m = MARKUP.exec(html); m; m = MARKUP.exec(html)) {
    const start = m.index;
    const name = m[1]?.toLowerCase();
    if (!name) {
      if (m[0] === '<!--') {
        const end = html.indexOf('-->', start + 4);
        if (end < 0) break;
        MARKUP.lastIndex = end + 3;
      } else {
        const end = html.indexOf('>', start);
        parts.push(html.slice(copied, start));
        copied = end < 0 ? html.length : end + 1;
        MARKUP.lastIndex = copied;
      }
      continue;
    }
    // `<script` inside another tag's attribute value is text to the tokenizer: go on after that tag.
    const enclosing = enclosingTagEnd(html, start);
    if (enclosing > start) {
      MARKUP.lastIndex = enclosing;
      continue;
    }
    const bodyStart = openTagEnd(html, start + 1 + name.length);
    if (bodyStart < 0) break;
    const closer = closerOf(name);
    closer.lastIndex = bodyStart;
    const close = closer.exec(html);
    const bodyEnd = close ? close.index : html.length;
    if (EMPTIED.has(name) && bodyEnd > bodyStart) {
      parts.push(html.slice(copied, bodyStart));
      copied = bodyEnd;
    }
    if (!close) break;
    MARKUP.lastIndex = bodyEnd + 2 + name.length;
  }
  if (copied === 0) return html;
  parts.push(html.slice(copied));
  return parts.join('');
}
