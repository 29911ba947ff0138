import { linksWithText } from './site-outline.util';

describe('linksWithText', () => {
  it('reads links with their anchor text, skipping scripts, styles, comments and non-page links', () => {
    const html = `<nav><a href="/journal" class="x">Blog</a> <A HREF='/people'><b>Our</b>&nbsp;team</A>
      <a href="#top">Top</a> <a href="mailto:x@y.z">Mail</a> <a name="n">no href</a>
      <!-- <a href="/hidden">Hidden</a> --><script>var a = '<a href="/in-script">x</a>';</script>
      <a href=/careers>Jobs &amp; roles</a></nav>`;
    expect(linksWithText(html, 'https://site.test/')).toEqual([
      { url: 'https://site.test/journal', text: 'Blog' },
      { url: 'https://site.test/people', text: 'Our team' },
      { url: 'https://site.test/careers', text: 'Jobs & roles' },
    ]);
  });

  it.each([
    ['100,000 unclosed anchors', `<a href="/a">A</a>${'<a href="/x">x '.repeat(100_000)}`],
    ['100,000 anchors without >', `<a href="/a">A</a>${'<a x '.repeat(100_000)}></a>`],
    [
      'an anchor text of 200,000 unclosed tags',
      `<a href="/a">A</a><a href="/b">${'<b '.repeat(200_000)}</a>`,
    ],
  ])('reads a page of %s in linear time (minutes of the event loop before)', (_name, html) => {
    const started = performance.now();
    const links = linksWithText(html, 'https://site.test/');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(links[0]).toEqual({ url: 'https://site.test/a', text: 'A' });
  });
});
