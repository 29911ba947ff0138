import type { DomElement } from '../dom/dom.types';
import { tagOf } from '../dom/dom.types';
import { isDataTable } from '../markdown/table-to-markdown.util';
import type { ElementStats, StatsMap } from './content-stats.util';
import { holdsLinkProse, isLinkProse } from './link-prose.util';
import { query, queryAll } from '../dom/query.util';

/**
 * The container descends while one child holds this share of the page's good text; each step may
 * shed the rest, so the share bounds what the container can lose.
 */
const COVERAGE = 0.8;
/** The title and lead blocks may hold at most this share of the container's text. */
const LEAD_SHARE = 0.25;
/** Characters of lead text, besides the title, that make the title block worth adding. */
const MIN_LEAD = 150;
/** A link block holding half the container's text is the page's list, not navigation… */
const LIST_SHARE = 0.5;
/** …unless the container has this much prose besides it. */
const PROSE_ELSEWHERE = 400;

/** Elements whose child sections are parts of one document, not blocks of a page layout. */
const DOCUMENT_TAGS = new Set(['section', 'article', 'main']);
/** Good text that makes a sibling section worth keeping. */
const MIN_PEER_GOOD = 100;

function headingLevel(element: DomElement): number | undefined {
  const heading = query(element, 'h1, h2, h3, h4, h5, h6');
  return heading ? Number(tagOf(heading).slice(1)) : undefined;
}

/**
 * Whether an element is one of several `<section>`s of a document (inside a section, article or main),
 * each under a heading of the same level (a reference page's "Available middleware" and "Middleware
 * ordering"): descending into one would drop the others.
 */
function hasPeerSection(element: DomElement, stats: StatsMap): boolean {
  const parent = element.parentElement;
  if (tagOf(element) !== 'section' || !parent || !DOCUMENT_TAGS.has(tagOf(parent))) return false;
  const level = headingLevel(element);
  if (level === undefined) return false;
  for (let sibling = parent.firstElementChild; sibling; sibling = sibling.nextElementSibling) {
    if (sibling === element || tagOf(sibling) !== 'section') continue;
    const s = stats.get(sibling);
    if (s && !s.kind && s.good >= MIN_PEER_GOOD && headingLevel(sibling) === level) return true;
  }
  return false;
}

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
    if (!next || hasPeerSection(next, stats)) return current;
    current = next;
  }
}

function isFlagged(element: DomElement, root: DomElement, stats: StatsMap): boolean {
  for (let e: DomElement | null = element; e && e !== root; e = e.parentElement)
    if (stats.get(e)?.kind) return true;
  return false;
}

/** The page's title heading: its first `<h1>` outside chrome. */
function titleHeading(root: DomElement, stats: StatsMap): DomElement | undefined {
  return Array.from(queryAll(root, 'h1')).find((h) => !isFlagged(h, root, stats));
}

function commonAncestor(a: DomElement, b: DomElement): DomElement | undefined {
  const chain = new Set<DomElement>();
  for (let e: DomElement | null = a; e; e = e.parentElement) chain.add(e);
  for (let e: DomElement | null = b; e; e = e.parentElement) if (chain.has(e)) return e;
  return undefined;
}

export interface MainRegion {
  container: DomElement;
  /** Blocks before the container, from the one holding the page's title heading: title and lead. */
  lead: DomElement[];
}

/**
 * The main content: the coverage container, plus the blocks between the page's title heading and
 * the container when the container missed them (a docs page whose h1 and lead paragraph sit above
 * the text, a question above the answers that hold most of the text), provided they are small and
 * carry a lead paragraph besides the title.
 */
export function selectContainer(root: DomElement, stats: StatsMap): MainRegion {
  const container = coverageContainer(root, stats);
  const title = titleHeading(root, stats);
  const ancestor = title ? commonAncestor(container, title) : undefined;
  if (!title || !ancestor || ancestor === container) return { container, lead: [] };
  let first: DomElement = title;
  while (first.parentElement && first.parentElement !== ancestor) first = first.parentElement;
  let side: DomElement = container;
  while (side.parentElement && side.parentElement !== ancestor) side = side.parentElement;
  const lead: DomElement[] = [];
  for (let e: DomElement | null = first; e && e !== side; e = e.nextElementSibling) lead.push(e);
  if (lead.length === 0 || lead[lead.length - 1].nextElementSibling !== side) return { container, lead: [] };
  // Then, level by level down to the container, what precedes it inside its ancestors: a question
  // above its answers, an article's intro above the section that holds most of the text.
  for (let outer: DomElement = side; outer !== container;) {
    let inner: DomElement = container;
    while (inner.parentElement && inner.parentElement !== outer) inner = inner.parentElement;
    for (let e = outer.firstElementChild; e && e !== inner; e = e.nextElementSibling) lead.push(e);
    outer = inner;
  }
  let text = 0;
  let link = 0;
  let good = 0;
  for (const e of lead) {
    const s = stats.get(e);
    if (!s || s.kind) continue;
    text += s.text;
    link += s.link;
    good += s.good;
  }
  const cs = stats.get(container);
  const leadProse = good - (stats.get(title)?.good ?? 0);
  const small = cs !== undefined && text <= LEAD_SHARE * cs.text && link <= 0.5 * text;
  return small && leadProse >= MIN_LEAD
    ? { container, lead: lead.filter((e) => !stats.get(e)?.kind) }
    : { container, lead: [] };
}

function isLinkBlock(s: ElementStats, container: ElementStats): boolean {
  if (s.links < 3 || s.link <= 0.6 * s.text || s.good >= 200) return false;
  return s.text < LIST_SHARE * container.text || container.good - s.good >= PROSE_ELSEWHERE;
}

/**
 * Elements inside the container to remove: flagged chrome and navigation-like link blocks, except
 * links set in the text (a sentence full of links, a list of links a sentence introduces, kept whole
 * with its sublists) and the rows of data tables.
 */
export function prunableElements(container: DomElement, stats: StatsMap): DomElement[] {
  const own = stats.get(container);
  const out: DomElement[] = [];
  if (!own) return out;
  const visit = (element: DomElement): void => {
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      const s = stats.get(child);
      if (!s) continue;
      if (s.kind) out.push(child);
      else if (isLinkBlock(s, own)) {
        if (isLinkProse(child)) continue;
        if (holdsLinkProse(child)) visit(child);
        else out.push(child);
      }
      // A data table is kept whole: its rows of links (names, titles) are records, not navigation.
      else if (s.tag !== 'table' || !isDataTable(child)) visit(child);
    }
  };
  visit(container);
  return out;
}
