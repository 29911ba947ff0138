import type { DomElement } from '../dom/dom.types';
import { query, queryAll } from '../dom/query.util';
import { visibleLength } from '../dom/visible-length.util';

const EMAIL_FIELD = 'input[type="email" i], input[name*="email" i], input[placeholder*="email" i]';
/** A sign-up block is a few sentences around the form; anything longer is the page itself. */
const MAX_SIGNUP_CHARS = 600;
/** A block holding these is the page (a sign-up page), not a sign-up box on it. */
const PAGE = 'h1, main, article';

/**
 * Removes newsletter and sign-up blocks: the largest short block around an e-mail field, with its
 * pitch ("Subscribe to our free daily newsletter…") and legal small print. Runs before form controls
 * are removed, since the e-mail field is what identifies the block.
 */
export function removeSignupBlocks(root: DomElement): void {
  const blocks = new Set<DomElement>();
  const holdsPage = (el: DomElement) =>
    /^(?:main|article|body)$/i.test(el.localName) || query(el, PAGE) !== null;
  for (const field of Array.from(queryAll(root, EMAIL_FIELD))) {
    let block: DomElement | null = field.parentElement;
    if (!block || block === root || holdsPage(block)) continue;
    for (let up = block.parentElement; up && up !== root; up = up.parentElement) {
      if (visibleLength(up, MAX_SIGNUP_CHARS) > MAX_SIGNUP_CHARS || holdsPage(up)) break;
      block = up;
    }
    if (visibleLength(block, MAX_SIGNUP_CHARS) <= MAX_SIGNUP_CHARS) blocks.add(block);
  }
  for (const block of blocks) block.remove();
}
