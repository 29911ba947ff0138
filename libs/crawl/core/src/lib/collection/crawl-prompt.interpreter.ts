import { crawlerOptionsShape } from '@quarry/contracts';
import { isLlmError, type LlmProvider } from '@quarry/llm';

import { crawlOptionsFromPrompt, type PromptDerivation, type PromptOptions } from './prompt-options.util';
import type { SiteOutline } from './site-outline.util';

type PromptKey = keyof PromptOptions;

const KEYS: readonly PromptKey[] = [
  'includePaths',
  'excludePaths',
  'maxDiscoveryDepth',
  'crawlEntireDomain',
  'allowExternalLinks',
  'allowSubdomains',
  'sitemap',
  'ignoreQueryParameters',
  'deduplicateSimilarURLs',
  'delay',
  'limit',
];

const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });
const patterns = nullable({ type: 'array', items: { type: 'string' } });

/** What the model answers: every option, null when the prompt does not ask for it. */
const ANSWER_SCHEMA = {
  type: 'object',
  properties: {
    includePaths: patterns,
    excludePaths: patterns,
    maxDiscoveryDepth: nullable({ type: 'integer', minimum: 0 }),
    crawlEntireDomain: nullable({ type: 'boolean' }),
    allowExternalLinks: nullable({ type: 'boolean' }),
    allowSubdomains: nullable({ type: 'boolean' }),
    sitemap: nullable({ type: 'string', enum: ['skip', 'include', 'only'] }),
    ignoreQueryParameters: nullable({ type: 'boolean' }),
    deduplicateSimilarURLs: nullable({ type: 'boolean' }),
    delay: nullable({ type: 'number', exclusiveMinimum: 0, maximum: 60 }),
    limit: nullable({ type: 'integer', minimum: 1 }),
  },
  required: [...KEYS],
  additionalProperties: false,
} as const;

const INSTRUCTIONS = `You turn a user's natural-language instructions for a web crawl into crawler options.
Answer one JSON object with exactly these keys; use null for every option the instructions do not ask for.
- includePaths / excludePaths: JavaScript regular expressions matched against the URL path (e.g. "^/blog(?:/|$)"); include = only crawl matching paths, exclude = skip matching paths.
- maxDiscoveryDepth: how many link hops from the start page.
- crawlEntireDomain: true to crawl the whole domain, not only pages below the start path.
- allowExternalLinks: follow links to other sites. allowSubdomains: follow links to subdomains.
- sitemap: "only" (sitemap URLs only), "skip" (ignore the sitemap) or "include".
- ignoreQueryParameters: treat URLs differing only in their query string as one page.
- deduplicateSimilarURLs: treat www/non-www, http/https and index.html variants as one page.
- delay: seconds to wait between requests to the site. limit: the most pages to crawl.`;

export interface PromptContext {
  teamId?: string;
  signal?: AbortSignal;
}

/** Reads the sections a site shows (its navigation and sitemap) for the offline reading of a prompt. */
export interface SiteOutlineSource {
  read(url: string, signal?: AbortSignal): Promise<SiteOutline | undefined>;
}

const OFFLINE_WARNING =
  'crawl prompt: no language model is configured (LLM_BASE_URL); the options were read from the prompt by rules';

/**
 * Crawler options from a crawl's `prompt` (docs/crawl.md#crawl-options): asked of the language model when one
 * is configured — each answered option checked by the crawl contract's own rules, invalid ones
 * dropped with a warning — and read by rules (`crawlOptionsFromPrompt`) when no model is configured
 * or the model cannot be reached, which the warning says.
 */
export class CrawlPromptInterpreter {
  constructor(
    private readonly llm: LlmProvider,
    private readonly timeoutMs = 30_000,
    private readonly outlines?: SiteOutlineSource,
  ) {}

  async derive(url: string, prompt: string, context: PromptContext = {}): Promise<PromptDerivation> {
    if (!this.llm.available)
      return this.byRules(url, prompt, OFFLINE_WARNING, ' (offline fallback)', context);
    let answer: unknown;
    try {
      const result = await this.llm.complete({
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          { role: 'user', content: `Start URL: ${url}\nInstructions: ${prompt}` },
        ],
        responseSchema: {
          name: 'crawl_options',
          schema: ANSWER_SCHEMA as unknown as Record<string, unknown>,
        },
        maxOutputTokens: 500,
        temperature: 0,
        signal: context.signal,
        deadline: Date.now() + this.timeoutMs,
        usage: { teamId: context.teamId, purpose: 'crawl.prompt' },
      });
      answer = result.json;
    } catch (error) {
      if (!isLlmError(error)) throw error;
      const note = `The language model could not read the prompt (${error.message}); the options were read from it by rules`;
      return this.byRules(url, prompt, note, '', context);
    }
    return checkedOptions(answer);
  }

  /**
   * The rules, with the site's sections when its outline can be read ("the blog articles" → the
   * site's /journal), and the warning saying no model was used and which sections were matched.
   */
  private async byRules(
    url: string,
    prompt: string,
    reason: string,
    label: string,
    context: PromptContext,
  ): Promise<PromptDerivation> {
    const outline = await this.outlines?.read(url, context.signal).catch(() => undefined);
    const derived = crawlOptionsFromPrompt(prompt, outline);
    const basis = outline ? ", matching the sections the site's links and sitemap show" : '';
    return {
      options: derived.options,
      warning: [`${reason}${basis}${label}.`, derived.warning].filter(Boolean).join(' '),
    };
  }
}

/** The model's answer, each option validated by the crawl contract; what fails is named in the warning. */
function checkedOptions(answer: unknown): PromptDerivation {
  const options: Record<string, unknown> = {};
  const dropped: string[] = [];
  const fields = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  for (const key of KEYS) {
    const value = fields[key];
    if (value === null || value === undefined) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    const parsed = crawlerOptionsShape[key].safeParse(value);
    if (parsed.success) options[key] = parsed.data;
    else dropped.push(key);
  }
  const warnings = [
    dropped.length ? `The language model's value of ${dropped.join(', ')} was invalid and is not used.` : '',
    Object.keys(options).length === 0
      ? 'No crawl options could be read from the prompt; the crawl uses its defaults.'
      : '',
  ].filter(Boolean);
  return { options: options as PromptOptions, ...(warnings.length ? { warning: warnings.join(' ') } : {}) };
}
