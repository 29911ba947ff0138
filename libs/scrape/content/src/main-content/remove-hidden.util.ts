import type { DomElement } from '../dom/dom.types';
import { isElement } from '../dom/dom.types';
import { queryAll } from '../dom/query.util';

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important)?\s*(?:;|$)/i;
const HIDDEN_CLASS =
  /(?:^|[-_])visibility[-_]hidden$|^(?:sr-only|screen-reader-text|screen-reader-only|visually-hidden|visuallyhidden|a11y-hidden|hide-text|is-hidden|u-hidden|hidden|d-none|hide|invisible|offscreen)$/;
// A responsive class that shows the element again at some breakpoint (`hidden md:block`, `d-none d-lg-flex`).
const SHOWN_AGAIN =
  /^(?:[a-z0-9]+:(?:block|flex|grid|inline|inline-block|inline-flex|table|contents)|d-[a-z]{2,3}-(?:block|flex|grid|inline|inline-block|table))$/;

/**
 * Class names of the panels of tabs and accordions (`tab-pane`, `accordion-body`, `faq-answer`): a
 * closed panel is content one click away.
 */
const DISCLOSURE_PANEL =
  /^(?:tab-pane|tab-panel|tabpanel|tabs-panel|tab-content|tabs-content|faq-answer|answer|accordion-content|panel-collapse)$|(?:^|[-_])(?:accordion|faq|collapsible)[-_]+(?:content|body|panel|answer|collapse|text|inner)$/;

function isDisclosurePanel(element: DomElement, controlled: ReadonlySet<string>): boolean {
  if (element.getAttribute('role') === 'tabpanel') return true;
  const id = element.getAttribute('id');
  if (id && controlled.has(id)) return true;
  const cls = element.getAttribute('class');
  return (
    cls !== null &&
    cls
      .toLowerCase()
      .split(/\s+/)
      .some((t) => DISCLOSURE_PANEL.test(t))
  );
}

function isHidden(element: DomElement, controlled: ReadonlySet<string>): boolean {
  // A closed tab or accordion panel (a code sample in another language, a product's specifications,
  // the answer to an FAQ) is content one click away, not a hidden widget.
  if (isDisclosurePanel(element, controlled)) return false;
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
 * only classes); tab and accordion panels stay, hidden or not. An element holding more than half of the page's text is kept: that is a page whose
 * content is revealed by script, not a hidden widget.
 */
export function removeHidden(root: DomElement): void {
  // Panels that a control opens (`aria-controls` names them) are content one click away.
  const controlled = new Set<string>();
  for (const control of Array.from(queryAll(root, '[aria-controls]')))
    for (const id of (control.getAttribute('aria-controls') ?? '').split(/\s+/)) if (id) controlled.add(id);
  const hidden: DomElement[] = [];
  const walk = (element: DomElement): void => {
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (!isElement(child)) continue;
      if (isHidden(child, controlled)) hidden.push(child);
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
