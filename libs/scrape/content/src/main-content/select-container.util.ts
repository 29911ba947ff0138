import type { DomElement } from '../dom/dom.types';
import { tagOf } from '../dom/dom.types';
import { query, queryAll } from '../dom/query.util';
import { isDataTable } from '../markdown/table-to-markdown.util';
import { POST_CLASS } from './boilerplate-signals';
import type { ElementStats, StatsMap } from './content-stats.util';
import { holdsLinkProse, isLinkProse } from './link-prose.util';
import { documentTitle, pageTitle, words } from './page-title.util';
import { commonAncestor, isFlagged, precedes } from './region.util';

/**
 * The container descends while one child holds this share of the page's good text; each step may
 * shed the rest, so the share bounds what the container can lose.
 */
const COVERAGE = 0.8;
/** Share of the good text in prose (outside link lists) that makes the page a prose page. */
const PROSE_PAGE = 0.2;
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

/**
 * Blocks of text (a paragraph, a list, a quote, a data table): the container is never one of them,
 * since its siblings are the rest of the same text (a page whose main holds three short paragraphs,
 * one of them long, is those three paragraphs).
 */
const TEXT_BLOCKS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'dl',
  'li',
  'dd',
  'dt',
  'blockquote',
  'pre',
  'figure',
  'figcaption',
  'address',
  'code',
]);

function isTextBlock(element: DomElement): boolean {
  const tag = tagOf(element);
  return TEXT_BLOCKS.has(tag) || (tag === 'table' && isDataTable(element));
}

/**
 * Deepest element holding at least `COVERAGE` of the page's good text (outside chrome and links).
 * On a page whose text is mostly prose, the text of link lists (menus, archives, tag clouds in a
 * sidebar) does not count: it would keep a three-column blog layout whole.
 */
function coverageContainer(root: DomElement, stats: StatsMap): DomElement {
  const rootStats = stats.get(root);
  const byProse = rootStats !== undefined && rootStats.prose >= PROSE_PAGE * rootStats.good;
  const amount = (s: ElementStats) => (byProse ? s.prose : s.good);
  const total = rootStats ? amount(rootStats) : 0;
  let current = root;
  for (;;) {
    let next: DomElement | undefined;
    for (let child = current.firstElementChild; child && !next; child = child.nextElementSibling) {
      const s = stats.get(child);
      if (s && !s.kind && amount(s) >= COVERAGE * total) next = child;
    }
    if (!next || isTextBlock(next) || hasPeerSection(next, stats)) return current;
    current = next;
  }
}

/** The page's title heading: its first `<h1>` outside chrome. */
function titleHeading(root: DomElement, stats: StatsMap): DomElement | undefined {
  return Array.from(queryAll(root, 'h1')).find((h) => !isFlagged(h, root, stats));
}

export interface MainRegion {
  container: DomElement;
  /** Blocks before the container, from the one holding the page's title heading: title and lead. */
  lead: DomElement[];
  /** The page's title heading, when it precedes the container and neither holds it. */
  title?: DomElement;
  /** The standfirst right under that title (a story's deck), when the container missed it too. */
  deck?: DomElement;
}

function withTitle(region: MainRegion, root: DomElement, stats: StatsMap): MainRegion {
  const title = pageTitle(root, stats);
  if (!title) return region;
  const first = region.lead[0] ?? region.container;
  const inside = (block: DomElement) => block === title || commonAncestor(block, title) === block;
  if (inside(region.container) || region.lead.some(inside) || !precedes(title, first)) return region;
  // Only a story has a deck: under a blog's or a shop's name the next line is its tagline.
  const deck = isArticlePage(title) ? deckAfter(title, first, root, stats) : undefined;
  return { ...region, title, ...(deck ? { deck } : {}) };
}

/** A deck is a sentence or two: longer is text the container should have held, shorter a label. */
const DECK_MIN_CHARS = 50;
const DECK_MAX_CHARS = 400;
/** Levels climbed from the title to find what follows it (the title sits in an hgroup, a header). */
const DECK_CLIMB = 3;

/**
 * The first block with text after the title, when it reads as a standfirst: a paragraph or a
 * subheading of prose (few links, not chrome), before the container. A byline or a date line is
 * shorter than a deck; a list, a caption or a link is not one.
 */
function deckAfter(
  title: DomElement,
  first: DomElement,
  root: DomElement,
  stats: StatsMap,
): DomElement | undefined {
  let from: DomElement = title;
  for (let level = 0; level <= DECK_CLIMB && from !== root; level += 1) {
    for (let next = from.nextElementSibling; next; next = next.nextElementSibling) {
      const s = stats.get(next);
      if (!s || s.text === 0) continue;
      if (next === first || commonAncestor(next, first) === next || !precedes(next, first)) return undefined;
      const deck = DECK_TAGS.has(tagOf(next)) && s.leaf && !isFlagged(next, root, stats);
      const prose = s.text - s.link;
      return deck && prose >= DECK_MIN_CHARS && s.text <= DECK_MAX_CHARS && s.link <= 0.2 * s.text
        ? next
        : undefined;
    }
    if (!from.parentElement) return undefined;
    from = from.parentElement;
  }
  return undefined;
}

const DECK_TAGS = new Set(['p', 'h2', 'h3', 'div']);

/**
 * The main content: the coverage container, plus the blocks between the page's title heading and
 * the container when the container missed them (a docs page whose h1 and lead paragraph sit above
 * the text, a question above the answers that hold most of the text), provided they are small and
 * carry a lead paragraph besides the title.
 */
export function selectContainer(root: DomElement, stats: StatsMap): MainRegion {
  return withTitle(leadAndContainer(root, stats), root, stats);
}

/** Share of the container's prose one article must hold to be taken for the page's text… */
const ARTICLE_FOCUS = 0.5;
/** …while no other article holds this share. */
const OTHER_ARTICLE = 0.15;

/**
 * The one `<article>` (or schema.org `articleBody`) that holds most of the container's prose, when
 * the container also holds what surrounds it (comments, a sidebar, a footer note): a story is its
 * article, not the column around it.
 */
function focusArticle(container: DomElement, stats: StatsMap): DomElement {
  const own = stats.get(container);
  if (!own || own.prose <= 0) return container;
  for (const selector of ['article']) {
    const found = Array.from(queryAll(container, selector)).filter(
      (a) => a !== container && !isFlagged(a, container, stats),
    );
    const big = found.filter((a) => (stats.get(a)?.prose ?? 0) >= ARTICLE_FOCUS * own.prose);
    if (big.length === 0) continue;
    // The innermost of nested qualifying articles would drop its own header: take the outermost.
    const outer = big.find((a) => !big.some((b) => b !== a && commonAncestor(a, b) === b)) ?? big[0];
    const others = found.filter((a) => commonAncestor(a, outer) !== outer && commonAncestor(a, outer) !== a);
    // Posts of a thread, stories of a feed: the article is one of a sequence, not the page's text.
    if (others.some((a) => a.parentElement === outer.parentElement)) continue;
    const otherProse = others.reduce((sum, a) => sum + (stats.get(a)?.prose ?? 0), 0);
    if (otherProse >= OTHER_ARTICLE * own.prose) continue;
    return outer;
  }
  return container;
}

/** Whether the page says it is an article: `og:type` article, or its title inside an `<article>`. */
/** schema.org types of a story (microdata `itemtype`). */
const ARTICLE_ITEMTYPE = /schema\.org\/(?:\w*Article|BlogPosting|Report)\b/i;

function isArticlePage(title: DomElement): boolean {
  const doc = title.ownerDocument;
  // A heading of the text itself (a pasted document's own <h1>) is not the page's title.
  const heading = words(title.textContent ?? '');
  const titleWords = new Set(words(documentTitle(title)));
  if (heading.filter((w) => titleWords.has(w)).length < 0.5 * heading.length) return false;
  if (title.getAttribute('itemprop') === 'headline') return true;
  for (let e: DomElement | null = title.parentElement; e; e = e.parentElement) {
    if (tagOf(e) === 'article' || POST_CLASS.test(e.getAttribute('class') ?? '')) return true;
    if (ARTICLE_ITEMTYPE.test(e.getAttribute('itemtype') ?? '')) return true;
  }
  const type = doc ? query(doc, 'meta[property="og:type"]')?.getAttribute('content') : undefined;
  return /^(?:article|blog|blogposting|news|newsarticle)$/i.test((type ?? '').trim());
}

/** Share of the container's prose the block holding the page's title must hold to be the text. */
const TITLED_SHARE = 0.5;

/** Less prose than that will do when what is beside it is columns of links (a blog's sidebars)… */
const TITLED_MIN_SHARE = 0.3;
/** …whose prose per character of text is at most this share of the titled block's. */
const COLUMN_DENSITY = 0.3;

function proseDensity(s: ElementStats): number {
  return s.text > 0 ? s.prose / s.text : 0;
}

/** Whether every sibling of a block is link lists and widgets next to it, going by its prose density. */
function besideLinkColumns(block: DomElement, s: ElementStats, stats: StatsMap): boolean {
  const parent = block.parentElement;
  if (!parent) return false;
  const density = proseDensity(s);
  for (let sibling = parent.firstElementChild; sibling; sibling = sibling.nextElementSibling) {
    const other = stats.get(sibling);
    if (sibling === block || !other || other.kind) continue;
    if (proseDensity(other) > COLUMN_DENSITY * density) return false;
  }
  return true;
}

/**
 * Descends from the container into the child that holds the page's title heading and most of the
 * prose, while there is one: the post under its title, without the columns, comments and notes
 * around it.
 */
function focusTitled(container: DomElement, root: DomElement, stats: StatsMap): DomElement {
  const own = stats.get(container);
  if (!own || own.prose <= 0) return container;
  const title = [pageTitle(root, stats)].find(
    (h) => h && commonAncestor(h, container) === container && isArticlePage(h),
  );
  if (!title) return container;
  let current = container;
  for (;;) {
    let child: DomElement = title;
    while (child.parentElement && child.parentElement !== current) child = child.parentElement;
    if (child === title || isTextBlock(child)) return current;
    const s = stats.get(child);
    if (!s) return current;
    const most = s.prose >= TITLED_SHARE * own.prose && s.good >= TITLED_SHARE * own.good;
    if (!most && !(s.prose >= TITLED_MIN_SHARE * own.prose && besideLinkColumns(child, s, stats)))
      return current;
    current = child;
  }
}

function leadAndContainer(root: DomElement, stats: StatsMap): MainRegion {
  const container = focusTitled(focusArticle(coverageContainer(root, stats), stats), root, stats);
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
