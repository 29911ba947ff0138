import { Parser } from 'htmlparser2';

import { COMMENT_NODE, ELEMENT_NODE, TEXT_NODE } from './dom.types';
import { HtmlNode } from './html-node';

/** SVG and MathML keep the case of their attribute names (`viewBox`); HTML's are case-insensitive. */
const FOREIGN = new Set(['svg', 'math']);

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
  const parser = new Parser(
    {
      onopentag(name: string, attribs: Record<string, string>) {
        const element = new HtmlNode(ELEMENT_NODE, name, '', document);
        if (FOREIGN.has(name)) foreignDepth++;
        let attrs: string[] | null = null;
        for (const key in attribs) {
          const attr = foreignDepth === 0 && hasUpperCase(key) ? key.toLowerCase() : key;
          if (!attrs) attrs = [attr, attribs[key]];
          else if (attr === key || !hasName(attrs, attr)) attrs.push(attr, attribs[key]);
        }
        element.attrs = attrs;
        current.append(element);
        current = element;
      },
      onclosetag(name: string) {
        if (FOREIGN.has(name) && foreignDepth > 0) foreignDepth--;
        current = current.parentNode ?? document;
      },
      ontext(text: string) {
        const last = current.lastChild;
        if (last && last.nodeType === TEXT_NODE) last.data += text;
        else current.append(new HtmlNode(TEXT_NODE, '#text', text, document));
      },
      oncomment(data: string) {
        current.append(new HtmlNode(COMMENT_NODE, '#comment', data, document));
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: false },
  );
  parser.write(html);
  parser.end();
  return document;
}
