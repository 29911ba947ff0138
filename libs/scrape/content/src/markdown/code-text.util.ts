import type { DomNode } from '../dom/dom.types';
import { isElement, isText, tagOf } from '../dom/dom.types';

const LINE_ELEMENTS = new Set(['div', 'p', 'li', 'tr', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table']);
const SKIPPED = new Set(['script', 'style', 'template', 'button']);
// Highlighters that render each line as a block-level span and rely on CSS for the line breaks.
const LINE_CLASS = /(?:^|\s)(?:line|code-line|token-line|ec-line|cm-line|highlight-line|view-line)(?:\s|$)/;

/** Text of a code block as it displays: `<br>` and line-level wrappers (one div per line) end lines. */
export function codeText(root: DomNode): string {
  const out: string[] = [];
  const walk = (node: DomNode): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (isText(child)) out.push(child.data);
      else if (isElement(child)) {
        const tag = tagOf(child);
        if (tag === 'br') out.push('\n');
        else if (!SKIPPED.has(tag)) {
          walk(child);
          const lineLike = LINE_ELEMENTS.has(tag) || LINE_CLASS.test(child.getAttribute('class') ?? '');
          if (lineLike && !(out[out.length - 1] ?? '').endsWith('\n')) out.push('\n');
        }
      }
    }
  };
  walk(root);
  return out
    .join('')
    .replace(/\r\n?/g, '\n')
    .replace(/\u00a0/g, ' ')
    .replace(/^\n+|\s+$/g, '');
}
