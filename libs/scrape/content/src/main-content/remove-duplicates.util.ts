import type { DomElement } from '../dom/dom.types';
import { isElement, isText, tagOf } from '../dom/dom.types';
import { contains, query } from '../dom/query.util';
import { collapsedSpace, nonSpaceLength } from '../dom/visible-length.util';

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
  removeRepeatedSections(root);
  const seen = new Map<string, DomElement[]>();
  const walk = (element: DomElement): void => {
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (!isElement(child)) continue;
      const tag = tagOf(child);
      if (tag === 'pre' || tag === 'table' || tag === 'code') continue;
      // API entries (definition lists) repeat their notes by design: "Changed in version 3.6: …".
      if (tag === 'dd') continue;
      if (TEXT_BLOCKS.has(tag) && !hasBlockChild(child)) {
        const key = collapsedText(child.textContent);
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

/** A section of blocks with this many visible characters that appears again whole is a copy. */
const SECTION_CHARS = 160;
/** Never copies: code, tables and quotes repeat on purpose, and so do the entries of two lists. */
const NOT_SECTIONS = new Set(['pre', 'table', 'blockquote', 'li', 'dd', 'dt']);

/**
 * Removes later copies of whole sections: the desktop, tablet and mobile variants of a part of the
 * page that site builders put in the document side by side (only one is shown), and cloned slides of
 * a marquee. Their lines are short and recur three times or more, so the line pass alone keeps them.
 * A copy is a block holding other blocks, and no code or table, whose text equals an earlier block's.
 *
 * Linear in the page: the non-space characters of every element are counted in one pass (copies have
 * equal counts), and only sections whose count another section shares have their text compared. A
 * wrapper whose parent has the same count is the same section and is not a candidate of its own.
 */
function removeRepeatedSections(root: DomElement): void {
  const counts = new Map<DomElement, number>();
  const sections: DomElement[] = [];
  const visit = (element: DomElement): number => {
    let count = 0;
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (isElement(child)) count += visit(child);
      else if (isText(child)) count += nonSpaceLength(child.textContent ?? '');
    }
    counts.set(element, count);
    return count;
  };
  const collect = (element: DomElement): void => {
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      const count = counts.get(child) ?? 0;
      if (count < SECTION_CHARS) continue;
      if (!NOT_SECTIONS.has(tagOf(child)) && hasBlockChild(child) && counts.get(element) !== count)
        sections.push(child);
      collect(child);
    }
  };
  visit(root);
  collect(root);
  const byCount = new Map<number, DomElement[]>();
  for (const section of sections) {
    const count = counts.get(section) ?? 0;
    const peers = byCount.get(count);
    if (peers) peers.push(section);
    else byCount.set(count, [section]);
  }
  for (const peers of byCount.values()) {
    if (peers.length < 2) continue;
    const first = new Set<string>();
    for (const section of peers) {
      // Documentation shows the same example twice on purpose.
      // A section inside a copy removed before it is no longer under `root`.
      if (!contains(root, section) || query(section, 'pre, code, table') !== null) continue;
      const key = collapsedText(section.textContent);
      if (first.has(key)) section.remove();
      else first.add(key);
    }
  }
}

/** Text as blocks are compared: whitespace runs collapsed, trimmed, lower case. */
export function collapsedText(text: string | null): string {
  return collapsedSpace(text).toLowerCase();
}
