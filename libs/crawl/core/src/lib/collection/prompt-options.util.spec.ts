import { crawlOptionsFromPrompt } from './prompt-options.util';

describe('crawlOptionsFromPrompt', () => {
  it('reads limits, depth, sections and switches', () => {
    expect(
      crawlOptionsFromPrompt('Crawl only the blog posts, up to 25 pages, 2 levels deep').options,
    ).toEqual({
      includePaths: ['^/blog(?:s)?(?:/|$)'],
      limit: 25,
      maxDiscoveryDepth: 2,
    });
    expect(
      crawlOptionsFromPrompt(
        'Get the entire site and its subdomains but exclude /careers and /legal, ignore the sitemap',
      ).options,
    ).toEqual({
      crawlEntireDomain: true,
      allowSubdomains: true,
      excludePaths: ['^/career(?:s)?(?:/|$)', '^/legal(?:s)?(?:/|$)'],
      sitemap: 'skip',
    });
    expect(
      crawlOptionsFromPrompt('follow external links with a delay of 2 seconds, ignoring query parameters')
        .options,
    ).toEqual({
      allowExternalLinks: true,
      delay: 2,
      ignoreQueryParameters: true,
    });
    expect(crawlOptionsFromPrompt('only the docs section').options.includePaths).toEqual([
      '^/docs(?:s)?(?:/|$)',
    ]);
  });

  it('warns when nothing can be read', () => {
    const derivation = crawlOptionsFromPrompt('something nice please');
    expect(derivation.options).toEqual({});
    expect(derivation.warning).toMatch(/No crawl options/);
  });

  it('produces patterns that match the intended paths', () => {
    const [pattern] = crawlOptionsFromPrompt('only the blog posts').options.includePaths ?? [];
    expect(new RegExp(pattern).test('/blog/post-1')).toBe(true);
    expect(new RegExp(pattern).test('/blog')).toBe(true);
    expect(new RegExp(pattern).test('/blogroll')).toBe(false);
  });
});
