import { normalizeDocumentShell, parseDocument } from './parse-document.util';

describe('parseDocument', () => {
  const sut = parseDocument;

  it('parses fragments into a body', () => {
    expect(sut('<p>frag <a href="x">l</a></p>').body?.innerHTML).toBe('<p>frag <a href="x">l</a></p>');
  });

  it('infers the body of a document without a <body> tag, keeping head elements in the head', () => {
    const document = sut(
      '<!DOCTYPE html><html lang="fr"><title>T</title><meta charset="utf-8"><p>text</p></html>',
    );
    expect(document.documentElement.getAttribute('lang')).toBe('fr');
    expect(document.head?.querySelector('title')?.textContent).toBe('T');
    expect(document.body?.innerHTML).toBe('<p>text</p>');
  });

  it('keeps attributes in source order, numeric names included, and the first of a name in any case', () => {
    const body = sut(
      '<p 47 id="a" tabIndex="1" tabindex="0" ID="b" 2011>x</p><svg viewBox="0 0 1 1"></svg>',
    ).body;
    expect(body?.innerHTML).toBe('<p 47="" id="a" tabindex="1" 2011="">x</p><svg viewBox="0 0 1 1" />');
  });

  it('decodes character references in text, attributes, title and textarea, as the HTML parser does', () => {
    const document = sut(
      '<title>A &amp; B</title><p title="x &lt; y" data-u="?a=1&copy=2">&copy 2026 &amp; &#x263A; &bogus;</p>' +
        '<textarea>&lt;div&gt; &amp;</textarea><xmp>&amp;</xmp>',
    );
    expect(document.head?.querySelector('title')?.textContent).toBe('A & B');
    const p = document.body?.querySelector('p');
    expect(p?.textContent).toBe('© 2026 & ☺ &bogus;');
    expect(p?.getAttribute('title')).toBe('x < y');
    // in an attribute, a legacy reference followed by `=` stays as written
    expect(p?.getAttribute('data-u')).toBe('?a=1&copy=2');
    expect(document.body?.querySelector('textarea')?.textContent).toBe('<div> &');
    expect(document.body?.querySelector('xmp')?.textContent).toBe('&amp;');
    // escapable raw text is escaped again when serialized; raw text is not
    expect(document.body?.innerHTML).toContain('<textarea>&lt;div&gt; &amp;</textarea><xmp>&amp;</xmp>');
  });

  it('moves content after </body> into the body', () => {
    expect(sut('<html><body><p>a</p></body></html><div>b</div>').body?.innerHTML).toBe(
      '<p>a</p><div>b</div>',
    );
  });

  it('keeps body attributes and ignores "<body>" inside scripts', () => {
    const document = sut('<script>var s = "<body>";</script><body class="x"><p>y</p></body>');
    expect(document.body?.getAttribute('class')).toBe('x');
    expect(document.body?.querySelector('p')?.textContent).toBe('y');
  });

  it('treats <![CDATA[ in HTML as a bogus comment instead of swallowing the page', () => {
    const document = sut(
      '<body><![CDATA[ x ]]><div>kept</div><script>//<![CDATA[\nvar a;\n//]]></script></body>',
    );
    expect(document.body?.querySelector('div')?.textContent).toBe('kept');
  });
});

describe('normalizeDocumentShell', () => {
  it('always yields an explicit html/head/body skeleton', () => {
    expect(normalizeDocumentShell('plain text')).toBe(
      '<!DOCTYPE html><html><head></head><body>plain text</body></html>',
    );
  });
});
