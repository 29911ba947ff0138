import type { DomElement, DomNode } from '../dom/dom.types';
import { COMMENT_NODE, isElement, isText, tagOf } from '../dom/dom.types';
import { queryAll } from '../dom/query.util';

/** Words outside links that make a link-dense paragraph a sentence ("For details, see A, B and C."). */
const SENTENCE_WORDS = 4;
/** An intro this much in bold is a label. */
const LABEL_SHARE = 0.5;

function wordsOutsideLinks(node: DomNode): number {
  let words = 0;
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (isText(child)) words += (child.data.match(/[\p{L}\p{N}]+/gu) ?? []).length;
    else if (isElement(child) && !(tagOf(child) === 'a' && child.hasAttribute('href')))
      words += wordsOutsideLinks(child);
  }
  return words;
}

/** Tags whose text is a label or a title rather than a sentence. */
const LABEL_TAGS = new Set(['b', 'strong', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dt', 'label']);

/** Characters of an element's text inside bold or heading markup. */
function labelChars(element: DomElement): number {
  if (LABEL_TAGS.has(tagOf(element))) return (element.textContent ?? '').trim().length;
  let n = 0;
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) n += labelChars(child);
  return n;
}

/**
 * Whether the text right before a node among its siblings (whitespace and comments skipped) is a
 * sentence introducing it ("…see the following documentation:"), not a bold label ("Related posts:").
 */
function introducedBySentence(node: DomNode): boolean {
  for (let prev = node.previousSibling; prev; prev = prev.previousSibling) {
    if (prev.nodeType === COMMENT_NODE) continue;
    const text = (prev.textContent ?? '').trim();
    if (!text) continue;
    if (!text.endsWith(':')) return false;
    return !isElement(prev) || labelChars(prev) < LABEL_SHARE * text.length;
  }
  return false;
}

/** Markup that flows inside a line of text. */
const INLINE_TAGS = new Set([
  'a',
  'abbr',
  'b',
  'br',
  'cite',
  'code',
  'em',
  'i',
  'img',
  'mark',
  'q',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
]);

/** A `<div>` used as a paragraph: inline markup only, ending like a sentence. */
function isParagraphDiv(element: DomElement): boolean {
  for (let child = element.firstElementChild; child; child = child.nextElementSibling)
    if (!INLINE_TAGS.has(tagOf(child))) return false;
  return /[.!?][)"'”’]?$/.test((element.textContent ?? '').trim());
}

/**
 * Link-dense blocks that are part of the text, not navigation: a paragraph (or a `<div>` set as
 * one) whose links sit in a sentence, and a list of links that a sentence introduces ("see the
 * following pages:").
 */
export function isLinkProse(element: DomElement): boolean {
  const tag = tagOf(element);
  if (tag === 'p' || (tag === 'div' && isParagraphDiv(element)))
    return wordsOutsideLinks(element) >= SENTENCE_WORDS;
  if (tag === 'ul' || tag === 'ol') return introducedBySentence(element);
  return false;
}

/** Whether a link-dense block holds an introduced list (a section with a heading, its intro and its list). */
export function holdsLinkProse(element: DomElement): boolean {
  return Array.from(queryAll(element, 'ul, ol')).some(isLinkProse);
}
