import { parseHTML } from 'linkedom';
import type { DomDocument } from './dom.types';
import { limitDepth } from './limit-depth.util';

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

const SCRIPT_OPEN = /<script\b/gi;
const SCRIPT_CLOSE = /<\/script/gi;

/** Offset of the last match of `re` that starts before `index`, or -1. */
function lastMatchBefore(html: string, re: RegExp, index: number): number {
  let last = -1;
  re.lastIndex = 0;
  for (let m = re.exec(html); m && m.index < index; m = re.exec(html)) last = m.index;
  return last;
}

function insideScript(html: string, index: number): boolean {
  return lastMatchBefore(html, SCRIPT_OPEN, index) > lastMatchBefore(html, SCRIPT_CLOSE, index);
}

/** First match of a global regex at or after `from` that is not inside a `<script>` element. */
function findOutsideScripts(html: string, re: RegExp, from: number): RegExpExecArray | null {
  re.lastIndex = from;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    if (!insideScript(html, m.index)) return m;
  }
  return null;
}

const CDATA_OR_RAW_TEXT = /<(script|style)\b[\s\S]*?<\/\1\s*>|<!\[CDATA\[[^>]*>/gi;

/**
 * In HTML (not XML) `<![CDATA[` opens a bogus comment that ends at the next `>`; htmlparser2 instead
 * swallows the rest of the document. Drops those sections the way a browser does, leaving scripts alone.
 */
function dropHtmlCdata(html: string): string {
  if (!html.includes('<![CDATA[')) return html;
  return html.replace(CDATA_OR_RAW_TEXT, (match: string, rawTag?: string) => (rawTag ? match : ''));
}

/**
 * Rebuilds the `<html><head>…</head><body>…</body></html>` skeleton that an HTML5 parser would infer:
 * linkedom only understands documents that spell it out, and returns an empty body for fragments,
 * missing `<body>` tags, or content after `</body>`.
 */
export function normalizeDocumentShell(html: string): string {
  const htmlTag = findOutsideScripts(html, /<html\b[^>]*>/gi, 0);
  const headEnd = findOutsideScripts(html, /<\/head\s*>/gi, 0);
  const bodyTag = findOutsideScripts(html, /<body\b[^>]*>/gi, headEnd ? headEnd.index : 0);
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

/** Parses an HTML string into a linkedom document that always has a head and a body. */
export function parseDocument(html: string): DomDocument {
  const { document: parsed } = parseHTML(normalizeDocumentShell(dropHtmlCdata(html)));
  // linkedom's typings describe a browser Window; the structural subset in dom.types is what it provides.
  const document = parsed as unknown as DomDocument;
  if (document.body) limitDepth(document.body);
  return document;
}
