import { assertPageWithinLimits, countPage, PageTooLargeError } from './page-limits.util';

describe('page limits', () => {
  it('counts start tags and links in text and in bytes alike', () => {
    const page =
      '<!doctype html><html><body><a href="/">x</a><A\nhref=/y>y</A><abbr>z</abbr><p>1 < 2</p><!-- <b> --></body></html>';
    const expected = { elements: 7, links: 2 }; // html body a A abbr p b
    expect(countPage(page)).toEqual(expected);
    expect(countPage(Buffer.from(page))).toEqual(expected);
  });

  it('names the bound a page passes, with its count', () => {
    const links = `<body>${'<a href="/p">p</a>'.repeat(1_200)}</body>`;
    expect(() => assertPageWithinLimits(links, { maxElements: 10_000, maxLinks: 1_000 })).toThrow(
      new PageTooLargeError('page too large to process: 1,200 links (limit 1,000, MAX_PAGE_LINKS)'),
    );
    const divs = `<body>${'<div>x</div>'.repeat(3_000)}</body>`;
    expect(() => assertPageWithinLimits(divs, { maxElements: 2_500, maxLinks: 1_000 })).toThrow(
      'page too large to process: 3,001 elements (limit 2,500, MAX_PAGE_ELEMENTS)',
    );
    expect(() => assertPageWithinLimits(divs, { maxElements: 5_000, maxLinks: 1_000 })).not.toThrow();
  });
});
