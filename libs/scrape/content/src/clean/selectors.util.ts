import type { DomElement, DomParent } from '../dom/dom.types';
import { queryAll } from '../dom/query.util';

/** Splits a selector list at top-level commas (not those inside `:is(a, b)` or `[x="a,b"]`). */
export function splitSelectorList(selectors: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const ch of selectors) {
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth = Math.max(0, depth - 1);
    else if (ch === ',' && depth === 0) {
      if (current.trim()) out.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/**
 * The user's include/exclude selectors, one per entry. A bare `iframe` also matches the
 * `div[data-original-tag="iframe"]` placeholders that browser engines leave for inlined frames.
 */
export function expandTagSelectors(selectors: readonly string[]): string[] {
  const out: string[] = [];
  for (const entry of selectors) {
    for (const selector of splitSelectorList(entry)) {
      out.push(selector);
      if (selector.toLowerCase() === 'iframe') out.push('div[data-original-tag="iframe"]');
    }
  }
  return out;
}

/** Elements matching any selector, in document order of first discovery; invalid selectors are skipped. */
export function selectAll(root: DomParent, selectors: readonly string[]): DomElement[] {
  const seen = new Set<DomElement>();
  const out: DomElement[] = [];
  for (const selector of selectors) {
    let matches: ArrayLike<DomElement>;
    try {
      matches = queryAll(root, selector);
    } catch {
      continue;
    }
    for (const el of Array.from(matches)) {
      if (!seen.has(el)) {
        seen.add(el);
        out.push(el);
      }
    }
  }
  return out;
}
