import type { DomElement } from '../dom/dom.types';
import { tagOf } from '../dom/dom.types';
import { query, queryAll } from '../dom/query.util';
import { TAXONOMY_TOKEN } from './boilerplate-signals';
import type { StatsMap } from './content-stats.util';
import { isFlagged } from './region.util';

/** Names of the site's own title or logo, which some themes set in an `<h1>`. */
const SITE_TITLE =
  /(?:^|[-_\s])(?:logo|site-title|site-name|sitename|site-logo|site-description|site-tagline|tagline|slogan|brand|branding|masthead|blog-title|navbar-brand)(?:$|[-_\s])/i;
const WORDS = /[\p{L}\p{N}]+/gu;

export function words(text: string): string[] {
  return text.toLowerCase().match(WORDS) ?? [];
}

/** A link to the site's home page (`/`, `./`, the bare origin). */
const HOME_LINK = /^(?:\.?\/|(?:https?:)?\/\/[^/?#]+\/?)$/i;

/** Whether a class token or the id names the site's title (a post's `tag-branding` names its topic). */
function hasSiteTitleName(e: DomElement): boolean {
  const names = `${e.getAttribute('id') ?? ''} ${e.getAttribute('class') ?? ''}`.split(/\s+/);
  return names.some((name) => !TAXONOMY_TOKEN.test(name) && SITE_TITLE.test(name));
}

function isSiteTitle(heading: DomElement): boolean {
  let e: DomElement | null = heading;
  for (let depth = 0; e && depth < 3; depth++, e = e.parentElement) {
    if (hasSiteTitleName(e)) return true;
    if (tagOf(e) === 'a' && HOME_LINK.test((e.getAttribute('href') ?? '').trim())) return true;
  }
  const link = query(heading, 'a[href]');
  return link !== null && HOME_LINK.test((link.getAttribute('href') ?? '').trim());
}

/** The text of the document's `<title>`. */
export function documentTitle(root: DomElement): string {
  return (root.ownerDocument ? query(root.ownerDocument, 'title') : null)?.textContent ?? '';
}

/** Separators between a `<title>`'s headline and the site's name ("Headline | Site", "Site: Headline"). */
const TITLE_SEPARATOR = /\s+[|–—·•«»:]+\s+|\s+[-:]{1,2}\s+|:\s+/;

/**
 * The words of the longest part of a `<title>`: the page's own headline rather than the site's name.
 * A part that only says the site's name (`site`: what its logo heading or `og:site_name` says) is
 * passed over, as in "Life as a Healthcare CIO: Cool Technology of the Week" under a blog of that name.
 */
function headlineWords(title: string, site: ReadonlySet<string>): Set<string> {
  let best: string[] = [];
  let bestOwn: string[] = [];
  for (const part of title.split(TITLE_SEPARATOR)) {
    const w = words(part);
    if (w.length > best.length) best = w;
    if (w.length > bestOwn.length && !(site.size > 0 && w.every((x) => site.has(x)))) bestOwn = w;
  }
  return new Set(bestOwn.length > 0 ? bestOwn : best);
}

/** The words of the site's name: its logo or name heading, and `og:site_name`. */
function siteNameWords(root: DomElement): Set<string> {
  const said: string[] = [];
  for (const h of queryAll(root, 'h1')) if (isSiteTitle(h)) said.push(...words(h.textContent ?? ''));
  const doc = root.ownerDocument;
  const meta = doc ? query(doc, 'meta[property="og:site_name"]') : null;
  said.push(...words(meta?.getAttribute('content') ?? ''));
  return new Set(said);
}

/** Share of `target`'s words a heading says. */
function coverage(heading: DomElement, target: ReadonlySet<string>): number {
  if (target.size === 0) return 0;
  const said = new Set(words(heading.textContent ?? ''));
  let n = 0;
  for (const w of target) if (said.has(w)) n++;
  return n / target.size;
}

/** Share of a heading's words found in `title`. */
function withinTitle(heading: DomElement, title: ReadonlySet<string>): number {
  const w = words(heading.textContent ?? '');
  return w.length ? w.filter((x) => title.has(x)).length / w.length : 0;
}

/** An `<h1>` saying this little of the `<title>`'s headline is the site's name, not the page's title… */
const H1_HEADLINE = 0.5;
/** …and a post title set in an `<h2>`/`<h3>` says this much of it, with few words of its own. */
const POST_HEADLINE = 0.6;
const POST_WITHIN = 0.8;

/** A headline this long, said whole, is the page's own even inside a header region… */
const HEADER_HEADLINE_WORDS = 3;
const HEADER_COVERAGE = 0.8;
const HEADER_WITHIN_WHOLE = 0.5;

/**
 * …as in a theme that sets the post's title and byline in a `<header role="banner">`, a
 * `div.header` band or a `div.title-byline`: the heading sits in header or post-metadata chrome only
 * (no navigation, aside or footer around it), says all but a word or so of the `<title>`'s headline
 * and little else.
 */
function inPageHeader(
  heading: DomElement,
  root: DomElement,
  stats: StatsMap,
  headline: ReadonlySet<string>,
  title: ReadonlySet<string>,
): boolean {
  if (headline.size < HEADER_HEADLINE_WORDS || isSiteTitle(heading)) return false;
  const said = coverage(heading, headline);
  // All of a short <title> headline said, with a few words more ("Noble Toy Company" titled "Noble
  // Toy Company Brings It Home"), or all but a word of it and little else.
  const within = said === 1 ? HEADER_WITHIN_WHOLE : HEADER_COVERAGE;
  if (said < HEADER_COVERAGE || withinTitle(heading, title) < within) return false;
  for (let e: DomElement | null = heading; e && e !== root; e = e.parentElement) {
    const kind = stats.get(e)?.kind?.kind;
    if (kind && kind !== 'header' && kind !== 'meta') return false;
  }
  return true;
}

/**
 * The heading a reader takes for the page's title: an `<h1>` outside chrome, not the site's name or
 * logo, sharing the most words with the document's `<title>` (the first, when nothing says more).
 * When the `<title>` names a headline that no such `<h1>` says (a blog whose `<h1>` is its name), the
 * `<h2>`/`<h3>` that says it is the title.
 */
export function pageTitle(root: DomElement, stats: StatsMap): DomElement | undefined {
  const titleText = documentTitle(root);
  const title = new Set(words(titleText));
  const headline = headlineWords(titleText, siteNameWords(root));
  const outsideChrome = (h: DomElement) =>
    !isFlagged(h, root, stats) || inPageHeader(h, root, stats, headline, title);
  const candidates = Array.from(queryAll(root, 'h1')).filter((h) => {
    const length = (h.textContent ?? '').trim().length;
    return length >= 3 && length <= 300 && outsideChrome(h) && !isSiteTitle(h);
  });
  // The <h1> saying most of the headline, then most within the <title> (the first on a tie).
  let best: DomElement | undefined;
  let bestScore = -1;
  for (const h of candidates) {
    const score = 2 * coverage(h, headline) + withinTitle(h, title);
    if (score > bestScore) {
      best = h;
      bestScore = score;
    }
  }
  if (headline.size < 2 || (best && coverage(best, headline) >= H1_HEADLINE)) return best;
  const post = Array.from(queryAll(root, 'h2, h3')).find(
    (h) => coverage(h, headline) >= POST_HEADLINE && withinTitle(h, title) >= POST_WITHIN && outsideChrome(h),
  );
  return post ?? best;
}
