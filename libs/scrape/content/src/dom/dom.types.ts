/**
 * The slice of the DOM this library uses, typed structurally so that the library needs no browser
 * `lib.dom` typings. `HtmlNode` (html-node.ts) implements all of it.
 */
export interface DomNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly parentNode: DomParent | null;
  readonly ownerDocument: DomDocument | null;
  readonly firstChild: DomNode | null;
  readonly lastChild: DomNode | null;
  readonly nextSibling: DomNode | null;
  readonly previousSibling: DomNode | null;
  textContent: string | null;
  remove(): void;
  cloneNode(deep?: boolean): DomNode;
}

export interface DomParent extends DomNode {
  appendChild<T extends DomNode>(node: T): T;
  insertBefore<T extends DomNode>(node: T, reference: DomNode | null): T;
  removeChild<T extends DomNode>(node: T): T;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): ArrayLike<DomElement>;
}

export interface DomText extends DomNode {
  data: string;
}

export interface DomElement extends DomParent {
  readonly tagName: string;
  readonly localName: string;
  readonly parentElement: DomElement | null;
  readonly firstElementChild: DomElement | null;
  readonly nextElementSibling: DomElement | null;
  readonly previousElementSibling: DomElement | null;
  readonly lastElementChild: DomElement | null;
  innerHTML: string;
  readonly outerHTML: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  hasAttribute(name: string): boolean;
  readonly attributes: ArrayLike<{ readonly name: string; readonly value: string }>;
  cloneNode(deep?: boolean): DomElement;
}

export interface DomDocument extends DomParent {
  readonly documentElement: DomElement;
  readonly head: DomElement | null;
  readonly body: DomElement | null;
  createElement(tagName: string): DomElement;
  createTextNode(data: string): DomText;
}

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const COMMENT_NODE = 8;

export function isElement(node: DomNode | null | undefined): node is DomElement {
  return node?.nodeType === ELEMENT_NODE;
}

export function isText(node: DomNode | null | undefined): node is DomText {
  return node?.nodeType === TEXT_NODE;
}

/** Lower-case tag name of an element (the parser and `createElement` store it lower case). */
export function tagOf(element: DomElement): string {
  return element.localName;
}
