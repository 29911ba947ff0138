import {
  COMMENT_NODE,
  type DomDocument,
  type DomElement,
  type DomNode,
  type DomText,
  ELEMENT_NODE,
  TEXT_NODE,
} from './dom.types';
import { query, queryAll } from './query.util';
import { serializeChildren, serializeNode } from './serialize-html.util';

export const DOCUMENT_NODE = 9;

/**
 * The content pipeline's DOM: one small class for documents, elements, text and comments, linked
 * as a tree of sibling pointers, with the attributes of an element in one flat array. It implements
 * the structural slice of the DOM in `dom.types` and nothing else (no events, no live collections, no
 * namespaces, no mutation observers): the page is parsed once, read many times and pruned, and a
 * full DOM's per-node bookkeeping cost more than the rest of the pipeline together.
 *
 * Attribute names are stored as parsed (lower case for HTML, see `parseHtml`); look-ups are exact.
 */
export class HtmlNode implements DomElement, DomText, DomDocument {
  parentNode: HtmlNode | null = null;
  firstChild: HtmlNode | null = null;
  lastChild: HtmlNode | null = null;
  nextSibling: HtmlNode | null = null;
  previousSibling: HtmlNode | null = null;
  /** Attributes as `[name, value, name, value, …]`, or null when there are none. */
  attrs: string[] | null = null;

  constructor(
    readonly nodeType: number,
    /** Lower-case tag name of an element; `#text`, `#comment` or `#document` otherwise. */
    readonly localName: string,
    /** Text of a text or comment node (empty for elements and documents). */
    public data: string,
    private owner: HtmlNode | null,
  ) {}

  static document(): HtmlNode {
    return new HtmlNode(DOCUMENT_NODE, '#document', '', null);
  }

  get ownerDocument(): HtmlNode | null {
    return this.owner;
  }

  get nodeName(): string {
    return this.nodeType === ELEMENT_NODE ? this.localName.toUpperCase() : this.localName;
  }

  get tagName(): string {
    return this.localName.toUpperCase();
  }

  get parentElement(): HtmlNode | null {
    const parent = this.parentNode;
    return parent && parent.nodeType === ELEMENT_NODE ? parent : null;
  }

  get firstElementChild(): HtmlNode | null {
    let child = this.firstChild;
    while (child && child.nodeType !== ELEMENT_NODE) child = child.nextSibling;
    return child;
  }

  get lastElementChild(): HtmlNode | null {
    let child = this.lastChild;
    while (child && child.nodeType !== ELEMENT_NODE) child = child.previousSibling;
    return child;
  }

  get nextElementSibling(): HtmlNode | null {
    let next = this.nextSibling;
    while (next && next.nodeType !== ELEMENT_NODE) next = next.nextSibling;
    return next;
  }

  get previousElementSibling(): HtmlNode | null {
    let prev = this.previousSibling;
    while (prev && prev.nodeType !== ELEMENT_NODE) prev = prev.previousSibling;
    return prev;
  }

  // --- text ---------------------------------------------------------------------------------

  get textContent(): string {
    if (this.nodeType === TEXT_NODE || this.nodeType === COMMENT_NODE) return this.data;
    if (!this.firstChild) return '';
    const first = this.firstChild;
    if (first === this.lastChild && first.nodeType === TEXT_NODE) return first.data;
    const parts: string[] = [];
    collectText(this, parts);
    return parts.join('');
  }

  set textContent(value: string | null) {
    if (this.nodeType === TEXT_NODE || this.nodeType === COMMENT_NODE) {
      this.data = value ?? '';
      return;
    }
    while (this.firstChild) this.firstChild.detach();
    if (value) this.append(new HtmlNode(TEXT_NODE, '#text', value, this.doc()));
  }

  // --- serialisation ----------------------------------------------------------------------

  get innerHTML(): string {
    return serializeChildren(this);
  }

  get outerHTML(): string {
    return serializeNode(this);
  }

  // --- attributes ---------------------------------------------------------------------------

  get attributes(): Array<{ name: string; value: string }> {
    const out: Array<{ name: string; value: string }> = [];
    const attrs = this.attrs;
    if (attrs) for (let i = 0; i < attrs.length; i += 2) out.push({ name: attrs[i], value: attrs[i + 1] });
    return out;
  }

  getAttribute(name: string): string | null {
    const attrs = this.attrs;
    if (attrs) for (let i = 0; i < attrs.length; i += 2) if (attrs[i] === name) return attrs[i + 1];
    return null;
  }

  hasAttribute(name: string): boolean {
    const attrs = this.attrs;
    if (attrs) for (let i = 0; i < attrs.length; i += 2) if (attrs[i] === name) return true;
    return false;
  }

  setAttribute(name: string, value: string): void {
    const attrs = this.attrs;
    if (!attrs) {
      this.attrs = [name, String(value)];
      return;
    }
    for (let i = 0; i < attrs.length; i += 2) {
      if (attrs[i] === name) {
        attrs[i + 1] = String(value);
        return;
      }
    }
    attrs.push(name, String(value));
  }

  removeAttribute(name: string): void {
    const attrs = this.attrs;
    if (!attrs) return;
    for (let i = 0; i < attrs.length; i += 2) {
      if (attrs[i] === name) {
        attrs.splice(i, 2);
        return;
      }
    }
  }

  // --- tree ---------------------------------------------------------------------------------

  /** Appends a node that has no parent (the parser's fast path). */
  append(node: HtmlNode): void {
    node.parentNode = this;
    const last = this.lastChild;
    if (last) {
      last.nextSibling = node;
      node.previousSibling = last;
    } else {
      this.firstChild = node;
    }
    this.lastChild = node;
  }

  /** Unlinks the node from its parent and siblings. */
  detach(): void {
    const parent = this.parentNode;
    if (!parent) return;
    const prev = this.previousSibling;
    const next = this.nextSibling;
    if (prev) prev.nextSibling = next;
    else parent.firstChild = next;
    if (next) next.previousSibling = prev;
    else parent.lastChild = prev;
    this.parentNode = null;
    this.previousSibling = null;
    this.nextSibling = null;
  }

  remove(): void {
    this.detach();
  }

  appendChild<T extends DomNode>(node: T): T {
    const child = node as unknown as HtmlNode;
    child.detach();
    this.append(child);
    return node;
  }

  insertBefore<T extends DomNode>(node: T, reference: DomNode | null): T {
    const child = node as unknown as HtmlNode;
    const ref = reference as HtmlNode | null;
    if (!ref) return this.appendChild(node);
    if (ref.parentNode !== this)
      throw new Error('insertBefore: the reference node is not a child of this node');
    if (child === ref) return node;
    child.detach();
    const prev = ref.previousSibling;
    child.parentNode = this;
    child.previousSibling = prev;
    child.nextSibling = ref;
    ref.previousSibling = child;
    if (prev) prev.nextSibling = child;
    else this.firstChild = child;
    return node;
  }

  removeChild<T extends DomNode>(node: T): T {
    const child = node as unknown as HtmlNode;
    if (child.parentNode !== this) throw new Error('removeChild: not a child of this node');
    child.detach();
    return node;
  }

  cloneNode(deep = false): HtmlNode {
    const copy = new HtmlNode(this.nodeType, this.localName, this.data, this.owner);
    if (this.attrs) copy.attrs = this.attrs.slice();
    if (deep)
      for (let child = this.firstChild; child; child = child.nextSibling) copy.append(child.cloneNode(true));
    return copy;
  }

  querySelector(selectors: string): HtmlNode | null {
    return query(this, selectors) as HtmlNode | null;
  }

  querySelectorAll(selectors: string): HtmlNode[] {
    return queryAll(this, selectors) as HtmlNode[];
  }

  // --- document -----------------------------------------------------------------------------

  private doc(): HtmlNode {
    return this.nodeType === DOCUMENT_NODE ? this : (this.owner as HtmlNode);
  }

  get documentElement(): HtmlNode {
    const root = this.doc().firstElementChild;
    if (!root) throw new Error('document has no root element');
    return root;
  }

  get head(): HtmlNode | null {
    return childElement(this.doc().firstElementChild, 'head');
  }

  get body(): HtmlNode | null {
    return childElement(this.doc().firstElementChild, 'body');
  }

  createElement(tagName: string): HtmlNode {
    return new HtmlNode(ELEMENT_NODE, tagName.toLowerCase(), '', this.doc());
  }

  createTextNode(data: string): HtmlNode {
    return new HtmlNode(TEXT_NODE, '#text', data, this.doc());
  }

  createComment(data: string): HtmlNode {
    return new HtmlNode(COMMENT_NODE, '#comment', data, this.doc());
  }
}

function childElement(parent: HtmlNode | null, name: string): HtmlNode | null {
  for (let child = parent?.firstChild ?? null; child; child = child.nextSibling)
    if (child.nodeType === ELEMENT_NODE && child.localName === name) return child;
  return null;
}

function collectText(node: HtmlNode, parts: string[]): void {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE) parts.push(child.data);
    else if (child.nodeType === ELEMENT_NODE) collectText(child, parts);
  }
}

/** The node as this module's class (every node of a parsed document is one). */
export function asHtmlNode(node: DomNode | DomElement): HtmlNode {
  return node as unknown as HtmlNode;
}
