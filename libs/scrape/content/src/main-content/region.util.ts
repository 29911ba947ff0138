import type { DomElement } from '../dom/dom.types';
import type { StatsMap } from './content-stats.util';

/** Whether the element, or an ancestor below `root`, is flagged as chrome. */
export function isFlagged(element: DomElement, root: DomElement, stats: StatsMap): boolean {
  for (let e: DomElement | null = element; e && e !== root; e = e.parentElement)
    if (stats.get(e)?.kind) return true;
  return false;
}

export function commonAncestor(a: DomElement, b: DomElement): DomElement | undefined {
  const chain = new Set<DomElement>();
  for (let e: DomElement | null = a; e; e = e.parentElement) chain.add(e);
  for (let e: DomElement | null = b; e; e = e.parentElement) if (chain.has(e)) return e;
  return undefined;
}

/** Whether `a` comes before `b` in document order (neither containing the other). */
export function precedes(a: DomElement, b: DomElement): boolean {
  const ancestor = commonAncestor(a, b);
  if (!ancestor || ancestor === a || ancestor === b) return false;
  let sa: DomElement = a;
  while (sa.parentElement && sa.parentElement !== ancestor) sa = sa.parentElement;
  let sb: DomElement = b;
  while (sb.parentElement && sb.parentElement !== ancestor) sb = sb.parentElement;
  for (let e = sa.nextElementSibling; e; e = e.nextElementSibling) if (e === sb) return true;
  return false;
}
