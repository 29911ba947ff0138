import type { SiteOutline, SiteSection } from './site-outline.util';

/**
 * What people call the sections of a site: a prompt's "articles" is a site's /blog or /journal,
 * "job openings" its /careers, "staff profiles" its /people. General site vocabulary.
 */
const SECTION_GROUPS: string[][] = [
  [
    'blog',
    'blogs',
    'article',
    'articles',
    'post',
    'posts',
    'journal',
    'story',
    'stories',
    'insights',
    'writing',
  ],
  [
    'news',
    'press',
    'newsroom',
    'announcement',
    'announcements',
    'update',
    'updates',
    'article',
    'articles',
    'story',
    'stories',
  ],
  [
    'docs',
    'doc',
    'documentation',
    'guide',
    'guides',
    'manual',
    'manuals',
    'handbook',
    'learn',
    'tutorial',
    'tutorials',
    'developer',
    'developers',
  ],
  ['api', 'reference', 'endpoint', 'endpoints', 'rest', 'sdk', 'sdks'],
  ['product', 'products', 'shop', 'store', 'catalog', 'catalogue', 'item', 'items', 'merchandise'],
  ['collection', 'collections', 'category', 'categories', 'range', 'ranges', 'department', 'departments'],
  [
    'career',
    'careers',
    'job',
    'jobs',
    'opening',
    'openings',
    'vacancy',
    'vacancies',
    'hiring',
    'position',
    'positions',
    'recruitment',
    'listing',
    'listings',
  ],
  ['pricing', 'price', 'prices', 'plan', 'plans'],
  [
    'customer',
    'customers',
    'case',
    'cases',
    'testimonial',
    'testimonials',
    'client',
    'clients',
    'story',
    'stories',
  ],
  ['changelog', 'changelogs', 'release', 'releases', 'note', 'notes', 'version', 'versions', 'whats-new'],
  ['legal', 'terms', 'privacy', 'policy', 'policies', 'imprint', 'dpa', 'cookie', 'cookies', 'compliance'],
  ['help', 'support', 'faq', 'faqs', 'center', 'centre', 'knowledge', 'kb', 'answers'],
  ['about', 'company', 'team', 'who-we-are', 'mission'],
  [
    'event',
    'events',
    'calendar',
    'conference',
    'conferences',
    'webinar',
    'webinars',
    'meetup',
    'meetups',
    'upcoming',
  ],
  [
    'people',
    'person',
    'staff',
    'team',
    'faculty',
    'profile',
    'profiles',
    'directory',
    'expert',
    'experts',
    'researcher',
    'researchers',
  ],
  [
    'course',
    'courses',
    'programme',
    'programmes',
    'program',
    'programs',
    'degree',
    'degrees',
    'module',
    'modules',
  ],
  ['study', 'studies', 'undergraduate', 'postgraduate', 'admissions'],
  ['research', 'project', 'projects', 'publication', 'publications', 'lab', 'labs'],
  ['recipe', 'recipes', 'cooking'],
  ['menu', 'menus', 'food', 'drink', 'drinks', 'dish', 'dishes'],
  ['account', 'login', 'signin', 'sign-in', 'profile', 'cart', 'basket', 'checkout', 'wishlist'],
  ['tag', 'tags', 'topic', 'topics'],
  ['author', 'authors', 'writer', 'writers', 'contributor', 'contributors'],
  ['opinion', 'comment', 'editorial', 'editorials', 'column', 'columns', 'piece', 'pieces'],
  ['sport', 'sports'],
  ['subscribe', 'subscription', 'subscriptions', 'newsletter'],
  ['gift', 'gifts', 'gift-cards', 'giftcard', 'vouchers', 'voucher'],
];

/** Language names in prompts → path prefixes. */
const LANGUAGES: Record<string, string> = {
  english: 'en',
  german: 'de',
  deutsch: 'de',
  french: 'fr',
  francais: 'fr',
  spanish: 'es',
  espanol: 'es',
  italian: 'it',
  dutch: 'nl',
  portuguese: 'pt',
  japanese: 'ja',
  chinese: 'zh',
  swedish: 'sv',
  norwegian: 'no',
  danish: 'da',
  finnish: 'fi',
  polish: 'pl',
  russian: 'ru',
  korean: 'ko',
  czech: 'cs',
  turkish: 'tr',
};

/** Words of a phrase that say "pages" rather than which pages. */
const GENERIC = new Set(
  'page pages section sections part parts area areas stuff content contents url urls path paths directory directories folder folders site website everything all whole entire ones one bit bits'.split(
    ' ',
  ),
);
const FILLER = new Set(
  'the a an our their its my your any all of for on in from to with about and or only just'.split(' '),
);

function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !/(?:news|status|sports)$/.test(word))
    return word.slice(0, -1);
  return word;
}

function groupsOf(word: string): number[] {
  const base = singular(word);
  return SECTION_GROUPS.flatMap((group, index) =>
    group.includes(word) || group.includes(base) ? [index] : [],
  );
}

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** How well one prompt word names a section: its path words (3), anchor texts (3), a synonym (1.5), a language (3). */
function wordScore(word: string, section: SiteSection, generic: boolean): number {
  const pathWords = section.path.split('/').flatMap((segment) => wordsOf(segment));
  const labelWords = section.labels.flatMap(wordsOf);
  const base = singular(word);
  const exact = (candidates: string[]) =>
    candidates.some((candidate) => candidate === word || singular(candidate) === base);
  const language = LANGUAGES[word];
  if (language && section.path.split('/')[1] === language) return 3;
  if (exact(pathWords)) return generic ? 1 : 3;
  if (exact(labelWords)) return generic ? 1 : 2.5;
  const prefix = (candidates: string[]) =>
    base.length >= 5 &&
    candidates.some(
      (candidate) =>
        candidate.length >= 5 &&
        (candidate.startsWith(base.slice(0, 5)) || base.startsWith(candidate.slice(0, 5))),
    );
  if (prefix(pathWords)) return generic ? 0.5 : 2;
  const groups = groupsOf(word);
  if (
    groups.length &&
    [...pathWords, ...labelWords].some((candidate) =>
      groupsOf(candidate).some((group) => groups.includes(group)),
    )
  )
    return generic ? 0.75 : 1.5;
  return 0;
}

/**
 * The sections of `outline` a phrase of a prompt names ("the blog articles", "API docs",
 * "postgraduate study pages"): the best-scoring sections, the shallowest among equals, or none
 * when no word of the phrase names a section.
 */
export function sectionsNamed(phrase: string, outline: SiteOutline): SiteSection[] {
  const all = wordsOf(phrase).filter((word) => !FILLER.has(word));
  const specific = all.filter((word) => !GENERIC.has(word));
  const words = specific.length ? specific : all;
  if (words.length === 0) return [];
  let best = 0;
  const scored = outline.sections.map((section) => {
    const score = words.reduce((sum, word) => sum + wordScore(word, section, !specific.includes(word)), 0);
    best = Math.max(best, score);
    return { section, score };
  });
  if (best < 1.5) return [];
  const top = scored.filter((entry) => entry.score >= best - 1e-9);
  const depth = (section: SiteSection) => section.path.split('/').length;
  const shallowest = Math.min(...top.map((entry) => depth(entry.section)));
  return top
    .filter((entry) => depth(entry.section) === shallowest)
    .map((entry) => entry.section)
    .filter(
      (section, index, list) =>
        !list.some((other, otherIndex) => otherIndex !== index && section.path.startsWith(`${other.path}/`)),
    );
}

/** A path prefix as an include/exclude pattern on the URL path. */
export function sectionPattern(section: SiteSection): string {
  return `^${section.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/|$)`;
}
