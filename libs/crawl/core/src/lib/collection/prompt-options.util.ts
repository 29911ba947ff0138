import type { CrawlerOptions } from '@quarry/contracts';

import { sectionPattern, sectionsNamed } from './prompt-sections.util';
import type { SiteOutline } from './site-outline.util';

/** Crawler options a prompt can set (docs/crawl.md#crawl-options `params-preview` data). */
export type PromptOptions = Partial<
  Pick<
    CrawlerOptions,
    | 'includePaths'
    | 'excludePaths'
    | 'maxDiscoveryDepth'
    | 'crawlEntireDomain'
    | 'allowExternalLinks'
    | 'allowSubdomains'
    | 'sitemap'
    | 'ignoreQueryParameters'
    | 'deduplicateSimilarURLs'
    | 'delay'
    | 'limit'
  >
>;

export interface PromptDerivation {
  options: PromptOptions;
  warning?: string;
}

const STOP = new Set([
  'the',
  'a',
  'an',
  'all',
  'any',
  'pages',
  'page',
  'site',
  'website',
  'and',
  'or',
  'of',
  'to',
  'in',
  'on',
  'with',
]);

/** Where a clause naming sections ends. */
const BOUNDARY = String.raw`(?=\s*(?:[,;.!?]|\bbut\b|\bexcept\b|\bwithout\b|\bskip|\bexclud|\bignor|\bavoid|\bnot\b|\bno\b|\bplease\b|\bthanks?\b|$))`;
const PHRASE = String.raw`([a-z0-9/_.' -]+?)`;
const EXCLUDE_CUE = String.raw`\b(?:exclude|excluding|skip|skipping|ignore|ignoring|except(?: for)?|avoid|avoiding|without|leave out|leaving out|not|no|(?:everything|anything|all) but|don'?t (?:crawl|include|visit|index|scrape|touch|fetch)|do not (?:crawl|include|visit|index|scrape|touch|fetch))\s+`;
const INCLUDE_CUE = String.raw`\b(?:only|just|limited to|restricted to|focus(?:ing)? on|stick to|(?:i|we) (?:only )?(?:want|need)|crawl|get|fetch|scrape|index|visit|cover|include)\s+`;
const VERBS = /^(?:crawl|crawling|get|fetch|scrape|index|visit|cover|include|need|want|see|read|have)\s+/;

/**
 * Crawler options from a natural-language prompt without a language model (the platform's
 * deterministic fallback): limits ("up to 50 pages"), depth ("2 levels deep"), sections to keep or
 * skip ("only the blog posts", "exclude /careers and /legal"), subdomains, external links, the whole
 * domain, sitemap use, query strings and delays. With the site's outline (its navigation and
 * sitemap), sections are the site's own: "the blog articles" is its /journal when its navigation
 * calls it "Blog", "staff profiles" its /people. What it cannot read it leaves unset and says so.
 */
export function crawlOptionsFromPrompt(prompt: string, outline?: SiteOutline): PromptDerivation {
  let text = ` ${prompt.toLowerCase().replace(/\s+/g, ' ')} `;
  const options: PromptOptions = {};
  const take = (pattern: RegExp, apply: (match: RegExpExecArray) => void) => {
    const match = pattern.exec(text);
    if (!match) return;
    apply(match);
    text = text.replace(match[0], ' ');
  };

  take(/\b(?:ignore|skip|without|no|don'?t use)\s+(?:the\s+)?sitemaps?\b/, () => (options.sitemap = 'skip'));
  take(/\b(?:(?:use\s+)?only\s+(?:the\s+)?sitemaps?|sitemaps?\s+only)\b/, () => (options.sitemap = 'only'));
  take(
    /\bignor(?:e|ing)\s+(?:the\s+)?query\s+(?:parameters|params|strings?)\b/,
    () => (options.ignoreQueryParameters = true),
  );
  take(/\b(?:no|without|exclude|excluding|not)\s+subdomains?\b/, () => (options.allowSubdomains = false));
  take(
    /\b(?:and|include|including|with|plus|also|allow)?\s*(?:its\s+|all\s+)?subdomains?\b/,
    () => (options.allowSubdomains ??= true),
  );
  take(
    /\b(?:no|without|not)\s+(?:following\s+)?external\s+(?:links|sites|domains)\b/,
    () => (options.allowExternalLinks = false),
  );
  take(
    /\b(?:follow(?:ing)?\s+)?external\s+(?:links|sites|domains)\b/,
    () => (options.allowExternalLinks ??= true),
  );
  take(
    /\b(?:entire|whole|full|complete)\s+(?:site|domain|website)\b/,
    () => (options.crawlEntireDomain = true),
  );
  take(
    /\b(?:delay|wait)\s+(?:of\s+)?(\d+(?:\.\d+)?)\s*(?:s|secs?|seconds?)\b(?:\s+between\s+(?:requests|pages|fetches))?/,
    (match) => {
      const seconds = Number(match[1]);
      if (seconds > 0 && seconds <= 60) options.delay = seconds;
    },
  );
  take(
    /\b(?:(\d{1,3})\s+levels?\s+deep|(?:max(?:imum)?\s+)?depth\s+(?:of\s+)?(\d{1,3}))\b/,
    (match) => (options.maxDiscoveryDepth = Number(match[1] ?? match[2])),
  );
  take(
    /\b(?:up to|at most|no more than|max(?:imum)?(?: of)?|limit(?: of| to)?|first|only|just)?\s*(\d{1,6})\s+(?:pages?|urls?|documents?)\b|\blimit\s+(\d{1,6})\b/,
    (match) => {
      const limit = Number(match[1] ?? match[2]);
      if (limit > 0) options.limit = limit;
    },
  );

  const unmatched: string[] = [];
  const include: string[] = [];
  const exclude: string[] = [];
  const read = (pattern: RegExp, into: string[], strong: boolean) => {
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      text = text.replace(match[0], ' ');
      for (const item of match[1].replace(VERBS, '').split(/\s*(?:,|\band\b|\bor\b|&|\bplus\b)\s*/)) {
        const patterns = sectionPatterns(item, outline, strong);
        if (patterns === undefined) {
          if (item.trim() && wordsIn(item).length) unmatched.push(item.trim());
        } else into.push(...patterns);
      }
    }
  };
  read(new RegExp(`${EXCLUDE_CUE}(?:crawl(?:ing)?\\s+|include\\s+)?${PHRASE}${BOUNDARY}`), exclude, true);
  read(new RegExp(`\\b(?:only|just)\\s+${PHRASE}${BOUNDARY}`), include, true);
  read(new RegExp(`${PHRASE}\\s+only\\b`), include, true);
  read(new RegExp(`${INCLUDE_CUE}${PHRASE}${BOUNDARY}`), include, false);
  if (include.length) options.includePaths = [...new Set(include)];
  if (exclude.length) options.excludePaths = [...new Set(exclude)];

  const notes: string[] = [];
  if (outline && unmatched.length)
    notes.push(
      `No section of the site matches ${unmatched.map((item) => `"${item}"`).join(', ')}; ${unmatched.length > 1 ? 'they were' : 'it was'} not used.`,
    );
  if (Object.keys(options).length === 0)
    notes.push('No crawl options could be read from the prompt; the crawl uses its defaults.');
  return notes.length ? { options, warning: notes.join(' ') } : { options };
}

function wordsIn(item: string): string[] {
  return item
    .split(/[^a-z0-9]+/)
    .filter(
      (word) =>
        word &&
        !STOP.has(word) &&
        !/^(?:pages?|sections?|posts?|articles?|stuff|content|everything|ones?)$/.test(word),
    );
}

/**
 * Patterns for one item of a prompt's list: an explicit path ("/careers") as written; else the
 * site's sections it names (with an outline); else, without an outline and for a clear "only …" /
 * "exclude …", the word itself as a path. Undefined when nothing could be read.
 */
function sectionPatterns(
  item: string,
  outline: SiteOutline | undefined,
  strong: boolean,
): string[] | undefined {
  const cleaned = item.trim();
  if (!cleaned) return undefined;
  if (/(?:^|\s)\/[a-z0-9]/.test(cleaned))
    return literalSections(cleaned.match(/\/[a-z0-9/_.-]+/g)?.join(' and ') ?? '');
  if (outline) {
    const named = sectionsNamed(cleaned, outline);
    return named.length ? named.map(sectionPattern) : undefined;
  }
  if (!strong) return undefined;
  const paths = literalSections(wordsIn(cleaned).slice(0, 1).join(' '));
  return paths.length ? paths : undefined;
}

/** \`"blog and /docs/api"\` → \`["^/blog(?:/|$)", "^/docs/api(?:/|$)"]\` (regular expressions on the path). */
function literalSections(list: string): string[] {
  return list
    .split(/\s*(?:,|\band\b|\bor\b|&)\s*/)
    .map((item) => item.trim().replace(/^\/+|\/+$/g, ''))
    .map((item) => (item === 'docs' || item === 'news' || item.includes('/') ? item : item.replace(/s$/, '')))
    .filter((item) => item && !STOP.has(item) && /^[a-z0-9][a-z0-9/_.-]*$/.test(item))
    .map((item) => `^/${item.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:s)?(?:/|$)`);
}
