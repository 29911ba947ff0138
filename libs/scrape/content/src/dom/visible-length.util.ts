import type { DomNode } from './dom.types';
import { ELEMENT_NODE, TEXT_NODE } from './dom.types';

/** Whether a UTF-16 code unit is whitespace as JavaScript's `\s` has it. */
export function isJsWhitespace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return (
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Characters of a string that are not whitespace (`s.replace(/\s+/g, '').length`, without the copy). */
export function nonSpaceLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (!isJsWhitespace(text.charCodeAt(i))) n++;
  return n;
}

/** Text as it reads: whitespace runs collapsed to one space, trimmed. */
export function collapsedSpace(text: string | null): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * Non-whitespace characters of a node's text (`textContent` without whitespace), counted without
 * building the text. `limit` stops counting once it is exceeded (callers comparing to a bound).
 */
export function visibleLength(node: DomNode, limit = Infinity): number {
  let total = 0;
  const visit = (parent: DomNode): boolean => {
    for (let child = parent.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) {
        total += nonSpaceLength((child as unknown as { data: string }).data);
        if (total > limit) return false;
      } else if (child.nodeType === ELEMENT_NODE && !visit(child)) return false;
    }
    return true;
  };
  if (node.nodeType === TEXT_NODE) return nonSpaceLength(node.textContent ?? '');
  visit(node);
  return total;
}
