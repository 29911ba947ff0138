import type { DomElement } from '../dom/dom.types';
import { tagOf } from '../dom/dom.types';
import { queryAll } from '../dom/query.util';
import { collapsedSpace } from '../dom/visible-length.util';
import { findBoilerplateSections } from './boilerplate-headings.util';
import type { ChromeKind } from './boilerplate-signals';
import { type ElementStats, isLinkDense, refreshGood, type StatsMap } from './content-stats.util';
import { findTeaserGroups } from './teaser-groups.util';

const PROTECTING = 'main, [role="main"], #main, #content, #main-content, [itemprop="articleBody"]';
/** An `<article>` this large (share of the page) marks its ancestors as content holders. */
const ARTICLE_SHARE = 0.3;
/** A class/id-flagged element with this share of the page's (non-landmark) text is a wrapper. */
const WRAPPER_SHARE = 0.5;
/** Prose: at least this many characters outside links… */
const PROSE_CHARS = 400;
/** Prose needed to clear an overlay-like name. */
const LONG_PROSE_CHARS = 1200;
/** …and at most this link density. */
const PROSE_LINK_DENSITY = 0.3;
/** A teaser run next to this much prose in the same parent is part of that text (a listicle). */
const TEASER_SIBLING_PROSE = 200;

/**
 * Kinds that stay flagged however much prose they hold: teasers, related items, post metadata,
 * customer reviews, and page footers (a footer full of testimonials or an "about us" blurb is still
 * the footer).
 */
const NOT_SAVED_BY_PROSE: ReadonlySet<ChromeKind> = new Set<ChromeKind>([
  'teasers',
  'meta',
  'related',
  'reviews',
  'footer',
]);

/** Text outside elements with semantic chrome signals (nav, header, footer, aside tags and roles). */
function textOutsideLandmarks(root: DomElement, stats: StatsMap): number {
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

/**
 * The elements that hold the main content: the ancestors (below `root`) of a main landmark and of
 * an `<article>` with a large share of the page's text. One pass over the page, instead of a
 * subtree search from every flagged element.
 */
function mainContentHolders(root: DomElement, stats: StatsMap, total: number): Set<DomElement> {
  const holders = new Set<DomElement>();
  const markAncestors = (element: DomElement): void => {
    for (let p = element.parentElement; p && !holders.has(p); p = p.parentElement) {
      holders.add(p);
      if (p === root) break;
    }
  };
  for (const element of queryAll(root, PROTECTING)) markAncestors(element);
  for (const article of queryAll(root, 'article'))
    if ((stats.get(article)?.text ?? 0) >= ARTICLE_SHARE * total) markAncestors(article);
  return holders;
}

/**
 * Kinds whose names are not put on layout wrappers: a block named as the menu that holds half of the
 * page's text is a menu of long descriptions (a mega menu), not the page. (A `#header` left unclosed
 * can wrap the whole page.)
 */
const NOT_WRAPPERS: ReadonlySet<ChromeKind> = new Set<ChromeKind>(['navigation']);
/** Text outside links beyond which a caption-named block is not a caption. */
const MAX_CAPTION_CHARS = 300;
const SIDEBAR_NAME =
  /(?:^|[-_\s])(?:sidebar|side-bar|sidebars|sideBar|rail|right-rail|left-rail|secondary|widget-area)(?:$|[-_\s])/i;
/** Names of the block that holds the text beside a sidebar. */
const CONTENT_COLUMN =
  /(?:^|[-_\s])(?:content|main|main-content|article|post|entry|story|primary)(?:$|[-_\s])/i;
/** Text of a sibling named as content that makes a sidebar-named element the column beside it. */
const CONTENT_BESIDE = 500;

/** Whether `child` is the only child of `parent` holding any text. */
function onlyTextChild(parent: DomElement, child: DomElement, stats: StatsMap): boolean {
  for (let c = parent.firstElementChild; c; c = c.nextElementSibling)
    if (c !== child && (stats.get(c)?.text ?? 0) > 0) return false;
  return true;
}

/**
 * Whether a large sidebar-named element is a sidebar rather than a layout wrapper (`has-sidebar`):
 * mostly links (archives, link lists), or set beside a block named as the content (`#content`,
 * `.post`, an `<article>`).
 */
function isSidebar(element: DomElement, s: ElementStats, stats: StatsMap): boolean {
  // A "widget" is any block of some page builders (Blogger's posts are one); a sidebar says so.
  const names = `${element.getAttribute('id') ?? ''} ${element.getAttribute('class') ?? ''}`;
  if (!SIDEBAR_NAME.test(names)) return false;
  if (isLinkDense(s)) return true;
  // The column may be wrapped (`#side > #primary-sidebar`): look beside its only-child wrappers too.
  for (let e: DomElement | null = element, depth = 0; e && depth < 3; depth++) {
    const parent: DomElement | null = e.parentElement;
    for (
      let sibling: DomElement | null = parent?.firstElementChild ?? null;
      sibling;
      sibling = sibling.nextElementSibling
    ) {
      if (sibling === e) continue;
      const t = stats.get(sibling);
      const names = `${sibling.getAttribute('id') ?? ''} ${sibling.getAttribute('class') ?? ''}`;
      const tag = tagOf(sibling);
      if (
        t &&
        !t.kind &&
        t.text >= CONTENT_BESIDE &&
        (tag === 'article' || tag === 'main' || CONTENT_COLUMN.test(names))
      )
        return true;
    }
    e = parent && onlyTextChild(parent, e, stats) ? parent : null;
  }
  return false;
}

/**
 * Chrome signals on elements that hold the content are wrong (a `has-sidebar` layout wrapper): an
 * element wrapping a main landmark or a large article is not chrome; nor, for class/id signals, is
 * one holding half of the text outside landmarks, or one that reads like prose (long, few links).
 * Consent banners and comment sections stay flagged whatever their length; the kinds in
 * `NOT_SAVED_BY_PROSE` are not rescued by being wordy.
 */
export function unflagContentHolders(root: DomElement, stats: StatsMap): void {
  const total = textOutsideLandmarks(root, stats);
  const holders = mainContentHolders(root, stats, total);
  let changed = false;
  for (const [element, s] of stats) {
    if (!s.kind || element === root) continue;
    const kind = s.kind.kind;
    const weak = !s.kind.semantic && kind !== 'consent' && kind !== 'comments';
    // A sidebar (named so, and mostly links or beside the content) is neither a wrapper nor saved
    // by its prose (the excerpts of recent posts, an author's bio).
    const sidebar = kind === 'aside' && weak && isSidebar(element, s, stats);
    const proseCanSave = !NOT_SAVED_BY_PROSE.has(kind) && !sidebar;
    // A visible "modal" with pages of prose is a content section with an unlucky name; real pop-ups
    // are hidden, or short.
    const proseChars = kind === 'overlay' ? LONG_PROSE_CHARS : PROSE_CHARS;
    const prose = s.text - s.link >= proseChars && s.link <= PROSE_LINK_DENSITY * s.text;
    // A related-items block after a text is not its wrapper, however short the text is (a paywalled
    // article's teaser paragraphs, then "More articles").
    const wrapper =
      s.text >= WRAPPER_SHARE * total &&
      !NOT_WRAPPERS.has(kind) &&
      !sidebar &&
      !(kind === 'related' && proseBefore(element, root, stats) >= FURNITURE_AFTER_PROSE);
    // A caption is a line or two; a "caption" block with paragraphs of text is a slide's text.
    const notCaption = kind === 'caption' && s.text - s.link >= MAX_CAPTION_CHARS;
    if ((weak && (wrapper || notCaption || (prose && proseCanSave))) || holders.has(element)) {
      s.kind = undefined;
      changed = true;
    }
  }
  if (changed) refreshGood(root, stats);
  keepCaptionsOfGalleries(root, stats);
}

/** Share of the page's text in captions that makes them the content (a gallery, a photo essay). */
const GALLERY_CAPTIONS = 0.3;

/** Captions are kept on a page where they are a good part of the text: the slides of a gallery. */
function keepCaptionsOfGalleries(root: DomElement, stats: StatsMap): void {
  const captions: ElementStats[] = [];
  let captionText = 0;
  for (const s of stats.values()) {
    if (s.kind?.kind !== 'caption') continue;
    captions.push(s);
    captionText += s.text - s.link;
  }
  if (captions.length === 0) return;
  const total = (stats.get(root)?.good ?? 0) + captionText;
  if (captionText < GALLERY_CAPTIONS * total) return;
  for (const s of captions) s.kind = undefined;
  refreshGood(root, stats);
}

/**
 * Sections under a "Related posts"-style heading, unless they are half of the page and follow no text
 * (a page of related posts is that list).
 */
export function flagBoilerplateSections(root: DomElement, stats: StatsMap): void {
  const total = stats.get(root)?.text ?? 0;
  let changed = false;
  for (const section of findBoilerplateSections(root, stats)) {
    const s = stats.get(section);
    if (!s || s.kind) continue;
    if (s.text < WRAPPER_SHARE * total || proseBefore(section, root, stats) >= FURNITURE_AFTER_PROSE) {
      s.kind = { kind: 'related', semantic: false };
      changed = true;
    }
  }
  if (changed) refreshGood(root, stats);
}

/** Prose before a related-items block that shows it follows a text rather than holding it. */
const FURNITURE_AFTER_PROSE = 400;

/** Prose of the blocks before `element` in document order, up to `root` (flagged or not). */
function proseBefore(element: DomElement, root: DomElement, stats: StatsMap): number {
  let prose = 0;
  for (let e: DomElement | null = element; e && e !== root; e = e.parentElement)
    for (let sibling = e.previousElementSibling; sibling; sibling = sibling.previousElementSibling)
      prose += stats.get(sibling)?.prose ?? 0;
  return prose;
}

function siblingProse(element: DomElement, stats: StatsMap): number {
  const parent = element.parentElement;
  if (!parent) return 0;
  let prose = 0;
  for (let sibling = parent.firstElementChild; sibling; sibling = sibling.nextElementSibling) {
    if (sibling !== element) prose += stats.get(sibling)?.good ?? 0;
  }
  return prose;
}

/**
 * Teaser groups (cards, tiles, entries) are the content of a listing and secondary on an article or
 * product page: they are flagged only when the prose outside them outweighs them all together. A
 * teaser run set among the paragraphs of a text (a listicle) is part of that text.
 */
export function flagSecondaryTeasers(root: DomElement, stats: StatsMap): void {
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
  if ((stats.get(root)?.good ?? 0) >= teaserText) return;
  for (const group of groups) {
    const s = stats.get(group);
    if (s) s.kind = undefined;
  }
  refreshGood(root, stats);
}

/**
 * The label of a promo line set in the text: "Also read:", "READ MORE:", "Related reading:", and the
 * same labels in the other languages of the pages measured ("Auch lesen:", "Lire aussi :", "Veja também:").
 */
const PROMO_LABEL_WORDS =
  String.raw`(?:` +
  [
    String.raw`also read|read also|read more|must read|related|related reading|related article|related post|related story|recommended|recommended reading|see also|more on this|further reading|don'?t miss|keep reading|up next|read next|trending|popular`,
    String.raw`auch lesen|mehr lesen|lesen sie (?:auch|mehr|hier)|lies auch|mehr zum thema|mehr dazu|siehe auch|(?:zum )?weiterlesen|passend dazu|empfohlen(?:er artikel)?`,
    String.raw`(?:à |a )?lire aussi|voir aussi|à voir aussi|lire la suite`,
    String.raw`(?:lee|lea|leer) (?:también|más)|ver también|(?:también )?(?:te|le) puede interesar`,
    String.raw`veja também|leia (?:também|mais)|saiba mais`,
    String.raw`leggi anche|vedi anche|lees ook|zie ook`,
  ].join('|') +
  String.raw`)`;
const PROMO_LABEL = new RegExp(String.raw`^${PROMO_LABEL_WORDS}\s*:`, 'i');
/** The same label as an element of its own, in a card linking to another post ("Mehr zum Thema"). */
const CARD_LABEL = new RegExp(String.raw`^${PROMO_LABEL_WORDS}\s*:?$`, 'i');
/** A promo line is short and carries one or two links. */
const PROMO_MAX_CHARS = 250;

/**
 * Promo lines set between the paragraphs of an article ("Also read: <link to another post>"): a short
 * block led by a "read more"-style label whose remaining text is mostly one or two links.
 */
export function flagInlinePromos(root: DomElement, stats: StatsMap): void {
  let changed = false;
  for (const element of Array.from(queryAll(root, 'p, li, div'))) {
    const s = stats.get(element);
    if (!s || s.kind || s.text > PROMO_MAX_CHARS || s.links < 1 || s.links > 2) continue;
    const label = PROMO_LABEL.exec(collapsedSpace(element.textContent));
    if (!label || s.link < 0.5 * (s.text - label[0].replace(/\s/g, '').length)) continue;
    s.kind = { kind: 'related', semantic: false };
    changed = true;
  }
  for (const link of Array.from(queryAll(root, 'a[href]'))) {
    const s = stats.get(link);
    if (!s || s.kind || s.text > PROMO_MAX_CHARS || !isPromoCard(link)) continue;
    s.kind = { kind: 'related', semantic: false };
    changed = true;
  }
  if (changed) refreshGood(root, stats);
}

/** A card's label is a line of its own. */
const MAX_CARD_LABEL = 40;

/** A link set as a card whose first line is a promo label of its own: "Mehr zum Thema" + headline. */
function isPromoCard(link: DomElement): boolean {
  for (const label of Array.from(queryAll(link, 'div, span, p, strong, b'))) {
    const text = collapsedSpace(label.textContent);
    if (!text || text.length > MAX_CARD_LABEL) continue;
    // The first short element with text: is it the label alone, with more text after it in the card?
    return CARD_LABEL.test(text) && collapsedSpace(link.textContent).length > text.length + 10;
  }
  return false;
}
