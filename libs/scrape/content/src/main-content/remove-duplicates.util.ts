import type { DomElement } from '../dom/dom.types';
import { isElement, tagOf } from '../dom/dom.types';

const TEXT_BLOCKS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'li',
  'dd',
  'dt',
  'figcaption',
  'blockquote',
  'div',
  'span',
]);
const BLOCK_TAGS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'li',
  'ul',
  'ol',
  'dl',
  'dd',
  'dt',
  'div',
  'section',
  'article',
  'table',
  'pre',
  'blockquote',
  'figure',
  'figcaption',
  'header',
  'footer',
  'aside',
  'nav',
  'form',
]);
const MIN_CHARS = 12;
const LONG_CHARS = 100;

function hasBlockChild(element: DomElement): boolean {
  for (let c = element.firstElementChild; c; c = c.nextElementSibling)
    if (BLOCK_TAGS.has(tagOf(c))) return true;
  return false;
}

/**
 * Removes repeated copies of text blocks: sticky headers that restate the title and price, mobile and
 * desktop copies of a paragraph. Short lines that recur three times or more are left alone, and so is
 * what definition descriptions hold.
 */
export function removeDuplicateBlocks(root: DomElement): void {
  const seen = new Map<string, DomElement[]>();
  const walk = (element: DomElement): void => {
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (!isElement(child)) continue;
      const tag = tagOf(child);
      if (tag === 'pre' || tag === 'table' || tag === 'code') continue;
      // API entries (definition lists) repeat their notes by design: "Changed in version 3.6: …".
      if (tag === 'dd') continue;
      if (TEXT_BLOCKS.has(tag) && !hasBlockChild(child)) {
        const key = (child.textContent ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
        if (key.length < MIN_CHARS) continue;
        const copies = seen.get(key);
        if (copies) copies.push(child);
        else seen.set(key, [child]);
      } else {
        walk(child);
      }
    }
  };
  walk(root);
  // A short line repeated in every entry of a list (fine print, "In stock") is that list's content;
  // a repeated paragraph is a copy (hidden mobile variants, cloned slides).
  for (const [key, copies] of seen) {
    if (copies.length === 2 || key.length >= LONG_CHARS) for (const copy of copies.slice(1)) copy.remove();
  }
}
