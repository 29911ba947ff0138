import type { DomElement } from '../dom/dom.types';
import { isElement } from '../dom/dom.types';

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important)?\s*(?:;|$)/i;
const HIDDEN_CLASS =
  /(?:^|[-_])visibility[-_]hidden$|^(?:sr-only|screen-reader-text|screen-reader-only|visually-hidden|visuallyhidden|a11y-hidden|hide-text|is-hidden|u-hidden|hidden|d-none|hide|invisible|offscreen)$/;
// A responsive class that shows the element again at some breakpoint (`hidden md:block`, `d-none d-lg-flex`).
const SHOWN_AGAIN =
  /^(?:[a-z0-9]+:(?:block|flex|grid|inline|inline-block|inline-flex|table|contents)|d-[a-z]{2,3}-(?:block|flex|grid|inline|inline-block|table))$/;

function isHidden(element: DomElement): boolean {
  // A closed tab panel (a code sample in another language, a product's specifications) is content
  // one click away, not a hidden widget.
  if (element.getAttribute('role') === 'tabpanel') return false;
  if (element.hasAttribute('hidden')) return element.getAttribute('hidden') !== 'until-found';
  if (element.getAttribute('aria-hidden') === 'true') return true;
  const style = element.getAttribute('style');
  if (style && HIDDEN_STYLE.test(style)) return true;
  const cls = element.getAttribute('class');
  if (!cls) return false;
  const tokens = cls.toLowerCase().split(/\s+/);
  return tokens.some((t) => HIDDEN_CLASS.test(t)) && !tokens.some((t) => SHOWN_AGAIN.test(t));
}

function textLength(element: DomElement): number {
  return (element.textContent ?? '').replace(/\s+/g, '').length;
}

/**
 * Removes elements a reader never sees (hidden attribute, aria-hidden, inline display:none, screen-reader
 * only classes); tab panels stay, hidden or not. An element holding more than half of the page's text is kept: that is a page whose
 * content is revealed by script, not a hidden widget.
 */
export function removeHidden(root: DomElement): void {
  const hidden: DomElement[] = [];
  const walk = (element: DomElement): void => {
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (!isElement(child)) continue;
      if (isHidden(child)) hidden.push(child);
      else walk(child);
    }
  };
  walk(root);
  if (hidden.length === 0) return;
  const total = textLength(root);
  for (const element of hidden) {
    if (textLength(element) * 2 <= total) element.remove();
  }
}
