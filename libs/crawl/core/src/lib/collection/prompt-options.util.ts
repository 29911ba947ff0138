import type { CrawlerOptions } from '@quarry/contracts';

/** Crawler options a prompt can set (compat §8.3 `params-preview` data). */
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

const NOUNS = '(?:pages?|sections?|posts?|articles?|docs|documentation|directory|directories|folders?|urls?|paths?)';
const LIST = "([a-z0-9/_.-]+(?:\\s*(?:,|and|or|&)\\s*[a-z0-9/_.-]+)*)";
const STOP = new Set(['the', 'a', 'an', 'all', 'any', 'pages', 'page', 'site', 'website', 'and', 'or', 'of', 'to', 'in', 'on', 'with']);

/**
 * Crawler options from a natural-language prompt without a language model (the platform's
 * deterministic fallback): limits ("up to 50 pages"), depth ("2 levels deep"), sections to keep or
 * skip ("only the blog posts", "exclude /careers and /legal"), subdomains, external links, the whole
 * domain, sitemap use, query strings and delays. What it cannot read it leaves unset and says so.
 */
export function crawlOptionsFromPrompt(prompt: string): PromptDerivation {
  let text = ` ${prompt.toLowerCase().replace(/\s+/g, ' ')} `;
  const options: PromptOptions = {};
  const take = (pattern: RegExp, apply: (match: RegExpExecArray) => void) => {
    const match = pattern.exec(text);
    if (!match) return;
    apply(match);
    text = text.replace(match[0], ' ');
  };

  take(/\b(?:ignore|skip|without|no|don'?t use)\s+(?:the\s+)?sitemaps?\b/, () => (options.sitemap = 'skip'));
  take(/\b(?:only\s+(?:the\s+)?sitemaps?|sitemaps?\s+only)\b/, () => (options.sitemap = 'only'));
  take(/\bignor(?:e|ing)\s+(?:the\s+)?query\s+(?:parameters|params|strings?)\b/, () => (options.ignoreQueryParameters = true));
  take(/\b(?:no|without|exclude|excluding|not)\s+subdomains?\b/, () => (options.allowSubdomains = false));
  take(/\b(?:and|include|including|with|plus|also|allow)?\s*(?:its\s+|all\s+)?subdomains?\b/, () => (options.allowSubdomains ??= true));
  take(/\b(?:no|without|not)\s+(?:following\s+)?external\s+(?:links|sites|domains)\b/, () => (options.allowExternalLinks = false));
  take(/\bexternal\s+(?:links|sites|domains)\b/, () => (options.allowExternalLinks ??= true));
  take(/\b(?:entire|whole|full|complete)\s+(?:site|domain|website)\b/, () => (options.crawlEntireDomain = true));
  take(/\b(?:delay|wait)\s+(?:of\s+)?(\d+(?:\.\d+)?)\s*(?:s|secs?|seconds?)\b/, (match) => {
    const seconds = Number(match[1]);
    if (seconds > 0 && seconds <= 60) options.delay = seconds;
  });
  take(/\b(?:(\d{1,3})\s+levels?\s+deep|(?:max(?:imum)?\s+)?depth\s+(?:of\s+)?(\d{1,3}))\b/, (match) => (options.maxDiscoveryDepth = Number(match[1] ?? match[2])));
  take(/\b(?:up to|at most|max(?:imum)?(?: of)?|limit(?: of| to)?|first|only|just)?\s*(\d{1,6})\s+(?:pages?|urls?|documents?)\b/, (match) => {
    const limit = Number(match[1]);
    if (limit > 0) options.limit = limit;
  });
  take(new RegExp(`\\b(?:exclude|excluding|skip|skipping|ignore|ignoring|except|avoid|not)\\s+(?:the\\s+|any\\s+|all\\s+)?${LIST}(?:\\s+${NOUNS})?`), (match) => {
    const paths = sections(match[1]);
    if (paths.length) options.excludePaths = paths;
  });
  take(new RegExp(`\\b(?:only|just|limited to|restricted to|under|within|inside)\\s+(?:the\\s+)?${LIST}(?:\\s+${NOUNS})?`), (match) => {
    const paths = sections(match[1]);
    if (paths.length) options.includePaths = paths;
  });
  if (!options.includePaths) {
    take(new RegExp(`\\b(?:all|every)\\s+(?:the\\s+)?${LIST}\\s+${NOUNS}`), (match) => {
      const paths = sections(match[1]);
      if (paths.length) options.includePaths = paths;
    });
  }
  return Object.keys(options).length > 0 ? { options } : { options, warning: 'No crawl options could be read from the prompt; the crawl uses its defaults.' };
}

/** `"blog and /docs/api"` → `["^/blog(?:/|$)", "^/docs/api(?:/|$)"]` (regular expressions on the path). */
function sections(list: string): string[] {
  return list
    .split(/\s*(?:,|\band\b|\bor\b|&)\s*/)
    .map((item) => item.trim().replace(/^\/+|\/+$/g, ''))
    .map((item) => (item === 'docs' || item === 'news' ? item : item.replace(/s$/, '')))
    .filter((item) => item && !STOP.has(item) && /^[a-z0-9][a-z0-9/_.-]*$/.test(item))
    .map((item) => `^/${item.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:s)?(?:/|$)`);
}
