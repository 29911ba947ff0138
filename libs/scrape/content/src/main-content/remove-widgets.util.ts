import type { DomElement } from '../dom/dom.types';
import { isElement, tagOf } from '../dom/dom.types';
import { visibleLength } from '../dom/visible-length.util';

const CONTROL_TAGS = new Set([
  'button',
  'select',
  'input',
  'textarea',
  'label',
  'output',
  'progress',
  'meter',
]);
const CONTROL_ROLES = new Set([
  'button',
  'switch',
  'slider',
  'spinbutton',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'option',
]);
const FORM_TEXT_LIMIT = 300;
// Longer "buttons" are clickable cards (a teaser with role=button), which are content.
const CONTROL_TEXT_LIMIT = 80;

/** A disclosure toggle (accordion question, tab label) names the content it reveals. */
function isDisclosure(element: DomElement): boolean {
  return (
    element.hasAttribute('aria-expanded') ||
    element.hasAttribute('aria-controls') ||
    element.getAttribute('role') === 'tab'
  );
}

/** An anchor that drives the page's script rather than linking anywhere (`href="#"`, `javascript:`). */
function isScriptAnchor(element: DomElement): boolean {
  const href = (element.getAttribute('href') ?? '').trim();
  return (href === '#' || href === '' || /^javascript:/i.test(href)) && visibleLength(element, 40) < 40;
}

/**
 * Removes interactive widgets that are not content: buttons and form controls, small forms (search,
 * add to cart, newsletter), and script-driven anchors ("Read more", "Clear").
 */
export function removeWidgets(root: DomElement): void {
  const drop: DomElement[] = [];
  const walk = (element: DomElement): void => {
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (!isElement(child)) continue;
      const tag = tagOf(child);
      const role = child.getAttribute('role');
      if (
        ((CONTROL_TAGS.has(tag) || (role !== null && CONTROL_ROLES.has(role))) &&
          !isDisclosure(child) &&
          (tag === 'select' || visibleLength(child, CONTROL_TEXT_LIMIT) < CONTROL_TEXT_LIMIT)) ||
        (tag === 'form' && visibleLength(child, FORM_TEXT_LIMIT) < FORM_TEXT_LIMIT) ||
        (tag === 'a' && isScriptAnchor(child))
      ) {
        drop.push(child);
      } else {
        walk(child);
      }
    }
  };
  walk(root);
  for (const element of drop) element.remove();
}
