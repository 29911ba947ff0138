import { parseDocument } from './parse-document.util';
import { MAX_PARSE_DEPTH, parseHtml } from './parse-html.util';

describe('parseHtml', () => {
  const sut = parseHtml;

  const firstElement = (html: string) => {
    const element = sut(html).firstElementChild;
    if (!element) throw new Error('no element');
    return element;
  };

  it('keeps the first value of a duplicate attribute, on a tag with few attributes', () => {
    const element = firstElement('<div id="a" class="x" id="b">t</div>');
    expect(element.getAttribute('id')).toBe('a');
    expect(element.attributes.map((attribute) => attribute.name)).toEqual(['id', 'class']);
  });

  it('keeps the first value of a duplicate attribute on a tag with many, in order', () => {
    const names = Array.from({ length: 100 }, (_, i) => `a${i}`);
    const element = firstElement(
      `<div ${names.map((name) => `${name}="1"`).join(' ')} a5="2" a99="2" extra="3" A7="2">t</div>`,
    );
    expect(element.getAttribute('a5')).toBe('1');
    expect(element.getAttribute('a99')).toBe('1');
    expect(element.getAttribute('extra')).toBe('3');
    expect(element.attributes.map((attribute) => attribute.name)).toEqual([...names, 'extra']);
  });

  it('reads a tag of 200,000 attributes in linear time (a scan per attribute took most of a minute)', () => {
    const html = `<div ${Array.from({ length: 200_000 }, (_, i) => `a${i}="v"`).join(' ')}>x</div><p>y</p>`;
    const started = performance.now();
    const document = sut(html);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(document.firstElementChild?.attributes).toHaveLength(200_000);
    expect(document.textContent).toBe('xy');
  });

  it('nests as before up to MAX_PARSE_DEPTH', () => {
    const html = `${'<div>'.repeat(MAX_PARSE_DEPTH - 1)}<p>deep</p>${'</div>'.repeat(MAX_PARSE_DEPTH - 1)}<p>after</p>`;
    let element = sut(html).firstElementChild;
    let depth = 0;
    while (element?.firstElementChild) {
      element = element.firstElementChild;
      depth += 1;
    }
    expect(depth).toBe(MAX_PARSE_DEPTH - 1);
    expect(element?.localName).toBe('p');
  });

  it('opens deeper start tags empty, keeps their content in order and still closes by end tags', () => {
    const extra = 3;
    const html =
      `<main>${'<div>'.repeat(MAX_PARSE_DEPTH + extra)}<p>deep</p>tail${'</div>'.repeat(MAX_PARSE_DEPTH + extra)}` +
      '<p>after</p></main><footer>end</footer>';
    const document = parseDocument(html);
    expect(document.body?.textContent).toBe('deeptailafterend');
    const main = document.body?.firstElementChild;
    expect(main?.localName).toBe('main');
    expect(main?.lastElementChild?.outerHTML).toBe('<p>after</p>');
    expect(main?.nextElementSibling?.outerHTML).toBe('<footer>end</footer>');
  });

  it('counts elements closed by the next tag as closed', () => {
    // Every <li> and <p> ends the one before it: the stack stays shallow however many there are.
    const html = `<ul>${'<li>item'.repeat(MAX_PARSE_DEPTH * 2)}</ul>${'<p>para'.repeat(MAX_PARSE_DEPTH * 2)}`;
    const document = sut(html);
    expect(document.querySelectorAll('ul > li')).toHaveLength(MAX_PARSE_DEPTH * 2);
    expect(document.lastElementChild?.outerHTML).toBe('<p>para</p>');
  });

  it('reads 150,000 nested elements in linear time (12 s before the bound)', () => {
    const depth = 150_000;
    const html = `${'<div>'.repeat(depth)}<p>the bottom</p>${'</div>'.repeat(depth)}<p>after</p>`;
    const started = performance.now();
    const document = parseDocument(html);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(document.body?.textContent).toBe('the bottomafter');
    expect(document.body?.lastElementChild?.outerHTML).toBe('<p>after</p>');
  });

  it('keeps void elements and self-closing foreign elements at the bound', () => {
    const html = `${'<span>'.repeat(MAX_PARSE_DEPTH)}<img src="a.png"><br>x<svg><g/><g/></svg>y${'</span>'.repeat(MAX_PARSE_DEPTH)}<p>z</p>`;
    const document = parseDocument(html);
    expect(document.body?.textContent).toBe('xyz');
    expect(document.body?.lastElementChild?.outerHTML).toBe('<p>z</p>');
  });
});
