import { assertPageWithinLimits, countPage, PageTooLargeError } from './page-limits.util';

describe('page limits', () => {
  it('counts start tags and links in text and in bytes alike', () => {
    const page =
      '<!doctype html><html><body><a href="/">x</a><A\nhref=/y>y</A><abbr>z</abbr><p>1 < 2</p><!-- <b> --></body></html>';
    const expected = { elements: 7, links: 2 }; // html body a A abbr p b
    expect(countPage(page)).toEqual(expected);
    expect(countPage(Buffer.from(page))).toEqual(expected);
  });

  it('counts tags at the very end of the page and runs of "<"', () => {
    expect(countPage('<a')).toEqual({ elements: 1, links: 1 });
    expect(countPage('x<a>')).toEqual({ elements: 1, links: 1 });
    expect(countPage('<<<ab<A')).toEqual({ elements: 2, links: 1 }); // ab, A
    expect(countPage('<')).toEqual({ elements: 0, links: 0 });
    expect(countPage('')).toEqual({ elements: 0, links: 0 });
    expect(countPage(new Uint8Array([0x3c, 0x61]))).toEqual({ elements: 1, links: 1 });
  });

  it('counts as a character-by-character reading does, on random markup', () => {
    const reference = (page: string) => {
      let elements = 0;
      let links = 0;
      for (let i = 0; i < page.length - 1; i += 1) {
        if (page[i] !== '<' || !/[a-z]/i.test(page[i + 1])) continue;
        elements += 1;
        if (/a/i.test(page[i + 1]) && (i + 2 >= page.length || /[\s>/]/.test(page[i + 2]))) links += 1;
      }
      return { elements, links };
    };
    const alphabet = ['<', 'a', 'A', 'b', ' ', '>', '/', '\n', '1', '<a ', '<a>', '</a>'];
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let round = 0; round < 500; round += 1) {
      let page = '';
      const length = Math.floor(random() * 60);
      for (let i = 0; i < length; i += 1) page += alphabet[Math.floor(random() * alphabet.length)];
      expect(countPage(page)).toEqual(reference(page));
      expect(countPage(Buffer.from(page))).toEqual(reference(page));
    }
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
