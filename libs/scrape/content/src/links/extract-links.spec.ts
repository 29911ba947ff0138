import { extractLinks } from './extract-links.util';

describe('extractLinks', () => {
  const sut = extractLinks;

  it('returns absolute http(s) links, de-duplicated in document order', () => {
    const html = `<nav><a href="/a">A</a><a href="b?x=1">B</a></nav>
      <a href="https://other.example/c">C</a><a href="/a">A again</a>
      <a href="mailto:x@example.com">mail</a><a href="javascript:void(0)">js</a><a href="#top">top</a>`;
    expect(sut(html, 'https://example.com/dir/page')).toEqual([
      'https://example.com/a',
      'https://example.com/dir/b?x=1',
      'https://other.example/c',
      'https://example.com/dir/page#top',
    ]);
  });

  it('resolves against <base href>', () => {
    const html = '<head><base href="https://cdn.example.com/root/"></head><body><a href="x">x</a></body>';
    expect(sut(html, 'https://example.com/page')).toEqual(['https://cdn.example.com/root/x']);
  });

  it('reads the raw page, chrome included', () => {
    const html = '<header><a href="/home">Home</a></header><footer><a href="/legal">Legal</a></footer>';
    expect(sut(html, 'https://example.com/')).toEqual([
      'https://example.com/home',
      'https://example.com/legal',
    ]);
  });
});
