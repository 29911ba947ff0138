import { parseDocument } from '../dom/parse-document.util';
import { htmlToMarkdown } from './html-to-markdown.util';

function sut(html: string, removeBase64Images = true): string {
  const body = parseDocument(`<body>${html}</body>`).body;
  if (!body) throw new Error('no body');
  return htmlToMarkdown(body, { removeBase64Images });
}

describe('htmlToMarkdown', () => {
  it('writes ATX headings and paragraphs separated by blank lines', () => {
    expect(sut('<h1>Title</h1><p>One</p><h3>Sub <em>head</em></h3><p>Two</p>')).toBe(
      '# Title\n\nOne\n\n### Sub *head*\n\nTwo',
    );
  });

  it('collapses HTML whitespace and keeps spaces around inline markup', () => {
    expect(sut('<p>Hello\n   <b>bold </b>and<i> it</i>!</p>')).toBe('Hello **bold** and *it*!');
  });

  it('writes nested and ordered lists', () => {
    const html =
      '<ul><li>one</li><li>two<ul><li>deep</li></ul></li></ul><ol start="3"><li>c</li><li>d</li></ol>';
    expect(sut(html)).toBe('- one\n- two\n  - deep\n\n3. c\n4. d');
  });

  it('prefixes every line of a block quote', () => {
    expect(sut('<blockquote><p>first</p><p>second</p></blockquote>')).toBe('> first\n>\n> second');
  });

  it('fences code blocks with the language hint of class="language-x"', () => {
    const html = '<pre><code class="language-ts">const a = 1;\nif (a) {\n  go();\n}</code></pre>';
    expect(sut(html)).toBe('```ts\nconst a = 1;\nif (a) {\n  go();\n}\n```');
  });

  it('takes lang-x and highlight wrappers as language hints too', () => {
    expect(sut('<div class="highlight-source-python"><pre>print(1)</pre></div>')).toBe(
      '```python\nprint(1)\n```',
    );
    expect(sut('<pre class="lang-go">x := 1</pre>')).toBe('```go\nx := 1\n```');
  });

  it('keeps a fence that survives backticks and nested code blocks, with the inner identifier', () => {
    const html = '<pre><pre><code class="language-md">```js\nx()\n```</code></pre></pre>';
    expect(sut(html)).toBe('````md\n```js\nx()\n```\n````');
  });

  it('breaks lines of highlighters that render one block-level span per line', () => {
    const html = '<pre><code><span class="line">npm i</span><span class="line">npm test</span></code></pre>';
    expect(sut(html)).toBe('```\nnpm i\nnpm test\n```');
  });

  it('writes inline code spans that contain backticks', () => {
    expect(sut('<p>Run <code>a`b</code> now</p>')).toBe('Run ``a`b`` now');
  });

  it('converts data tables to GFM pipe tables', () => {
    const html =
      '<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody>' +
      '<tr><td>a|b</td><td><p>1</p></td></tr><tr><td colspan="2">wide</td></tr></tbody></table>';
    expect(sut(html)).toBe('| Name | Value |\n| --- | --- |\n| a\\|b | 1 |\n| wide |  |');
  });

  it('uses the first row as the header of a table without th cells', () => {
    expect(sut('<table><tr><td>x</td><td>y</td></tr><tr><td>1</td><td>2</td></tr></table>')).toBe(
      '| x | y |\n| --- | --- |\n| 1 | 2 |',
    );
  });

  it('renders layout tables as blocks', () => {
    expect(sut('<table><tr><td><h2>Side</h2><p>text</p></td></tr></table>')).toBe('## Side\n\ntext');
  });

  it('collapses newlines inside link text', () => {
    expect(sut('<a href="https://e.com/x"><div><h3>Card</h3><p>line\ntwo</p></div></a>')).toBe(
      '[Card line two](https://e.com/x)',
    );
  });

  it('drops "Skip to content" links', () => {
    expect(sut('<a href="#main">Skip to main content</a><p>Body</p>')).toBe('Body');
    expect(sut('<a class="skip" href="#content">Jump to navigation</a><p>Body</p>')).toBe('Body');
  });

  it("drops headings' permalinks (¶, #, icon glyphs) but keeps in-page links with words", () => {
    expect(sut('<h2>Usage<a class="headerlink" href="#usage">¶</a></h2>')).toBe('## Usage');
    expect(sut('<h2><a href="#id3">Syntax</a><a href="https://e.com/p#syntax">\uf0c1</a></h2>')).toBe(
      '## [Syntax](#id3)',
    );
    expect(sut('<h3><a href="#x">#</a> Setup</h3>')).toBe('### Setup');
    expect(sut('<p>See <a href="#setup">Setup</a> and <a href="/faq">?</a>.</p>')).toBe(
      'See [Setup](#setup) and [?](/faq).',
    );
  });

  it('writes images with alt text, replacing data: URLs when asked', () => {
    expect(sut('<img src="https://e.com/a.png" alt="A [cat]">')).toBe('![A \\[cat\\]](https://e.com/a.png)');
    expect(sut('<img src="data:image/png;base64,AAAA" alt="pixel">')).toBe(
      '![pixel](<Base64-Image-Removed>)',
    );
    expect(sut('<img src="data:image/png;base64,AAAA" alt="pixel">', false)).toBe(
      '![pixel](data:image/png;base64,AAAA)',
    );
  });

  it('escapes text that markdown would read as syntax', () => {
    expect(sut('<p># not a heading</p><p>1. not a list</p><p>a*b [x] snake_case _under_</p>')).toBe(
      '\\# not a heading\n\n1\\. not a list\n\na\\*b \\[x\\] snake_case \\_under\\_',
    );
  });

  it('writes hard line breaks and rules', () => {
    expect(sut('<p>a<br>b</p><hr><p>c</p>')).toBe('a  \nb\n\n---\n\nc');
  });

  it('leaves no comments, scripts or form controls', () => {
    expect(sut('<!-- note --><p>x</p><script>alert(1)</script><select><option>o</option></select>')).toBe(
      'x',
    );
  });
});
