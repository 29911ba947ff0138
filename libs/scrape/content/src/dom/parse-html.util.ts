import { decodeHTML, decodeHTMLAttribute } from 'entities';
import { Parser } from 'htmlparser2';

import { COMMENT_NODE, ELEMENT_NODE, TEXT_NODE } from './dom.types';
import { HtmlNode } from './html-node';
import { MAX_DOM_DEPTH } from './limit-depth.util';

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
 * Open elements past which a start tag opens an empty element and its content follows it (the tag
 * is taken as void). The tree is flattened at MAX_DOM_DEPTH after parsing anyway (`limitDepth`,
 * as browsers do), which dissolves every element this deep into its text, in order; what this
 * bound saves is the parser's own stack of open elements, which costs time in proportion to its
 * depth at every tag: 150,000 nested `<div>`s took 12 s, 60,000 `<b><i><span>` 9 s.
 */
export const MAX_PARSE_DEPTH = 4 * MAX_DOM_DEPTH;

/**
 * htmlparser2's parser with its stack of open elements bounded through `isVoidElement`, its hook for
 * more void elements: at MAX_PARSE_DEPTH a start tag is void (opened and closed at once, never put on
 * the stack). The answer given for a start tag is given again when the tag ends (the parser asks
 * twice, before and after `onopentagname`); end tags get the real answer (`onclosetag`, the
 * tokenizer's callback), so they still close the open element of their name.
 */
class BoundedParser extends Parser {
  /** Elements on the parser's stack (kept by the callbacks: `opened` and `closed`). */
  private depth = 0;
  /** The last start tag's answer, until its end asks again (`undefined`: no start tag pending). */
  private pending: boolean | undefined;
  /** Whether the last answer given was for a start tag the stack does not hold. */
  private lastVoid = false;
  /** Whether the element just opened is off the stack (its close comes at once and pops nothing). */
  private openedVoid = false;
  /** Inside the tokenizer's end tag callback: the parser asks about the end tag's name. */
  private inEndTag = false;

  protected override isVoidElement(name: string): boolean {
    if (this.pending !== undefined) {
      const answer = this.pending;
      this.pending = undefined;
      return answer;
    }
    this.lastVoid = super.isVoidElement(name) || (!this.inEndTag && this.depth >= MAX_PARSE_DEPTH);
    return this.lastVoid;
  }

  override onclosetag(start: number, endIndex: number): void {
    this.inEndTag = true;
    try {
      super.onclosetag(start, endIndex);
    } finally {
      this.inEndTag = false;
    }
  }

  /** From `onopentagname`, right after the parser asked about the tag. */
  opened(): void {
    this.pending = this.lastVoid;
    this.openedVoid = this.lastVoid;
    if (!this.lastVoid) this.depth++;
  }

  /** From `onclosetag`. */
  closed(): void {
    this.pending = undefined;
    if (this.openedVoid) this.openedVoid = false;
    else this.depth--;
  }

  /** htmlparser2's own answer: an element of this name is never held open. */
  isVoid(name: string): boolean {
    return super.isVoidElement(name);
  }
}

const PARSER_OPTIONS = { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: false };
const VOID_PROBE = new BoundedParser({}, PARSER_OPTIONS);

/** Whether the parser never holds an element of this (lower-case) name open: its void elements. */
export function isParserVoid(name: string): boolean {
  return VOID_PROBE.isVoid(name);
}

/** Attributes (name and value entries) past which an element's duplicate check uses a set, not a scan. */
const SCANNED_ATTRIBUTES = 64;

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
  // Names of the open tag's attributes once it has many: a scan per attribute made a tag with 200,000
  // attributes take most of a minute (quadratic); attributes arrive right after their tag's name.
  let names: Set<string> | undefined;
  // Elements are created at their name and given their attributes one by one (`onattribute`):
  // without an `onopentag` callback the parser builds no per-tag attribute object, which profiling
  // showed as a good part of the parse.
  const parser: BoundedParser = new BoundedParser(
    {
      onopentagname(name: string) {
        parser.opened();
        const element = new HtmlNode(ELEMENT_NODE, name, '', document);
        names = undefined;
        if (FOREIGN.has(name)) foreignDepth++;
        current.append(element);
        current = element;
      },
      onattribute(name: string, raw: string) {
        const attr = foreignDepth === 0 && hasUpperCase(name) ? name.toLowerCase() : name;
        const value = raw.includes('&') ? decodeHTMLAttribute(raw) : raw;
        const attrs = current.attrs;
        if (!attrs) current.attrs = [attr, value];
        else if (attrs.length < SCANNED_ATTRIBUTES) {
          if (!hasName(attrs, attr)) attrs.push(attr, value);
        } else {
          names ??= new Set(attrs.filter((_, i) => i % 2 === 0));
          if (!names.has(attr)) {
            names.add(attr);
            attrs.push(attr, value);
          }
        }
      },
      onclosetag(name: string) {
        parser.closed();
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
    PARSER_OPTIONS,
  );
  parser.write(html);
  parser.end();
  return document;
}
