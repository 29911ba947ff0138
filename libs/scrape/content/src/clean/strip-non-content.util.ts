import type { DomElement, DomNode } from '../dom/dom.types';
import { COMMENT_NODE, isElement, tagOf } from '../dom/dom.types';

const ALWAYS_DROPPED = new Set(['script', 'style', 'meta', 'head', 'link', 'template', 'base', 'title']);

function visibleTextLength(node: DomNode): number {
  let total = 0;
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (isElement(child)) {
      if (!ALWAYS_DROPPED.has(tagOf(child))) total += visibleTextLength(child);
    } else if (child.nodeType === 3) {
      total += (child.textContent ?? '').trim().length;
    }
  }
  return total;
}

function unwrap(element: DomElement): void {
  const parent = element.parentNode;
  if (!parent) return;
  while (element.firstChild) parent.insertBefore(element.firstChild, element);
  element.remove();
}

/**
 * Drops script, style, noscript, meta, head (and link, template, comments). One exception: a
 * `<noscript>` holding most of the page's text is the server-rendered view of a JavaScript app (the
 * crawler view of Discourse or Flarum forums); its contents are kept in place of the tag, since a
 * static fetch has nothing else to show.
 */
export function stripNonContent(root: DomElement): void {
  const drop: DomNode[] = [];
  const noscripts: DomElement[] = [];
  const walk = (node: DomNode): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === COMMENT_NODE) drop.push(child);
      else if (isElement(child)) {
        const tag = tagOf(child);
        if (ALWAYS_DROPPED.has(tag)) drop.push(child);
        else if (tag === 'noscript') noscripts.push(child);
        else walk(child);
      }
    }
  };
  walk(root);
  for (const node of drop) node.remove();
  if (noscripts.length === 0) return;
  const total = visibleTextLength(root);
  for (const noscript of noscripts) {
    const own = visibleTextLength(noscript);
    if (own >= 200 && own * 2 >= total) {
      stripNonContent(noscript);
      unwrap(noscript);
    } else {
      noscript.remove();
    }
  }
}
