import type { DomElement } from '../dom/dom.types';
import type { ElementStats, StatsMap } from './content-stats.util';

/**
 * The container descends while one child holds this share of the page's good text; each step may
 * shed the rest, so the share bounds what the container can lose.
 */
const COVERAGE = 0.8;
/** A link block holding half the container's text is the page's list, not navigation… */
const LIST_SHARE = 0.5;
/** …unless the container has this much prose besides it. */
const PROSE_ELSEWHERE = 400;

/** Deepest element holding at least `COVERAGE` of the page's good text (outside chrome and links). */
export function selectContainer(root: DomElement, stats: StatsMap): DomElement {
  const total = stats.get(root)?.good ?? 0;
  let current = root;
  for (;;) {
    let next: DomElement | undefined;
    for (let child = current.firstElementChild; child && !next; child = child.nextElementSibling) {
      const s = stats.get(child);
      if (s && !s.kind && s.good >= COVERAGE * total) next = child;
    }
    if (!next) return current;
    current = next;
  }
}

function isLinkBlock(s: ElementStats, container: ElementStats): boolean {
  if (s.links < 3 || s.link <= 0.6 * s.text || s.good >= 200) return false;
  return s.text < LIST_SHARE * container.text || container.good - s.good >= PROSE_ELSEWHERE;
}

/** Elements inside the container to remove: flagged chrome and navigation-like link blocks. */
export function prunableElements(container: DomElement, stats: StatsMap): DomElement[] {
  const own = stats.get(container);
  const out: DomElement[] = [];
  if (!own) return out;
  const visit = (element: DomElement): void => {
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      const s = stats.get(child);
      if (!s) continue;
      if (s.kind || isLinkBlock(s, own)) out.push(child);
      else visit(child);
    }
  };
  visit(container);
  return out;
}
