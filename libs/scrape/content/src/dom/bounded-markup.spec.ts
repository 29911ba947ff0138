import { boundedMarkup, nestingBound } from './bounded-markup.util';
import { MAX_DOM_DEPTH } from './limit-depth.util';
import { parseHtml } from './parse-html.util';

/** The deepest element of the parsed markup, counted from the document (iterative). */
function parsedDepth(html: string): number {
  let deepest = 0;
  const stack = [{ node: parseHtml(html).firstElementChild, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as (typeof stack)[number];
    for (let child = node; child; child = child.nextElementSibling) {
      deepest = Math.max(deepest, depth);
      stack.push({ node: child.firstElementChild, depth: depth + 1 });
    }
  }
  return deepest;
}

describe('nestingBound', () => {
  const sut = nestingBound;

  it.each([
    ['nested elements', '<div><section><p>a</p></section></div>'],
    ['void elements', '<div><img src="a"><br><input><hr></div>'],
    ['elements closed by the next tag', `<ul>${'<li>item'.repeat(50)}</ul><p>a<p>b<p>c`],
    ['end tags that match nothing open', `${'</div></span>'.repeat(40)}${'<div><b>'.repeat(30)}x`],
    ['an end tag closing several elements', `${'<div><span><i>'.repeat(20)}x${'</div>'.repeat(20)}<p>y</p>`],
    ['stray end tags between start tags', '<div></x><div></y><div></p><div>'.repeat(25)],
    ['tags in comments and attributes', '<!-- <div><div> --><a title="<b><b>">x</a><div>y</div>'],
  ])('is never below the parsed depth: %s', (_name, html) => {
    expect(sut(html)).toBeGreaterThanOrEqual(parsedDepth(html));
  });

  it('counts a page of ordinary markup near its real depth', () => {
    const html =
      '<html><head><title>t</title></head><body><main><article><p>a <b>b</b></p></article></main></body></html>';
    expect(sut(html)).toBe(parsedDepth(html));
  });
});

describe('boundedMarkup', () => {
  const sut = boundedMarkup;

  it('returns markup that cannot nest past the bound as given', () => {
    const html = `<html><body>${'<div>'.repeat(MAX_DOM_DEPTH - 5)}<p class="a">x &amp; y</p></body></html>`;
    expect(sut(html)).toBe(html);
  });

  it('flattens deeper markup, keeping its text in order, script bodies and the kept elements attributes', () => {
    const depth = 50_000;
    const html =
      '<html><head><script type="application/ld+json">{"@type":"Product","name":"a <b> & c"}</script></head>' +
      `<body>${'<div class="d">'.repeat(depth)}<span itemprop="price" content="5">deep</span>${'</div>'.repeat(depth)}` +
      '<p id="after">after</p></body></html>';
    const started = performance.now();
    const bounded = sut(html);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(nestingBound(bounded)).toBeLessThanOrEqual(MAX_DOM_DEPTH);
    expect(bounded).toContain(
      '<script type="application/ld+json">{"@type":"Product","name":"a <b> & c"}</script>',
    );
    expect(bounded).toMatch(
      /^<html><head><script[^]*<\/script><\/head><body>(<div class="d">)+deep(<\/div>)+<p id="after">after<\/p><\/body><\/html>$/,
    );
  });
});
