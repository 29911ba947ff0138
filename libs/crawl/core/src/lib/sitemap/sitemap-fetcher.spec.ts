import { parseSitemap } from './sitemap-fetcher';

describe('parseSitemap', () => {
  it('reads urlset and sitemapindex documents, resolving relative locations', () => {
    const urlset = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <url><loc> https://example.com/a </loc><lastmod>2024-01-01</lastmod></url><url><loc>/b?x=1&amp;y=2</loc></url></urlset>`;
    expect(parseSitemap(urlset, 'https://example.com/sitemap.xml')).toEqual({
      urls: ['https://example.com/a', 'https://example.com/b?x=1&y=2'],
      children: [],
    });
    const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/s1.xml.gz</loc></sitemap></sitemapindex>`;
    expect(parseSitemap(index, 'https://example.com/sitemap.xml')).toEqual({
      urls: [],
      children: ['https://example.com/s1.xml.gz'],
    });
  });

  it('reads plain-text sitemaps', () => {
    expect(
      parseSitemap(
        'https://example.com/a\n\nnot a url\nhttps://example.com/b\n',
        'https://example.com/sitemap.txt',
      ).urls,
    ).toEqual(['https://example.com/a', 'https://example.com/b']);
  });
});
