import type { ComponentChildren, VNode } from 'preact';

import { decodeEntities, renderMarkdown as sut, safeUrl } from './markdown';

/** The element tree as markup (text escaped), to assert on what the browser would build. */
function markup(node: ComponentChildren): string {
  if (node === null || node === undefined || typeof node === 'boolean') return '';
  if (Array.isArray(node)) return node.map(markup).join('');
  if (typeof node === 'string' || typeof node === 'number')
    return String(node).replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const vnode = node as VNode<Record<string, unknown>>;
  const props = vnode.props ?? {};
  const attributes = Object.entries(props)
    .filter(
      ([name, value]) => name !== 'children' && value !== undefined && value !== null && value !== false,
    )
    .map(([name, value]) => ` ${name}="${String(value)}"`)
    .join('');
  return `<${String(vnode.type)}${attributes}>${markup(props['children'] as ComponentChildren)}</${String(vnode.type)}>`;
}

describe('renderMarkdown', () => {
  it('renders headings, emphasis, lists, tables and code as elements', () => {
    const html = markup(
      sut(
        '# Title\n\nSome **bold** and _em_ with `x<y`.\n\n- one\n- [x] two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nlet a = 1 < 2;\n```',
      ),
    );
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>em</em>');
    expect(html).toContain('<code>x&lt;y</code>');
    expect(html).toMatch(
      /<ul><li>one<\/li><li><input type="checkbox" checked="true" disabled="true" aria-label="done"><\/input>two<\/li><\/ul>/,
    );
    expect(html).toContain('<th scope="col">a</th>');
    expect(html).toContain('<td>2</td>');
    expect(html).toContain('<pre><code data-lang="js">let a = 1 &lt; 2;</code></pre>');
  });

  it('never turns raw HTML or unsafe links into elements, and does not load images', () => {
    const html = markup(
      sut(
        '<script>alert(1)</script>\n\nHi <img src=x onerror=alert(1)> [click](javascript:alert(1)) [ok](https://example.com/a) ![logo](https://example.com/logo.png)',
      ),
    );
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('&lt;script>alert(1)&lt;/script>');
    expect(html).toContain('<span class="unsafe-link">click</span>');
    expect(html).toContain(
      '<a href="https://example.com/a" rel="noopener noreferrer nofollow" target="_blank">ok</a>',
    );
    expect(html).toContain(
      '<a href="https://example.com/logo.png" class="image-link" rel="noopener noreferrer nofollow" target="_blank">Image: logo</a>',
    );
  });

  it('keeps http(s) and mailto targets only', () => {
    expect(safeUrl('https://a.example/x?y=1')).toBe('https://a.example/x?y=1');
    expect(safeUrl('mailto:a@b.example')).toBe('mailto:a@b.example');
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,x',
      '/relative',
      'vbscript:x',
      '',
    ])
      expect(safeUrl(href)).toBeUndefined();
  });

  it('decodes the character references markdown keeps', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &#8217; &#x2014; &unknown; &#0;')).toBe(
      'a & b <c> \u2019 \u2014 &unknown; &#0;',
    );
  });
});
