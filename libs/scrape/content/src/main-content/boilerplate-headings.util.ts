import type { DomElement } from '../dom/dom.types';
import { contains, query, queryAll } from '../dom/query.util';
import { collapsedSpace } from '../dom/visible-length.util';
import type { StatsMap } from './content-stats.util';

/**
 * Headings that introduce page furniture rather than content: related/recommended items, comment
 * sections, author boxes, tag lists. What follows such a heading, up to the next heading of its rank,
 * is the furniture.
 */
const SECTION_HEADING = new RegExp(
  [
    String.raw`^(?:related|similar)\b`,
    String.raw`^recommended\b`,
    String.raw`^(?:suggested|trending)\b`,
    String.raw`^(?:you|we think you) (?:may|might|will|could) (?:also )?(?:like|love|enjoy|be interested)`,
    String.raw`^(?:customers|people|shoppers)(?: who)? (?:also )?(?:viewed|bought|purchased|searched|liked)`,
    String.raw`^frequently bought\b`,
    String.raw`^recently viewed\b`,
    String.raw`^more (?:from|stories|articles|posts|news|videos|products|like this|to (?:explore|read|love|discover)|in\b|by\b|on\b)`,
    String.raw`^(?:latest|recent|popular|top) (?:news|posts|articles|stories|products|videos|comments|reviews|topics|threads)\b`,
    String.raw`^featured (?:insights|articles|posts|stories|news|resources|content|client stories|case studies|blogs?)$`,
    String.raw`^(?:read|up) next\b`,
    String.raw`^(?:keep|continue) reading\b`,
    String.raw`^(?:further|recommended|suggested) reading\b`,
    String.raw`^(?:you may|you might) also\b`,
    String.raw`^also (?:read|see|on|in)\b`,
    String.raw`^(?:don'?t|do not) miss\b`,
    String.raw`^(?:leave|post|add|write) a (?:reply|comment|review)\b`,
    String.raw`^(?:\d+\s+)?(?:comments?|responses?|replies|discussion)(?:\s*\(\d+\))?(?:\s+(?:add|leave|post|write) a (?:comment|reply|response)|\s*(?:so far|to [^.]{1,80}))?\s*:?$`,
    String.raw`^(?:got something to say|have your say|join the (?:discussion|conversation)|what do you think)\s*[?!.]?$`,
    String.raw`^(?:reader|user|public) (?:comments|discussion)\b`,
    String.raw`^about the (?:author|writer)\b`,
    String.raw`^(?:tags|categories|archives)$`,
    String.raw`^(?:über (?:den autor|die autorin)|zur person\b|à propos de l'auteur|sobre (?:el autor|la autora|o autor|a autora))`,
    String.raw`^(?:schon gelesen|ähnliche|das könnte (?:sie|dich) auch|mehr zum thema|mehr (?:aus|zu|von) (?:dem|der|diesem)|weitere \S*(?:artikel|beiträge|themen|news|nachrichten|meldungen|berichte|tipps)|alle (?:nachrichten|artikel|beiträge|news|meldungen) (?:zu|zum|zur|über|aus)\b|(?:lesen sie|auch) (?:auch|lesen)|zum weiterlesen|neueste (?:artikel|beiträge)|verwandte (?:themen|artikel|beiträge))`,
    String.raw`^(?:explore further|veja também|le puede interesar|más sobre|leia (?:também|mais))`,
    String.raw`^(?:articles? similaires|vous (?:aimerez|pourriez) aussi|à lire aussi)`,
    String.raw`^(?:artículos relacionados|también te puede)`,
  ].join('|'),
  'i',
);

/** Headings of a widget (a share bar, a sign-up box): the furniture is the widget's own block only. */
const WIDGET_HEADING =
  /^(?:share|follow us|connect with us|stay connected|stay in touch|join our|subscribe|sign up for|get (?:our|the) newsletter|newsletter)\b/i;

const HEADING_SELECTOR = 'h1, h2, h3, h4, h5, h6, [role="heading"]';
const MAX_HEADING_CHARS = 60;
/** Text before a heading's block, among its siblings, that makes the parent more than the furniture. */
const CONTENT_BEFORE = 200;

/**
 * Furniture introduced by a boilerplate heading. From the heading, climb to the smallest ancestor
 * that holds more than the heading itself (the heading with its list, carousel or form). When that
 * ancestor also holds the text the heading follows (a "Comments" heading set among an article's
 * paragraphs), the furniture is the heading's block and, for section headings, the blocks after it up
 * to the next heading of the same rank.
 */
export function findBoilerplateSections(root: DomElement, stats: StatsMap): DomElement[] {
  const headings = Array.from(queryAll(root, HEADING_SELECTOR));
  // Every real heading, and each element holding one that is not a teaser's title: a label ranks
  // below all headings, so these are its peers' holders (one lookup instead of a scan per label).
  const headingSet = new Set(headings);
  const holdsHeading = new Set<DomElement>();
  for (const h of headings) {
    if (isLinkTitle(h)) continue;
    for (let p = h.parentElement; p && !holdsHeading.has(p); p = p.parentElement) holdsHeading.add(p);
  }
  const inHeading = (element: DomElement) => {
    for (let p: DomElement | null = element; p; p = p.parentElement) if (headingSet.has(p)) return true;
    return false;
  };
  const labels = new Set(
    findLabelHeadings(root, stats)
      .filter((label) => !inHeading(label))
      .slice(0, MAX_LABELS),
  );
  const rank = (h: DomElement) =>
    labels.has(h) ? 6 : Number(/^h([1-6])$/i.exec(h.localName)?.[1] ?? h.getAttribute('aria-level') ?? '2');
  const sections: DomElement[] = [];
  for (const heading of [...headings, ...labels]) {
    const text = collapsedSpace(heading.textContent);
    if (!text || text.length > MAX_HEADING_CHARS) continue;
    const section = SECTION_HEADING.test(text);
    if (!section && !WIDGET_HEADING.test(text)) continue;
    const label = labels.has(heading);
    // A heading that is (or sits in) a link is a teaser's title: "Sign up for …" can be a headline.
    if (isLinkTitle(heading)) continue;
    const headingChars = stats.get(heading)?.text ?? text.length;
    const level = rank(heading);
    // Climb to the block that holds the heading and its furniture, but never to one that holds a
    // peer heading: that is the enclosing page section, not the furniture block.
    // Teaser titles (headings that are links) inside the section are its items, not peers.
    const isPeer = (h: DomElement) => h !== heading && rank(h) <= level && !isLinkTitle(h);
    const holdsPeer = label
      ? (el: DomElement) => holdsHeading.has(el)
      : (el: DomElement) => headings.some((h) => isPeer(h) && contains(el, h));
    let branch: DomElement = heading;
    let block: DomElement | null = heading.parentElement;
    while (block && block !== root && (stats.get(block)?.text ?? 0) <= headingChars + 10) {
      if (holdsPeer(block)) break;
      branch = block;
      block = block.parentElement;
    }
    if (!block) continue;
    let before = 0;
    for (let e = branch.previousElementSibling; e; e = e.previousElementSibling)
      before += stats.get(e)?.text ?? 0;
    // A label ("<p><strong>Related</strong></p>") is furniture only with the links it introduces:
    // set as the title of a sub-section's text ("Recommended configuration"), it is the text's own.
    const furnitureBlock = !label || linkList(block, stats, headingChars);
    if (before < CONTENT_BEFORE && block !== root && !holdsPeer(block) && furnitureBlock) {
      sections.push(block);
      continue;
    }
    if (branch === heading && !section) continue;
    const following: DomElement[] = [];
    if (section)
      for (let e = branch.nextElementSibling; e; e = e.nextElementSibling) {
        if ((HEADING_TAG.test(e.localName) && isPeer(e)) || holdsPeer(e)) break;
        if (label && !linkList(e, stats)) break;
        following.push(e);
      }
    if (label && !following.some((e) => (stats.get(e)?.links ?? 0) > 0)) continue;
    sections.push(branch, ...following);
  }
  return sections;
}

/** Labels looked at on one page: more is a listing of labelled items, or a hostile page. */
const MAX_LABELS = 100;

/** Class names of an element styled as a heading: "headline", "box-title", "section-head". */
const HEADING_CLASS = /(?:^|[-_\s])(?:headline|heading|title|head|hdr)(?:$|[-_\s])/i;

/**
 * Labels that stand for a heading: a short paragraph or span set in bold, or named as a heading by
 * its class, that names furniture ("<p><strong>Mehr zum Thema</strong></p>",
 * "<span class="headline">Related articles</span>"). Only those matching a section heading count.
 */
function findLabelHeadings(root: DomElement, stats: StatsMap): DomElement[] {
  const labels: DomElement[] = [];
  for (const element of Array.from(queryAll(root, 'p, div, span, dt'))) {
    // Visible text counted already: the long blocks are skipped before their text is read.
    if ((stats.get(element)?.text ?? 0) > MAX_HEADING_CHARS) continue;
    if (query(element, 'a[href], p, div, li, h1, h2, h3, h4, h5, h6')) continue;
    const text = collapsedSpace(element.textContent);
    if (!text || text.length > MAX_HEADING_CHARS || !SECTION_HEADING.test(text)) continue;
    const bold = queryAll(element, 'strong, b')
      .map((b) => collapsedSpace(b.textContent))
      .join(' ');
    const styled =
      bold === text ||
      HEADING_CLASS.test(element.getAttribute('class') ?? '') ||
      /\bbold\b/i.test(element.getAttribute('class') ?? '');
    if (styled && !insideLink(element)) labels.push(element);
  }
  return labels;
}

/** Mostly links (a list of teasers) besides `labelChars` of label, or nothing but whitespace. */
function linkList(element: DomElement, stats: StatsMap, labelChars = 0): boolean {
  const s = stats.get(element);
  const text = (s?.text ?? 0) - labelChars;
  if (!s || text <= 0) return true;
  return s.link >= 0.6 * text;
}

const HEADING_TAG = /^h[1-6]$/;

function isLinkTitle(heading: DomElement): boolean {
  return query(heading, 'a[href]') !== null || insideLink(heading);
}

function insideLink(element: DomElement): boolean {
  for (let p = element.parentElement; p; p = p.parentElement) if (p.localName === 'a') return true;
  return false;
}
