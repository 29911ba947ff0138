import type { DomElement } from '../dom/dom.types';
import { computeStats, refreshGood, type ElementStats, type StatsMap } from './content-stats.util';
import { removeDuplicateBlocks } from './remove-duplicates.util';
import { removeHidden } from './remove-hidden.util';
import { removeWidgets } from './remove-widgets.util';
import { findBoilerplateSections } from './boilerplate-headings.util';
import { findTeaserGroups } from './teaser-groups.util';

const PROTECTING = 'main, [role="main"], #main, #content, #main-content, [itemprop="articleBody"]';
const TEASER_SIBLING_PROSE = Number(process.env.TSP ?? 200);
const TEASER_PROSE_RATIO = Number(process.env.TPR ?? 1);
const SIBLING_PROSE_STOP = Number(process.env.SPS ?? 1e9);
const COVERAGE = Number(process.env.COV ?? 0.8);
/** Less than this is no main content: the caller falls back to the whole cleaned page. */
const MIN_MAIN_CHARS = 25;
const PROSE_ELSEWHERE = Number(process.env.PE ?? 400);
const CONTENT_LIKE_CHARS = Number(process.env.CLC ?? 400);
const CONTENT_LIKE_LINK_DENSITY = Number(process.env.CLD ?? 0.3);

/** Text outside elements with semantic chrome signals (nav, header, footer, aside tags and roles). */
function nonSemanticChromeText(root: DomElement, stats: StatsMap): number {
  const visit = (element: DomElement): number => {
    const s = stats.get(element);
    if (!s) return 0;
    if (s.kind?.semantic && element !== root) return 0;
    let inside = 0;
    let childText = 0;
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      childText += stats.get(child)?.text ?? 0;
      inside += visit(child);
    }
    return s.text - childText + inside;
  };
  return visit(root);
}

function holdsMainContent(element: DomElement, stats: StatsMap, total: number): boolean {
  if (element.querySelector(PROTECTING)) return true;
  for (const article of Array.from(element.querySelectorAll('article'))) {
    if ((stats.get(article)?.text ?? 0) >= 0.3 * total) return true;
  }
  return false;
}

/**
 * Chrome signals on elements that hold the content are wrong (a `has-sidebar` layout wrapper): an
 * element wrapping a main/article landmark is not chrome; nor, for class/id signals, is one holding
 * half of the text outside semantic chrome, or one that reads like prose (long, few links).
 */
function unflagContentHolders(root: DomElement, stats: StatsMap): boolean {
  const total = nonSemanticChromeText(root, stats);
  let changed = false;
  for (const [element, s] of stats) {
    if (!s.kind || element === root) continue;
    const own = s.text - s.link;
    const contentLike = own >= CONTENT_LIKE_CHARS && s.link <= CONTENT_LIKE_LINK_DENSITY * s.text;
    const weak = !s.kind.semantic && s.kind.kind !== 'overlay' && s.kind.kind !== 'comments';
    const proseCanSave = s.kind.kind !== 'teasers' && s.kind.kind !== 'meta' && s.kind.kind !== 'related';
    if ((weak && (s.text >= 0.5 * total || (contentLike && proseCanSave))) || holdsMainContent(element, stats, total)) {
      s.kind = undefined;
      changed = true;
    }
  }
  return changed;
}

/** Sections under a "Related posts"-style heading, unless they are half of the page. */
function flagBoilerplateSections(root: DomElement, stats: StatsMap): void {
  const total = stats.get(root)?.text ?? 0;
  let changed = false;
  for (const section of findBoilerplateSections(root, stats)) {
    const s = stats.get(section);
    if (s && !s.kind && s.text < 0.5 * total) {
      s.kind = { kind: 'related', semantic: false };
      changed = true;
    }
  }
  if (changed) refreshGood(root, stats);
}

/**
 * Teaser groups (cards, tiles, entries) are the content of a listing and secondary on an article or
 * product page: they are flagged only when the prose outside them outweighs them.
 */
function siblingProse(element: DomElement, stats: StatsMap): number {
  const parent = element.parentElement;
  if (!parent) return 0;
  let prose = 0;
  for (let sibling = parent.firstElementChild; sibling; sibling = sibling.nextElementSibling) {
    if (sibling !== element) prose += stats.get(sibling)?.good ?? 0;
  }
  return prose;
}

function flagSecondaryTeasers(root: DomElement, stats: StatsMap): void {
  // A teaser run set among the paragraphs of a text (a listicle) is part of that text.
  const groups = findTeaserGroups(root, stats).filter(
    (g) => !stats.get(g)?.kind && siblingProse(g, stats) < TEASER_SIBLING_PROSE,
  );
  if (groups.length === 0) return;
  const teaserText = groups.reduce((sum, g) => sum + (stats.get(g)?.text ?? 0), 0);
  for (const group of groups) {
    const s = stats.get(group);
    if (s) s.kind = { kind: 'teasers', semantic: false };
  }
  refreshGood(root, stats);
  if ((stats.get(root)?.good ?? 0) * TEASER_PROSE_RATIO >= teaserText) return;
  for (const group of groups) {
    const s = stats.get(group);
    if (s) s.kind = undefined;
  }
  refreshGood(root, stats);
}

/**
 * Deepest element holding at least `COVERAGE` of the page's good text, without descending past
 * siblings that carry real prose of their own (a dominant code listing must not shed the posts around it).
 */
function selectContainer(root: DomElement, stats: StatsMap): DomElement {
  const total = stats.get(root)?.good ?? 0;
  let current = root;
  for (;;) {
    let next: DomElement | undefined;
    let siblingGood = 0;
    for (let child = current.firstElementChild; child; child = child.nextElementSibling) {
      const s = stats.get(child);
      if (!s || s.kind) continue;
      if (!next && s.good >= COVERAGE * total) next = child;
      else siblingGood += s.good;
    }
    if (!next || siblingGood >= SIBLING_PROSE_STOP) return current;
    current = next;
  }
}

interface PruneContext {
  /** Text of the container: a link block holding half of it is the page's list, not navigation. */
  text: number;
  /** Prose of the container: with enough prose elsewhere, even a large link list is secondary. */
  good: number;
}

function isLinkBlock(s: ElementStats, ctx: PruneContext): boolean {
  if (s.links < 3 || s.link <= 0.6 * s.text || s.good >= 200) return false;
  return s.text < 0.5 * ctx.text || ctx.good - s.good >= PROSE_ELSEWHERE;
}

function collectPrunable(element: DomElement, stats: StatsMap, ctx: PruneContext, out: DomElement[]): void {
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
    const s = stats.get(child);
    if (!s) continue;
    if (s.kind || isLinkBlock(s, ctx)) out.push(child);
    else collectPrunable(child, stats, ctx, out);
  }
}

/**
 * Narrows a cleaned page to its main content, in place: hidden elements and page chrome go, the
 * container that holds most of the remaining text is kept, and link-dense blocks inside it are pruned.
 * Returns undefined (the page left unpruned) when that would leave next to nothing.
 */
export function analyzeContent(root: DomElement): StatsMap {
  removeHidden(root);
  if (process.env.NOWIDGET !== '1') removeWidgets(root);
  const stats = computeStats(root);
  if (process.env.NOTEASER !== '1') flagSecondaryTeasers(root, stats);
  if (process.env.NOBH !== '1') flagBoilerplateSections(root, stats);
  if (unflagContentHolders(root, stats)) refreshGood(root, stats);
  return stats;
}

export function extractMainContent(root: DomElement): DomElement | undefined {
  const stats = analyzeContent(root);
  const container = selectContainer(root, stats);
  const cs = stats.get(container);
  if (!cs) return undefined;
  const prunable: DomElement[] = [];
  collectPrunable(container, stats, { text: cs.text, good: cs.good }, prunable);
  const kept = cs.text - prunable.reduce((sum, el) => sum + (stats.get(el)?.text ?? 0), 0);
  if (kept < MIN_MAIN_CHARS) return undefined;
  for (const element of prunable) element.remove();
  if (process.env.NODEDUP !== '1') removeDuplicateBlocks(container);
  return container;
}
