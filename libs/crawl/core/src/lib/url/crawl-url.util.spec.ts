import { crawlTarget, crawlUrlKey, parseHttpUrl } from './crawl-url.util';
import { isWithinDomain, registrableDomain } from './registrable-domain.util';

const key = (raw: string, options = { ignoreQueryParameters: false, deduplicateSimilarURLs: true }) =>
  crawlUrlKey(parseHttpUrl(raw) as URL, options);

describe('crawl URL keys', () => {
  it('treats www/non-www, http/https, trailing slash and index files as one page when deduplicating', () => {
    const variants = [
      'http://example.com/docs',
      'https://www.example.com/docs/',
      'https://example.com/docs/index.html',
      'http://EXAMPLE.com/docs/index.php',
      'https://example.com:443/docs#part',
    ];
    expect(new Set(variants.map((variant) => key(variant))).size).toBe(1);
  });

  it('keeps the variants apart without deduplicateSimilarURLs', () => {
    const options = { ignoreQueryParameters: false, deduplicateSimilarURLs: false };
    expect(key('http://example.com/docs', options)).not.toBe(key('https://example.com/docs', options));
    expect(key('https://example.com/docs/', options)).not.toBe(key('https://www.example.com/docs/', options));
  });

  it('sorts query parameters, or drops them with ignoreQueryParameters', () => {
    expect(key('https://example.com/a?b=2&a=1')).toBe(key('https://example.com/a?a=1&b=2'));
    expect(key('https://example.com/a?a=1')).not.toBe(key('https://example.com/a?a=2'));
    const ignoring = { ignoreQueryParameters: true, deduplicateSimilarURLs: true };
    expect(key('https://example.com/a?a=1', ignoring)).toBe(key('https://example.com/a?a=2', ignoring));
    expect(crawlTarget(parseHttpUrl('https://example.com/a?a=1#x') as URL, ignoring)).toBe(
      'https://example.com/a',
    );
  });

  it('refuses non-http URLs and drops fragments', () => {
    expect(parseHttpUrl('mailto:a@example.com')).toBeUndefined();
    expect(parseHttpUrl('ftp://example.com/file')).toBeUndefined();
    expect(parseHttpUrl('/relative', 'https://example.com/dir/')?.href).toBe('https://example.com/relative');
    expect(parseHttpUrl('https://example.com/a#frag')?.href).toBe('https://example.com/a');
    expect(parseHttpUrl('https://example.com/a?q=1#')?.href).toBe('https://example.com/a?q=1');
    expect(parseHttpUrl('', 'https://example.com/a#base')?.href).toBe('https://example.com/a');
    expect(parseHttpUrl('https://example.com/a%23b?c=%23d')?.href).toBe('https://example.com/a%23b?c=%23d');
  });
});

describe('registrable domains', () => {
  it('approximates the registrable domain', () => {
    expect(registrableDomain('docs.example.com')).toBe('example.com');
    expect(registrableDomain('a.b.example.co.uk')).toBe('example.co.uk');
    expect(registrableDomain('sub.localhost')).toBe('localhost');
    expect(registrableDomain('127.0.0.1')).toBe('127.0.0.1');
    expect(isWithinDomain('deep.docs.example.com', 'example.com')).toBe(true);
    expect(isWithinDomain('notexample.com', 'example.com')).toBe(false);
  });
});
