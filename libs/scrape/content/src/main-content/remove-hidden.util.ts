import type { DomElement } from '../dom/dom.types';
import { isElement } from '../dom/dom.types';
import { memoizeByString } from '../dom/string-memo.util';
import { visibleLength } from '../dom/visible-length.util';

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

const PANEL = 1;
const HIDDEN = 2;

/** What a class attribute says: a disclosure panel's class, and hidden (and not shown again at a breakpoint). */
const classFlags = memoizeByString((cls: string): number => {
  const tokens = cls.toLowerCase().split(/\s+/);
  let flags = 0;
  if (tokens.some((t) => DISCLOSURE_PANEL.test(t))) flags |= PANEL;
  if (tokens.some((t) => HIDDEN_CLASS.test(t)) && !tokens.some((t) => SHOWN_AGAIN.test(t))) flags |= HIDDEN;
  return flags;
});

function isDisclosurePanel(
  element: DomElement,
  cls: string | null,
  controlled: ReadonlySet<string>,
): boolean {
  if (cls !== null && classFlags(cls) & PANEL) return true;
  if (element.getAttribute('role') === 'tabpanel') return true;
  const id = element.getAttribute('id');
  return id !== null && controlled.has(id);
}

function isHidden(element: DomElement, controlled: ReadonlySet<string>): boolean {
  const cls = element.getAttribute('class');
  // A closed tab or accordion panel (a code sample in another language, a product's specifications,
  // the answer to an FAQ) is content one click away, not a hidden widget.
  if (isDisclosurePanel(element, cls, controlled)) return false;
  if (element.hasAttribute('hidden')) return element.getAttribute('hidden') !== 'until-found';
  if (element.getAttribute('aria-hidden') === 'true') return true;
  const style = element.getAttribute('style');
  if (style && HIDDEN_STYLE.test(style)) return true;
  return cls !== null && (classFlags(cls) & HIDDEN) !== 0;
}

/** Ids that a control opens (`aria-controls`). */
function controlledIds(root: DomElement): Set<string> {
  const ids = new Set<string>();
  const walk = (element: DomElement): void => {
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      const controls = child.getAttribute('aria-controls');
      if (controls) for (const id of controls.split(/\s+/)) if (id) ids.add(id);
      walk(child);
    }
  };
  walk(root);
  return ids;
}

/**
 * Removes elements a reader never sees (hidden attribute, aria-hidden, inline display:none, screen-reader
 * only classes); tab and accordion panels stay, hidden or not. An element holding more than half of the page's text is kept: that is a page whose
 * content is revealed by script, not a hidden widget.
 */
export function removeHidden(root: DomElement): void {
  // Panels that a control opens (`aria-controls` names them) are content one click away.
  const controlled = controlledIds(root);
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
  const total = visibleLength(root);
  for (const element of hidden) {
    if (visibleLength(element) * 2 <= total) element.remove();
  }
}
