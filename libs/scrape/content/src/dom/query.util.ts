import { compile } from 'css-select';

import {
  type DomDocument,
  type DomElement,
  type DomNode,
  type DomParent,
  ELEMENT_NODE,
  TEXT_NODE,
} from './dom.types';

/**
 * CSS selector queries with compiled selectors kept for reuse. The DOM's own `querySelector(All)`
 * compiles its selector on every call; the content pipeline asks the same few selectors of
 * thousands of elements per page (every table cell, teaser, link), where compiling dominated.
 */

type Test = (element: DomElement) => boolean;

const childrenOf = (node: DomNode): DomNode[] => {
  const out: DomNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) out.push(child);
  return out;
};
const isTag = (node: DomNode): node is DomElement => node.nodeType === ELEMENT_NODE;
const textOf = (node: DomNode | DomNode[]): string =>
  Array.isArray(node)
    ? node.map(textOf).join('')
    : isTag(node)
      ? textOf(childrenOf(node))
      : node.nodeType === TEXT_NODE
        ? (node.textContent ?? '')
        : '';
const findAll = (test: Test, nodes: DomNode[]): DomElement[] => {
  const out: DomElement[] = [];
  for (const node of nodes) {
    if (!isTag(node)) continue;
    if (test(node)) out.push(node);
    out.push(...findAll(test, childrenOf(node)));
  }
  return out;
};
const findOne = (test: Test, nodes: DomNode[]): DomElement | null => {
  for (const node of nodes) {
    if (!isTag(node)) continue;
    if (test(node)) return node;
    const found = findOne(test, childrenOf(node));
    if (found) return found;
  }
  return null;
};

/** css-select's view of our DOM, through public DOM members only. */
const adapter = {
  isTag,
  existsOne: (test: Test, nodes: DomNode[]): boolean => findOne(test, nodes) !== null,
  getAttributeValue: (element: DomElement, name: string) => element.getAttribute(name) ?? undefined,
  getChildren: childrenOf,
  getName: (element: DomElement) => element.localName,
  getParent: (node: DomNode) => node.parentNode,
  getSiblings: (node: DomNode) => (node.parentNode ? childrenOf(node.parentNode) : [node]),
  getText: textOf,
  hasAttrib: (element: DomElement, name: string) => element.hasAttribute(name),
  removeSubsets: (nodes: DomNode[]) =>
    nodes.filter((node, index) => {
      if (nodes.indexOf(node) !== index) return false;
      for (let parent = node.parentNode; parent; parent = parent.parentNode)
        if (nodes.includes(parent)) return false;
      return true;
    }),
  findAll,
  findOne,
};

const MAX_CACHED = 512;
const compiled = new Map<string, Test>();

/** The selector's test function, compiled once (a bounded cache: user selectors come and go). Throws on invalid selectors. */
function testFor(selector: string): Test {
  let test = compiled.get(selector);
  if (!test) {
    test = compile<DomNode, DomElement>(selector, { adapter, xmlMode: false }) as Test;
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(selector, test);
  }
  return test;
}

const startOf = (root: DomParent): DomElement | null =>
  isTag(root) ? root.firstElementChild : (root as DomDocument).documentElement;

/** Descendants of `root` (a document: every element) matching `selector`, in document order. */
export function queryAll(root: DomParent, selector: string): DomElement[] {
  const test = testFor(selector);
  const out: DomElement[] = [];
  const walk = (first: DomElement | null): void => {
    for (let element = first; element; element = element.nextElementSibling) {
      if (test(element)) out.push(element);
      // Like the DOM's querySelectorAll: a template's content is not part of the document.
      if (element.localName !== 'template') walk(element.firstElementChild);
    }
  };
  walk(startOf(root));
  return out;
}

/** The first descendant of `root` matching `selector`, or null. */
export function query(root: DomParent, selector: string): DomElement | null {
  const test = testFor(selector);
  const find = (first: DomElement | null): DomElement | null => {
    for (let element = first; element; element = element.nextElementSibling) {
      if (test(element)) return element;
      if (element.localName !== 'template') {
        const found = find(element.firstElementChild);
        if (found) return found;
      }
    }
    return null;
  };
  return find(startOf(root));
}

/** Whether `element` matches `selector`. */
export function matchesSelector(element: DomElement, selector: string): boolean {
  return testFor(selector)(element);
}

/** Whether `node` lies under `ancestor` (not `ancestor` itself). */
export function contains(ancestor: DomElement, node: DomElement): boolean {
  for (let p = node.parentElement; p; p = p.parentElement) if (p === ancestor) return true;
  return false;
}
