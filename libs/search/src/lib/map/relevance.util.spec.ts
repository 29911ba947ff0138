import { pageSummary } from './page-summary.util';
import { rankByRelevance } from './relevance.util';

describe('map helpers', () => {
  it('ranks links by relevance to the search, stable otherwise', () => {
    const links = [
      'https://e.com/about',
      'https://e.com/pricing-plans',
      'https://e.com/blog/pricing',
      'https://e.com/contact',
    ];
    const ranked = rankByRelevance(links, 'pricing', (url) => new URL(url).pathname.replace(/[-/]/g, ' '));
    expect(ranked).toEqual([
      'https://e.com/pricing-plans',
      'https://e.com/blog/pricing',
      'https://e.com/about',
      'https://e.com/contact',
    ]);
    expect(
      rankByRelevance(links, 'blog pricing', (url) => new URL(url).pathname.replace(/[-/]/g, ' '))[0],
    ).toBe('https://e.com/blog/pricing');
  });

  it('reads title and description of a page', () => {
    expect(
      pageSummary('<head><title> A &amp; B </title><meta content="About things" name="description"></head>'),
    ).toEqual({ title: 'A & B', description: 'About things' });
  });
});
