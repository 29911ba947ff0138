import { decodeHTML, decodeHTMLAttribute } from 'entities';
import { Parser } from 'htmlparser2';

import { COMMENT_NODE, ELEMENT_NODE, TEXT_NODE } from './dom.types';
import { HtmlNode } from './html-node';

/** SVG and MathML keep the case of their attribute names (`viewBox`); HTML's are case-insensitive. */
const FOREIGN = new Set(['svg', 'math']);
/** Elements whose text is not decoded (the tokenizer's raw text; `<title>` and `<textarea>` are). */
const RAW_TEXT = new Set(['script', 'style', 'xmp']);

function hasUpperCase(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 65 && c <= 90) return true;
  }
  return false;
}

function hasName(attrs: string[], name: string): boolean {
  for (let i = 0; i < attrs.length; i += 2) if (attrs[i] === name) return true;
  return false;
}

/**
 * Parses HTML into an `HtmlNode` document with htmlparser2's tokenizer and tree rules (implied end
 * tags, raw-text elements, entities decoded), the parser linkedom used before. The tree is exactly
 * what the markup nests: callers that need an `<html><head><body>` skeleton pass markup that spells
 * it out (`normalizeDocumentShell`). Adjacent text is one text node; attribute names are lower case
 * outside SVG and MathML; a duplicate attribute keeps its first value.
 */
export function parseHtml(html: string): HtmlNode {
  const document = HtmlNode.document();
  let current = document;
  let foreignDepth = 0;
  // Elements are created at their name and given their attributes one by one (`onattribute`):
  // without an `onopentag` callback the parser builds no per-tag attribute object, which profiling
  // showed as a good part of the parse.
  const parser = new Parser(
    {
      onopentagname(name: string) {
        const element = new HtmlNode(ELEMENT_NODE, name, '', document);
        if (FOREIGN.has(name)) foreignDepth++;
        current.append(element);
        current = element;
      },
      onattribute(name: string, raw: string) {
        const attr = foreignDepth === 0 && hasUpperCase(name) ? name.toLowerCase() : name;
        const value = raw.includes('&') ? decodeHTMLAttribute(raw) : raw;
        const attrs = current.attrs;
        if (!attrs) current.attrs = [attr, value];
        else if (!hasName(attrs, attr)) attrs.push(attr, value);
      },
      onclosetag(name: string) {
        if (FOREIGN.has(name) && foreignDepth > 0) foreignDepth--;
        current = current.parentNode ?? document;
      },
      ontext(raw: string) {
        const text = raw.includes('&') && !RAW_TEXT.has(current.localName) ? decodeHTML(raw) : raw;
        const last = current.lastChild;
        if (last && last.nodeType === TEXT_NODE) last.data += text;
        else current.append(new HtmlNode(TEXT_NODE, '#text', text, document));
      },
      oncomment(data: string) {
        current.append(new HtmlNode(COMMENT_NODE, '#comment', data, document));
      },
    },
    { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: false },
  );
  parser.write(html);
  parser.end();
  return document;
}
