import { discoverLinks } from './discover-links.util';

describe('discoverLinks', () => {
  it('returns absolute http(s) links in document order, de-duplicated, without fragments', () => {
    const html = `<html><head><title>x</title></head><body>
      <a href="/a">A</a> <a class="x" href='b?x=1&amp;y=2'>B</a> <A HREF=/c#frag>C</A>
      <a href="/a#again">A again</a> <area href="/map-area">
      <a href="mailto:me@example.com">mail</a> <a href="javascript:void(0)">js</a> <a href="#top">top</a>
      <a href="https://other.example/x">other</a> <a name="anchor">no href</a>
      <!-- <a href="/commented">c</a> --> <script>var s = '<a href="/in-script">';</script>
    </body></html>`;
    expect(discoverLinks(html, 'https://example.com/dir/page')).toEqual([
      'https://example.com/a',
      'https://example.com/dir/b?x=1&y=2',
      'https://example.com/c',
      'https://example.com/map-area',
      'https://other.example/x',
    ]);
  });

  it('drops empty fragments and keeps encoded number signs', () => {
    expect(
      discoverLinks(
        '<a href="/x#">x</a><a href="/x">again</a><a href="?a=%23b#c">q</a><a href="/p%23q">p</a>',
        'https://example.com/dir/page#section',
      ),
    ).toEqual(['https://example.com/x', 'https://example.com/dir/page?a=%23b', 'https://example.com/p%23q']);
  });

  it('resolves against <base href>', () => {
    expect(
      discoverLinks(
        '<head><base href="https://cdn.example.com/root/"></head><a href="page">p</a>',
        'https://example.com/',
      ),
    ).toEqual(['https://cdn.example.com/root/page']);
  });
});
