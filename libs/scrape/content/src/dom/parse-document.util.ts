import type { DomDocument } from './dom.types';
import { limitDepth } from './limit-depth.util';
import { parseHtml } from './parse-html.util';
import { stripRawText } from './raw-text.util';
import { completeStreamedSegments } from './streamed-segments.util';

const HEAD_ONLY_TAG = /^<(?:!doctype|!--|\/?html|\/?head|title|meta|link|base|style|script)\b/i;
const RAW_TEXT_END: Readonly<Record<string, RegExp>> = {
  title: /<\/title\s*>/gi,
  style: /<\/style\s*>/gi,
  script: /<\/script\s*>/gi,
};

function attributesOf(tag: string | undefined): string {
  const attrs = tag?.replace(/^<[a-z]+/i, '').replace(/\/?>$/, '') ?? '';
  return attrs.trim() ? ` ${attrs.trim()}` : '';
}

/** Offset where body content starts in a document that has no `<body>` tag. */
function implicitBodyStart(html: string): number {
  let i = 0;
  while (i < html.length) {
    const ws = /\S/g;
    ws.lastIndex = i;
    const next = ws.exec(html);
    if (!next) return html.length;
    i = next.index;
    if (html[i] !== '<') return i;
    const rest = html.slice(i, i + 20);
    if (!HEAD_ONLY_TAG.test(rest)) return i;
    if (rest.startsWith('<!--')) {
      const end = html.indexOf('-->', i + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    const name = /^<\/?([a-z!]+)/i.exec(rest)?.[1]?.toLowerCase() ?? '';
    const close = html.indexOf('>', i);
    if (close < 0) return html.length;
    i = close + 1;
    const endTag = RAW_TEXT_END[name];
    if (endTag) {
      endTag.lastIndex = i;
      const end = endTag.exec(html);
      i = end ? end.index + end[0].length : html.length;
    }
  }
  return i;
}

/** First match of a global regex at or after `from`. */
function findFrom(html: string, re: RegExp, from: number): RegExpExecArray | null {
  re.lastIndex = from;
  return re.exec(html);
}

/**
 * Rebuilds the `<html><head>…</head><body>…</body></html>` skeleton that an HTML5 parser would infer:
 * the parser (htmlparser2, as linkedom used) only builds what the markup spells out, and returns an empty body for fragments,
 * missing `<body>` tags, or content after `</body>`. Script bodies must have been emptied first
 * (`stripRawText`), so that a `<body>` in a script's text is not taken for the tag.
 */
export function normalizeDocumentShell(html: string): string {
  const htmlTag = findFrom(html, /<html\b[^>]*>/gi, 0);
  const headEnd = findFrom(html, /<\/head\s*>/gi, 0);
  const bodyTag = findFrom(html, /<body\b[^>]*>/gi, headEnd ? headEnd.index : 0);
  let head: string;
  let body: string;
  if (bodyTag) {
    head = html.slice(0, bodyTag.index);
    body = html.slice(bodyTag.index + bodyTag[0].length);
  } else if (headEnd) {
    head = html.slice(0, headEnd.index);
    body = html.slice(headEnd.index + headEnd[0].length);
  } else {
    const start = implicitBodyStart(html);
    head = html.slice(0, start);
    body = html.slice(start);
  }
  head = head
    .replace(/<!doctype[^>]*>/gi, '')
    .replace(/<\/?html\b[^>]*>/gi, '')
    .replace(/<\/?head\b[^>]*>/gi, '');
  body = body.replace(/<\/(?:body|html)\s*>/gi, '');
  return `<!DOCTYPE html><html${attributesOf(htmlTag?.[0])}><head>${head}</head><body${attributesOf(bodyTag?.[0])}>${body}</body></html>`;
}

/**
 * Parses an HTML string into a document that always has a head and a body, with the segments of a
 * streamed render moved where its scripts would put them. `repair` runs on the markup once script
 * and style bodies are gone (a text repair such as `repairMojibake` then scans about half of the
 * bytes).
 */
export function parseDocument(html: string, repair?: (markup: string) => string): DomDocument {
  const markup = stripRawText(html);
  const document = parseHtml(normalizeDocumentShell(repair ? repair(markup) : markup));
  if (document.body) limitDepth(document.body);
  // The scripts that put streamed segments in place are read from the markup they were stripped from.
  // A segment moved into a deep placeholder can sit deeper than the limit: the depth is bounded again.
  if (completeStreamedSegments(document, html) > 0 && document.body) limitDepth(document.body);
  return document;
}
