import { COMMENT_NODE, ELEMENT_NODE, TEXT_NODE } from './dom.types';
import type { HtmlNode } from './html-node';

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'menuitem',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
/**
 * Elements whose text is written as is (the HTML serialization algorithm's list). The text of
 * `<title>` and `<textarea>` is escaped: the parser decodes their character references.
 */
const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
/** Boolean-like attributes written as a bare name when empty (`id`, `class`, `style` are left out). */
const BARE_WHEN_EMPTY = new Set([
  'allowfullscreen',
  'allowpaymentrequest',
  'async',
  'autofocus',
  'autoplay',
  'checked',
  'contenteditable',
  'controls',
  'default',
  'defer',
  'disabled',
  'draggable',
  'formnovalidate',
  'hidden',
  'ismap',
  'itemscope',
  'loop',
  'multiple',
  'muted',
  'nomodule',
  'novalidate',
  'open',
  'playsinline',
  'readonly',
  'required',
  'reversed',
  'selected',
  'truespeed',
]);
const DROPPED_WHEN_EMPTY = new Set(['id', 'class', 'style']);

const TEXT_ESCAPES = /[<>&\u00a0]/g;
const escapeChar = (ch: string): string =>
  ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : '&#160;';

function escapeText(text: string): string {
  TEXT_ESCAPES.lastIndex = 0;
  return TEXT_ESCAPES.test(text) ? text.replace(TEXT_ESCAPES, escapeChar) : text;
}

function writeAttributes(attrs: string[], out: string[]): void {
  for (let i = 0; i < attrs.length; i += 2) {
    const name = attrs[i];
    const value = attrs[i + 1];
    if (!value && DROPPED_WHEN_EMPTY.has(name)) continue;
    if (!value && BARE_WHEN_EMPTY.has(name)) out.push(' ', name);
    else out.push(' ', name, '="', value.includes('"') ? value.replace(/"/g, '&quot;') : value, '"');
  }
}

function write(node: HtmlNode, out: string[], inSvg: boolean): void {
  if (node.nodeType === TEXT_NODE) {
    const parent = node.parentNode;
    out.push(parent && RAW_TEXT.has(parent.localName) ? node.data : escapeText(node.data));
    return;
  }
  if (node.nodeType === COMMENT_NODE) {
    out.push('<!--', node.data, '-->');
    return;
  }
  if (node.nodeType !== ELEMENT_NODE) {
    writeChildren(node, out, inSvg);
    return;
  }
  const name = node.localName;
  const svg = inSvg || name === 'svg';
  out.push('<', name);
  if (node.attrs) writeAttributes(node.attrs, out);
  if (!node.firstChild) {
    if (svg) out.push(' />');
    else if (VOID.has(name)) out.push('>');
    else out.push('></', name, '>');
    return;
  }
  out.push('>');
  writeChildren(node, out, svg);
  out.push('</', name, '>');
}

function writeChildren(node: HtmlNode, out: string[], inSvg: boolean): void {
  for (let child = node.firstChild; child; child = child.nextSibling) write(child, out, inSvg);
}

/** HTML of a node and its subtree (an element's outerHTML). */
export function serializeNode(node: HtmlNode): string {
  const out: string[] = [];
  write(node, out, false);
  return out.join('');
}

/** HTML of a node's children (innerHTML). */
export function serializeChildren(node: HtmlNode): string {
  const out: string[] = [];
  writeChildren(node, out, node.localName === 'svg');
  return out.join('');
}
