import type { DomElement } from '../dom/dom.types';
import type { ElementStats, StatsMap } from './content-stats.util';

/**
 * The container descends while one child holds this share of the page's good text; each step may
 * shed the rest, so the share bounds what the container can lose.
 */
const COVERAGE = 0.8;
/** Widening to the title heading may add at most this share of the container's good text. */
const TITLE_WIDENING = 0.25;
/** A link block holding half the container's text is the page's list, not navigation… */
const LIST_SHARE = 0.5;
/** …unless the container has this much prose besides it. */
const PROSE_ELSEWHERE = 400;

/** Deepest element holding at least `COVERAGE` of the page's good text (outside chrome and links). */
function coverageContainer(root: DomElement, stats: StatsMap): DomElement {
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

function isFlagged(element: DomElement, root: DomElement, stats: StatsMap): boolean {
  for (let e: DomElement | null = element; e && e !== root; e = e.parentElement) if (stats.get(e)?.kind) return true;
  return false;
}

/** The page's title heading: its first `<h1>` outside chrome. */
function titleHeading(root: DomElement, stats: StatsMap): DomElement | undefined {
  return Array.from(root.querySelectorAll('h1')).find((h) => !isFlagged(h, root, stats));
}

function commonAncestor(a: DomElement, b: DomElement): DomElement | undefined {
  const chain = new Set<DomElement>();
  for (let e: DomElement | null = a; e; e = e.parentElement) chain.add(e);
  for (let e: DomElement | null = b; e; e = e.parentElement) if (chain.has(e)) return e;
  return undefined;
}

/**
 * The main content container: the coverage container, widened to take in the page's title heading
 * (and the lead that sits with it) when that costs little extra text.
 */
export function selectContainer(root: DomElement, stats: StatsMap): DomElement {
  const container = coverageContainer(root, stats);
  const title = titleHeading(root, stats);
  const widened = title ? commonAncestor(container, title) : undefined;
  if (!widened || widened === container) return container;
  const extra = (stats.get(widened)?.good ?? 0) - (stats.get(container)?.good ?? 0);
  return extra <= TITLE_WIDENING * (stats.get(container)?.good ?? 0) ? widened : container;
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
