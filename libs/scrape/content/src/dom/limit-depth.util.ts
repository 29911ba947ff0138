import type { DomElement } from './dom.types';
import { isElement } from './dom.types';

/** The depth at which browsers' HTML parsers stop nesting (Blink: 512). */
export const MAX_DOM_DEPTH = 512;

/**
 * Flattens elements nested deeper than `maxDepth` into their ancestor at that depth, as browsers'
 * parsers do, so that the recursive passes over the tree stay within the call stack. Iterative and
 * linear: an element past the limit is replaced by its children, which are then looked at in turn.
 */
export function limitDepth(root: DomElement, maxDepth = MAX_DOM_DEPTH): void {
  const stack: Array<[DomElement, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [element, depth] = stack.pop() as [DomElement, number];
    let child = element.firstElementChild;
    while (child) {
      if (depth + 1 < maxDepth) {
        stack.push([child, depth + 1]);
        child = child.nextElementSibling;
        continue;
      }
      let hoisted: DomElement | null = null;
      while (child.firstChild) {
        const node = child.firstChild;
        element.insertBefore(node, child);
        if (!hoisted && isElement(node)) hoisted = node;
      }
      const next = child.nextElementSibling;
      child.remove();
      child = hoisted ?? next;
    }
  }
}
