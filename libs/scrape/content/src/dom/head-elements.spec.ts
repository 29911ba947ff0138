import { headElements } from './head-elements.util';
import { parseDocument } from './parse-document.util';

describe('headElements', () => {
  it('finds the first base with href and title, every meta and every link with rel and href, anywhere', () => {
    const document = parseDocument(
      '<html><head><base target="_blank"><meta name="a" content="1"><link rel="icon"><link rel="icon" href="/f.ico"></head>' +
        '<body><title>T</title><base href="/x/"><base href="/y/"><meta property="og:title" content="O"><p>text</p></body></html>',
    );
    const found = headElements(document);
    expect(found.base?.getAttribute('href')).toBe('/x/');
    expect(found.title?.textContent).toBe('T');
    expect(found.metas.map((m) => m.getAttribute('content'))).toEqual(['1', 'O']);
    expect(found.links.map((l) => l.getAttribute('href'))).toEqual(['/f.ico']);
  });

  it('skips template contents, as querySelectorAll does', () => {
    const document = parseDocument(
      '<template><meta name="t" content="x"><base href="/t/"></template><p>x</p>',
    );
    expect(headElements(document)).toEqual({ metas: [], links: [] });
  });
});
