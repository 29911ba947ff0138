import type { DomElement, DomNode } from '../dom/dom.types';
import { isElement, isText, tagOf } from '../dom/dom.types';
import type { ChromeSignal } from './boilerplate-signals';
import { chromeSignalOf } from './boilerplate-signals';

export interface ElementStats {
  tag: string;
  /** Visible non-whitespace characters in the subtree. */
  text: number;
  /** Characters inside `<a href>`. */
  link: number;
  /** Number of links. */
  links: number;
  /** Characters outside links and outside descendant chrome (this element's own flag ignored). */
  good: number;
  /** Characters of the element's own text nodes outside links. */
  ownGood: number;
  /** Longest text of a single link inside. */
  maxLink: number;
  /** Chrome signal of the element itself (tag, role, class/id). */
  kind?: ChromeSignal;
}

export type StatsMap = Map<DomElement, ElementStats>;

/** Anchors with this much text are cards or teasers, counted as content rather than as links. */
const LONG_ANCHOR = 100;

function visibleChars(data: string): number {
  let n = 0;
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i);
    if (c > 32 && c !== 160) n++;
  }
  return n;
}

/** Bottom-up text statistics for every element under (and including) `root`. */
export function computeStats(root: DomElement): StatsMap {
  const map: StatsMap = new Map();
  const visit = (element: DomElement, inLink: boolean): ElementStats => {
    const tag = tagOf(element);
    // A card or teaser wrapped in one anchor is content; navigation anchors are short labels.
    const isLink =
      !inLink &&
      tag === 'a' &&
      element.hasAttribute('href') &&
      visibleChars(element.textContent ?? '') < LONG_ANCHOR;
    const linked = inLink || isLink;
    const stats: ElementStats = {
      tag,
      text: 0,
      link: 0,
      links: isLink ? 1 : 0,
      good: 0,
      ownGood: 0,
      maxLink: 0,
      kind: chromeSignalOf(element, tag),
    };
    for (let child: DomNode | null = element.firstChild; child; child = child.nextSibling) {
      if (isText(child)) {
        const n = visibleChars(child.data);
        stats.text += n;
        if (linked) stats.link += n;
        else stats.ownGood += n;
      } else if (isElement(child)) {
        const c = visit(child, linked);
        stats.text += c.text;
        stats.link += c.link;
        stats.links += c.links;
        if (c.maxLink > stats.maxLink) stats.maxLink = c.maxLink;
        if (!c.kind) stats.good += c.good;
      }
    }
    stats.good += stats.ownGood;
    if (tag === 'a' && stats.text > stats.maxLink) stats.maxLink = stats.text;
    map.set(element, stats);
    return stats;
  };
  visit(root, false);
  return map;
}

/** Recomputes `good` bottom-up after chrome flags changed. */
export function refreshGood(root: DomElement, map: StatsMap): void {
  const visit = (element: DomElement): number => {
    const stats = map.get(element);
    if (!stats) return 0;
    let good = stats.ownGood;
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      const childGood = visit(child);
      if (!map.get(child)?.kind) good += childGood;
    }
    stats.good = good;
    return good;
  };
  visit(root);
}
