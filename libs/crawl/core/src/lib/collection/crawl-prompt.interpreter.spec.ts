import { type CompletionRequest, LlmError, type LlmProvider, OfflineProvider } from '@quarry/llm';

import { CrawlPromptInterpreter } from './crawl-prompt.interpreter';
import { outlineFromLinks } from './site-outline.util';

/** A model at the boundary: answers `reply` (or throws it) and keeps the requests it saw. */
function model(reply: unknown | LlmError): LlmProvider & { requests: CompletionRequest[] } {
  const requests: CompletionRequest[] = [];
  return {
    available: true,
    model: 'fake',
    maxOutputTokens: 1_000,
    maxInputChars: 10_000,
    requests,
    complete: async (request) => {
      requests.push(request);
      if (reply instanceof LlmError) throw reply;
      return {
        text: JSON.stringify(reply),
        json: reply,
        usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
        model: 'fake',
        finishReason: 'stop',
        attempts: 1,
      };
    },
  };
}

const none = {
  includePaths: null,
  excludePaths: null,
  maxDiscoveryDepth: null,
  crawlEntireDomain: null,
  allowExternalLinks: null,
  allowSubdomains: null,
  sitemap: null,
  ignoreQueryParameters: null,
  deduplicateSimilarURLs: null,
  delay: null,
  limit: null,
};

describe('CrawlPromptInterpreter', () => {
  it('reads the prompt by rules when no model is configured, saying so', async () => {
    const sut = new CrawlPromptInterpreter(new OfflineProvider(1_000, 10_000));
    expect(await sut.derive('https://a.example/', 'only the blog posts, up to 20 pages')).toEqual({
      options: { includePaths: ['^/blog(?:s)?(?:/|$)'], limit: 20 },
      warning:
        'crawl prompt: no language model is configured (LLM_BASE_URL); the options were read from the prompt by rules (offline fallback).',
    });
  });

  it("maps sections onto the site's own when its outline can be read", async () => {
    const outline = outlineFromLinks(
      'https://cafe.example/',
      [
        { url: 'https://cafe.example/journal', text: 'Blog' },
        { url: 'https://cafe.example/journal/new-roaster', text: 'Our new roaster' },
        { url: 'https://cafe.example/recipes/buns', text: 'Cardamom buns' },
      ],
      ['https://cafe.example/journal/summer-hours', 'https://cafe.example/menu/lunch'],
    );
    const read: string[] = [];
    const sut = new CrawlPromptInterpreter(new OfflineProvider(1_000, 10_000), 30_000, {
      read: async (url) => (read.push(url), outline),
    });
    const derived = await sut.derive('https://cafe.example/', 'Only crawl the blog articles');
    expect(read).toEqual(['https://cafe.example/']);
    expect(derived.options).toEqual({ includePaths: ['^/journal(?:/|$)'] });
    expect(derived.warning).toBe(
      "crawl prompt: no language model is configured (LLM_BASE_URL); the options were read from the prompt by rules, matching the sections the site's links and sitemap show (offline fallback).",
    );
  });

  it('asks the model for structured options and keeps what the crawl contract accepts', async () => {
    const llm = model({ ...none, includePaths: ['^/pricing'], limit: 25, sitemap: 'skip', excludePaths: [] });
    const sut = new CrawlPromptInterpreter(llm);
    expect(
      await sut.derive('https://a.example/', 'the pricing pages, 25 at most, no sitemap', { teamId: 't' }),
    ).toEqual({
      options: { includePaths: ['^/pricing'], limit: 25, sitemap: 'skip' },
    });
    expect(llm.requests[0]).toMatchObject({
      responseSchema: { name: 'crawl_options' },
      usage: { teamId: 't', purpose: 'crawl.prompt' },
    });
    expect(llm.requests[0].messages[1].content).toBe(
      'Start URL: https://a.example/\nInstructions: the pricing pages, 25 at most, no sitemap',
    );
  });

  it('drops invalid answers with a warning naming them', async () => {
    const sut = new CrawlPromptInterpreter(
      model({ ...none, includePaths: ['(unclosed'], delay: 600, limit: 5 }),
    );
    expect(await sut.derive('https://a.example/', 'x')).toEqual({
      options: { limit: 5 },
      warning: "The language model's value of includePaths, delay was invalid and is not used.",
    });
    const empty = new CrawlPromptInterpreter(model(none));
    expect((await empty.derive('https://a.example/', 'x')).warning).toBe(
      'No crawl options could be read from the prompt; the crawl uses its defaults.',
    );
  });

  it('falls back to the rules, saying so, when the model cannot be reached', async () => {
    const sut = new CrawlPromptInterpreter(model(new LlmError('timeout', 'no answer within 1000 ms')));
    expect(await sut.derive('https://a.example/', 'up to 7 pages')).toEqual({
      options: { limit: 7 },
      warning:
        'The language model could not read the prompt (no answer within 1000 ms); the options were read from it by rules.',
    });
  });
});
