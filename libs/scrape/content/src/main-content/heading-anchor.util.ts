import type { DomElement } from '../dom/dom.types';
import { query } from '../dom/query.util';

/** Slugs with fewer words than this could be a chrome name ("comments", "related-posts"). */
const MIN_SLUG_WORDS = 3;

function slugWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Whether an id is the anchor slug of the element's own heading (`<section id="respond-to-review-comments">`
 * around "Respond to review comments", as docs generators write them): a link target named after the
 * text, not a name for what the element is.
 */
export function isHeadingAnchorId(element: DomElement, id: string): boolean {
  const idWords = slugWords(id);
  if (idWords.length < MIN_SLUG_WORDS) return false;
  const heading = query(element, 'h1, h2, h3, h4, h5, h6');
  if (!heading) return false;
  const slug = slugWords(heading.textContent ?? '').join('-');
  const joined = idWords.join('-');
  return slug.length > 0 && (joined === slug || joined.endsWith(`-${slug}`));
}
