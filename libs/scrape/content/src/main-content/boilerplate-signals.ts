import type { DomElement } from '../dom/dom.types';
import { query } from '../dom/query.util';
import { memoizeByString } from '../dom/string-memo.util';
import { isHeadingAnchorId } from './heading-anchor.util';

/** Why an element looks like page chrome rather than content. */
export type ChromeKind =
  | 'navigation'
  | 'header'
  | 'footer'
  | 'aside'
  | 'consent'
  | 'overlay'
  | 'social'
  | 'ad'
  | 'comments'
  | 'related'
  | 'meta'
  | 'teasers'
  | 'reviews'
  | 'caption'
  | 'form';

const TAG_KIND: Readonly<Record<string, ChromeKind>> = {
  nav: 'navigation',
  header: 'header',
  footer: 'footer',
  aside: 'aside',
  dialog: 'overlay',
  menu: 'navigation',
  figcaption: 'caption',
};

const ROLE_KIND: Readonly<Record<string, ChromeKind>> = {
  navigation: 'navigation',
  banner: 'header',
  contentinfo: 'footer',
  complementary: 'aside',
  search: 'form',
  menu: 'navigation',
  menubar: 'navigation',
  toolbar: 'navigation',
  dialog: 'overlay',
  alertdialog: 'overlay',
};

/**
 * Class/id patterns, tested on each class token and on the id; first match wins. Distinctive words
 * match anywhere inside a hyphenated token; words that page builders reuse for ordinary blocks
 * (widget, overlay, header, ad, share) only match as a whole token or token prefix.
 */
const NAME_PATTERNS: ReadonlyArray<[RegExp, ChromeKind]> = [
  [/(?:^|[-_])(?:cookie|cookies|consent|gdpr|onetrust|cookiebot|didomi)(?:$|[-_])/, 'consent'],
  [
    /(?:^|[-_])(?:popup|pop-up|modal|lightbox|interstitial|paywall|agegate|age-gate)(?:$|[-_])|^(?:overlay|announcement-bar|notification-bar|alert-bar|promo-bar)$/,
    'overlay',
  ],
  [
    /(?:^|[-_])(?:nav|navbar|navigation|menu|menubar|megamenu|mega-menu|mainmenu|submenu|breadcrumb|breadcrumbs|skip-link|skiplink|skip-links|pagination|pager)(?:$|[-_])|^(?:crumbs|dropdown|dropdown-menu|tabs-nav)$/,
    'navigation',
  ],
  [
    /^(?:header|site-header|siteheader|global-header|globalheader|masthead|top-bar|topbar|top-nav|topnav|utility-bar|header-wrapper|header-container|header-top|header-bottom|site-branding|page-header-nav)$/,
    'header',
  ],
  [
    /^(?:footer|site-footer|sitefooter|global-footer|globalfooter|page-footer|footer-wrapper|footer-container|footer-top|footer-bottom|colophon|copyright)$|(?:^|[-_])footer(?:$|[-_])/,
    'footer',
  ],
  [
    /(?:^|[-_])(?:sidebar|side-bar|sidebars)(?:$|[-_])|^(?:aside|rail|right-rail|left-rail|side-rail|widget|widgets|widget-area|secondary|widget_[a-z0-9_-]+)$/,
    'aside',
  ],
  [
    /(?:^|[-_])(?:sharing|social|socials|sharebar|addthis|sharethis|newsletter|subscribe|signup|sign-up|mailing-list|optin|opt-in)(?:$|[-_])|^(?:share|share-buttons|share-links|follow-us|subscription)$/,
    'social',
  ],
  [
    /(?:^|[-_])(?:advert|adverts|advertisement|advertising|adslot|ad-slot|adsbygoogle|dfp|gpt-ad|taboola|outbrain)(?:$|[-_])|^(?:ad|ads|ad-container|ad-wrapper|sponsor|sponsored|promo|promotion)$/,
    'ad',
  ],
  [
    /(?:^|[-_])(?:comments|comment-list|commentlist|comment-respond|comments-area|comment-form|disqus|discussion)(?:$|[-_])|^respond$/,
    'comments',
  ],
  [
    /(?:^|[-_])(?:author-box|authorbox|about-author|author-bio|author-info|post-author|entry-meta|post-meta|article-meta|byline|post-tags|entry-tags|tags-links|cat-links|post-categories|post-navigation|nav-links|adjacent-posts)(?:$|[-_])/,
    'meta',
  ],
  // Per-post furniture of forums and Q&A sites: the poster's card (rank, post count, join date,
  // reputation), the signature under each post, the "last edited" line.
  [
    /^(?:[a-z]+-)?(?:signatures?|user-?info|user-?details|postprofile|user-?title|last-?edit|reputation)$/,
    'meta',
  ],
  // Customer reviews of a product or business ("reviews", "product-reviews", "reviews-section"): what
  // other people wrote about the thing, not the page's own text. Whole tokens only, so that a review
  // article ("review-body", "product-review-card") keeps its text.
  [
    /^(?:[a-z]+[-_])?reviews(?:[-_](?:section|list|container|wrapper|block|widget|area|carousel|slider|swiper))?$/,
    'reviews',
  ],
  // The caption and credit lines of a picture: what the picture shows, not the text's own words.
  [
    /^(?:(?:wp|image|img|photo|picture|pic|media|figure|fig|video|article|story|slide|gallery|entry|post)[-_]+)?(?:caption|captions|figcaption|credit|credits|photocredit)(?:[-_]+(?:text|credit|container|wrapper|inner))?$/,
    'caption',
  ],
  [
    /(?:^|[-_])(?:related|related-posts|relatedposts|recommended|recommendations|more-stories|more-articles|you-may-also-like|popular-posts|most-popular|most-read)(?:$|[-_])/,
    'related',
  ],
  // WordPress's card of another post embedded by its link (oEmbed): a teaser, not the text.
  [/^wp-embedded-content$/, 'related'],
];

/**
 * Taxonomy classes (`category-reviews`, `tag-social-media`, as blog engines put on a post) name the
 * post's topic, not the element's role.
 */
export const TAXONOMY_TOKEN = /^(?:category|tag|tags|topic)[-_]/;

/** Class tokens blog engines put on a post's wrapper (hAtom `hentry`, WordPress, Movable Type, Blogger). */
export const POST_CLASS =
  /(?:^|\s)(?:hentry|post|entry|(?:[a-z]+-)?type-post|blog-post|post-outer|single-post|story|article|node-article)(?:$|\s)/i;

/** Inside article/section/main, or a blog post's wrapper, which is an article by another name. */
function inSectioningContent(element: DomElement): boolean {
  for (let p = element.parentElement; p; p = p.parentElement) {
    const tag = p.localName;
    if (tag === 'article' || tag === 'section' || tag === 'main' || p.getAttribute('role') === 'main')
      return true;
    if (tag === 'div' && POST_CLASS.test(p.getAttribute('class') ?? '')) return true;
  }
  return false;
}

/** Ids that say "this is the text". */
const CONTENT_ID =
  /^(?:article|content|main|main-content|maincontent|post|entry|story|article-body|story-body|post-body)$/;

/** `postComments` → `post-comments`: camel-case names read like hyphenated ones. */
function unCamel(name: string): string {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 65 && c <= 90) return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  }
  return name;
}

/** Index of the first name pattern a class/id token matches, or -1. */
const tokenPattern = memoizeByString((token: string): number =>
  token.length > 60 || TAXONOMY_TOKEN.test(token)
    ? -1
    : NAME_PATTERNS.findIndex(([pattern]) => pattern.test(token)),
);

/** Index of the first name pattern matched by the tokens of a class attribute, in order, or -1. */
const classPattern = memoizeByString((cls: string): number => {
  for (const token of unCamel(cls).split(/\s+/)) {
    if (!token) continue;
    const index = tokenPattern(token);
    if (index >= 0) return index;
  }
  return -1;
});

export interface ChromeSignal {
  kind: ChromeKind;
  /** Semantic signals (tag, ARIA role) are firmer than class/id names, which wrappers also carry. */
  semantic: boolean;
}

/** The chrome kind an element's tag, ARIA role or class/id names point to, if any. */
export function chromeSignalOf(element: DomElement, tag: string): ChromeSignal | undefined {
  if (tag === 'main' || tag === 'body' || tag === 'article') return undefined;
  const role = element.getAttribute('role')?.toLowerCase();
  if (role === 'main') return undefined;
  const byTag = TAG_KIND[tag];
  if (byTag && (tag === 'header' || tag === 'footer' || tag === 'aside') && inSectioningContent(element)) {
    // Inside article/section/main, header and footer belong to that section (title and lead,
    // or tags and share links), not to the page: not a landmark (HTML-AAM), at most a weak signal.
    // An aside there is a note or pull quote of the text as often as a sidebar: a weak signal too,
    // which prose rescues.
    if (tag === 'header') return undefined;
    return { kind: byTag, semantic: false };
  }
  if (byTag === 'caption') return { kind: byTag, semantic: false };
  if (byTag) return { kind: byTag, semantic: true };
  if (role && ROLE_KIND[role]) return { kind: ROLE_KIND[role], semantic: true };
  if (element.getAttribute('aria-modal') === 'true') return { kind: 'overlay', semantic: true };
  const rawId = element.getAttribute('id');
  if (rawId) {
    const id = unCamel(rawId);
    // `<div id="article" class="is-paywall">`: the id names the element, its classes a state.
    if (CONTENT_ID.test(id)) return undefined;
    const index = tokenPattern(id);
    if (index >= 0) {
      const [pattern, kind] = NAME_PATTERNS[index];
      // A section's id may just be its heading's anchor: "respond-to-review-comments" names a topic,
      // and only a heading that starts with the chrome word ("Related products…") says what it is.
      const anchor = isHeadingAnchorId(element, id);
      if (!anchor || pattern.test(id.split(/[-_]/).slice(0, 2).join('-'))) return { kind, semantic: false };
    }
  }
  const cls = element.getAttribute('class');
  const index = cls ? classPattern(cls) : -1;
  if (index < 0) return undefined;
  const kind = NAME_PATTERNS[index][1];
  // A caption-named block holding the picture is the figure (`wp-caption`), not its caption line.
  if (kind === 'caption' && query(element, 'img, picture, video, iframe')) return undefined;
  return { kind, semantic: false };
}

/** Elements whose class/id say "this is the content". */
export const CONTENT_NAME =
  /(?:^|[-_\s])(?:content|main|article|post|entry|story|body|text|prose|markdown|rich-?text|blog|product|description|thread|topic|question|answer|message)(?:$|[-_\s])/;

export function hasContentName(element: DomElement): boolean {
  const sig = `${element.getAttribute('id') ?? ''} ${element.getAttribute('class') ?? ''}`.toLowerCase();
  return CONTENT_NAME.test(sig);
}
