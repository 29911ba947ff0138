import type { DomElement } from '../dom/dom.types';
import { isElement } from '../dom/dom.types';

const CLASS_LANGUAGE = /(?:^|\s)(?:language|lang|highlight-source|highlight|brush:?)-?\s*([a-z0-9_+#.-]+)/i;
const NOT_A_LANGUAGE = new Set([
  'none',
  'plaintext',
  'text',
  'nohighlight',
  'no-highlight',
  'undefined',
  'null',
]);

function languageOf(element: DomElement): string | undefined {
  const attr = element.getAttribute('data-lang') ?? element.getAttribute('data-language');
  const found = attr?.trim() || CLASS_LANGUAGE.exec(element.getAttribute('class') ?? '')?.[1];
  if (!found) return undefined;
  const language = found.toLowerCase();
  return NOT_A_LANGUAGE.has(language) ? undefined : language;
}

/** Language hint of a code block: `class="language-x"` (or lang-x, highlight-x, data-lang) on the
 * block, its ancestors' wrapper, or any element inside it. */
export function codeLanguage(pre: DomElement): string | undefined {
  const own = languageOf(pre) ?? (pre.parentElement ? languageOf(pre.parentElement) : undefined);
  if (own) return own;
  const stack: DomElement[] = [];
  for (let c = pre.firstElementChild; c; c = c.nextElementSibling) stack.push(c);
  while (stack.length > 0) {
    const element = stack.shift() as DomElement;
    const found = languageOf(element);
    if (found) return found;
    for (let c = element.firstChild; c; c = c.nextSibling) if (isElement(c)) stack.push(c);
  }
  return undefined;
}
