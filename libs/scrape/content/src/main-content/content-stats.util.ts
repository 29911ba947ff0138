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
  /**
   * `good` counted only in blocks of text that read as text rather than as links: a leaf block (no
   * block-level children) whose links are over a third of its text (an entry of a menu, an archive
   * or a category list, "Education (posts: 614)") adds nothing.
   */
  prose: number;
  /** Whether the element has no block-level element children. */
  leaf: boolean;
  /** Largest prose a single child adds. */
  maxChildProse: number;
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

/** `visibleChars` of an element's whole text, counted without building it. */
function subtreeChars(element: DomElement): number {
  let n = 0;
  for (let child: DomNode | null = element.firstChild; child; child = child.nextSibling) {
    if (isText(child)) n += visibleChars(child.data);
    else if (isElement(child)) n += subtreeChars(child);
  }
  return n;
}

/** Bottom-up text statistics for every element under (and including) `root`. */
export function computeStats(root: DomElement): StatsMap {
  const map: StatsMap = new Map();
  const visit = (element: DomElement, inLink: boolean, inMenu: boolean): ElementStats => {
    const tag = tagOf(element);
    const kind = chromeSignalOf(element, tag);
    const menu = inMenu || kind?.kind === 'navigation';
    // A card or teaser wrapped in one anchor is content; navigation anchors are short labels. In a
    // menu, a long anchor is a menu entry with its description (a mega menu), still a link.
    const isLink =
      !inLink && tag === 'a' && element.hasAttribute('href') && (menu || subtreeChars(element) < LONG_ANCHOR);
    const linked = inLink || isLink;
    const stats: ElementStats = {
      tag,
      text: 0,
      link: 0,
      links: isLink ? 1 : 0,
      good: 0,
      ownGood: 0,
      prose: 0,
      leaf: true,
      maxChildProse: 0,
      maxLink: 0,
      kind,
    };
    for (let child: DomNode | null = element.firstChild; child; child = child.nextSibling) {
      if (isText(child)) {
        const n = visibleChars(child.data);
        stats.text += n;
        if (linked) stats.link += n;
        else stats.ownGood += n;
      } else if (isElement(child)) {
        const c = visit(child, linked, menu);
        stats.text += c.text;
        stats.link += c.link;
        stats.links += c.links;
        if (c.maxLink > stats.maxLink) stats.maxLink = c.maxLink;
        if (BLOCK_TAGS.has(c.tag)) stats.leaf = false;
        if (!c.kind) {
          stats.good += c.good;
          const p = proseContribution(c);
          stats.prose += p;
          if (p > stats.maxChildProse) stats.maxChildProse = p;
        }
      }
    }
    stats.good += stats.ownGood;
    stats.prose = proseOf(stats, stats.prose + stats.ownGood);
    if (tag === 'a' && stats.text > stats.maxLink) stats.maxLink = stats.text;
    map.set(element, stats);
    return stats;
  };
  visit(root, false, false);
  return map;
}

/** Links over this share of a leaf block's text make it a link line, not text. */
const LINK_LINE_DENSITY = 0.35;
/** A leaf block shorter than this is a label, a name, a date: a line, not text. */
const SHORT_LINE = 30;

const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);

/** A block that is mostly links (three or more, over half of its text): a menu, an archive list, a tag cloud. */
export function isLinkDense(s: ElementStats): boolean {
  return s.links >= 3 && s.link > 0.5 * s.text;
}

/** Prose one part of a link-dense block must hold for the block to count (a layout wrapper around a column of text). */
const WRAPPER_PROSE = 300;

/**
 * What a child adds to its parent's prose: nothing for a link list, unless one of its parts is a
 * column of text (a layout wrapper whose sidebars make it link-dense as a whole).
 */
function proseContribution(c: ElementStats): number {
  return isLinkDense(c) && c.maxChildProse < WRAPPER_PROSE ? 0 : c.prose;
}

/** `prose` of an element from the prose of its parts (children and own text). */
function proseOf(s: ElementStats, parts: number): number {
  return s.leaf && (s.link > LINK_LINE_DENSITY * s.text || s.text < SHORT_LINE) ? 0 : parts;
}

/** Recomputes `good` and `prose` bottom-up after chrome flags changed. */
export function refreshGood(root: DomElement, map: StatsMap): void {
  const visit = (element: DomElement): void => {
    const stats = map.get(element);
    if (!stats) return;
    let good = stats.ownGood;
    let prose = stats.ownGood;
    let maxChildProse = 0;
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      visit(child);
      const c = map.get(child);
      if (!c || c.kind) continue;
      good += c.good;
      const p = proseContribution(c);
      prose += p;
      if (p > maxChildProse) maxChildProse = p;
    }
    stats.good = good;
    stats.maxChildProse = maxChildProse;
    stats.prose = proseOf(stats, prose);
  };
  visit(root);
}
