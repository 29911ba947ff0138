import type { ContentOptions, OutputFormat } from './transform.types';
import { transformDocument } from './transform-document.util';

const URL_ = 'https://example.com/blog/post';
const ALL: OutputFormat[] = ['markdown', 'html', 'links', 'images'];
const WHOLE: ContentOptions = { onlyMainContent: false, removeBase64Images: true };
const MAIN: ContentOptions = { onlyMainContent: true, removeBase64Images: true };

function sut(
  body: string,
  options: ContentOptions = WHOLE,
  formats: OutputFormat[] = ALL,
  contentType?: string,
) {
  return transformDocument({ body, url: URL_, contentType }, formats, options);
}

const article = `<!doctype html><html lang="en"><head><title>Post</title><meta name="description" content="d">
<style>p{color:red}</style><script>var x = 1;</script></head><body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header"><img src="/logo.png" alt="Logo"><nav><ul>
  <li><a href="/">Home</a></li><li><a href="/about">About</a></li><li><a href="/blog">Blog</a></li>
  <li><a href="/contact">Contact</a></li></ul></nav></header>
<div id="cookie-banner" class="cookie-consent"><p>We use cookies to improve your experience on our website. By browsing you accept.</p>
  <button>Accept all</button></div>
<main id="main"><article>
  <h1>Growing tomatoes on a balcony</h1>
  <p>Tomatoes need at least six hours of direct sun a day, so pick the sunniest corner of the balcony and
  use a container of twenty litres or more. Water deeply twice a week rather than a little every day.</p>
  <p>Feed every two weeks once the first flowers appear, and pinch out side shoots on cordon varieties so
  that the plant puts its energy into fruit. See <a href="../guides/feeding">our feeding guide</a>.</p>
  <p>Harvest when the fruit is fully coloured and slightly soft; flavour keeps developing off the vine
  for a day or two at room temperature, but never in the fridge.</p>
  <noscript><img src="/pixel.gif"></noscript>
</article></main>
<aside class="sidebar"><h3>Popular</h3><ul><li><a href="/a">A post</a></li><li><a href="/b">B post</a></li>
  <li><a href="/c">C post</a></li></ul></aside>
<footer class="site-footer"><p>© 2025 Example Ltd. All rights reserved.</p><a href="/privacy">Privacy</a>
  <a href="/terms">Terms</a><a href="/imprint">Imprint</a></footer>
</body></html>`;

describe('transformDocument: cleaning', () => {
  it('drops script, style, noscript, meta and head from the cleaned html', () => {
    const { html } = sut(article);
    expect(html).not.toMatch(/<(script|style|noscript|meta|head|title)\b/i);
    expect(html).toContain('Growing tomatoes');
  });

  it('makes relative a href and img src absolute against the page URL', () => {
    const { html } = sut(article);
    expect(html).toContain('href="https://example.com/guides/feeding"');
    expect(html).toContain('src="https://example.com/logo.png"');
  });

  it('resolves against <base href> when there is one', () => {
    const { html, links } = sut(
      '<head><base href="https://cdn.example.org/x/"></head><body><a href="y">y</a><img src="i.png"></body>',
    );
    expect(html).toContain('href="https://cdn.example.org/x/y"');
    expect(html).toContain('src="https://cdn.example.org/x/i.png"');
    expect(links).toEqual(['https://cdn.example.org/x/y']);
  });

  it('resolves img src to the largest srcset or data-srcset candidate, or data-src', () => {
    const { html, images } = sut(`<img src="small.jpg" srcset="m.jpg 640w, l.jpg 1280w">
      <img src="data:image/gif;base64,R0lGOD" data-srcset="a.jpg 1x, b.jpg 2x">
      <img src="data:image/gif;base64,R0lGOD" data-src="/lazy.jpg">`);
    expect(html).toContain('src="https://example.com/blog/l.jpg"');
    expect(html).toContain('src="https://example.com/blog/b.jpg"');
    expect(html).toContain('src="https://example.com/lazy.jpg"');
    expect(images).toEqual([
      'https://example.com/blog/l.jpg',
      'https://example.com/blog/b.jpg',
      'https://example.com/lazy.jpg',
    ]);
  });

  it('keeps only clones of includeTags matches, in document order', () => {
    const { html, markdown } = sut('<div class="b">B</div><p id="a">A</p><div class="b">C</div>', {
      ...WHOLE,
      includeTags: ['.b', '#a'],
    });
    expect(html).toBe('<div class="b">B</div><p id="a">A</p><div class="b">C</div>');
    expect(markdown).toBe('B\n\nA\n\nC');
  });

  it('removes excludeTags matches; a bare iframe also removes browser iframe placeholders', () => {
    const body = `<p class="keep">keep</p><p class="ad">ad</p><iframe src="/f"></iframe>
      <div data-original-tag="iframe"><p>inlined frame</p></div>`;
    const { html, markdown } = sut(body, { ...WHOLE, excludeTags: ['.ad', 'iframe'] });
    expect(markdown).toBe('keep');
    expect(html).not.toContain('iframe');
    expect(html).not.toContain('ad</p>');
  });

  it('drops skip links even after their href was made absolute', () => {
    expect(sut('<a href="#content">Skip to content</a><p id="content">x</p>').markdown).toBe('x');
  });

  it('ignores an invalid selector instead of failing', () => {
    expect(sut('<p>x</p>', { ...WHOLE, excludeTags: ['p[', 'nope'] }).markdown).toBe('x');
  });
});

describe('transformDocument: main content', () => {
  it('keeps the article and drops navigation, cookie banner, sidebar and footer', () => {
    const { markdown } = sut(article, MAIN);
    expect(markdown).toContain('# Growing tomatoes on a balcony');
    expect(markdown).toContain('[our feeding guide](https://example.com/guides/feeding)');
    expect(markdown).toContain('never in the fridge');
    for (const chrome of [
      'Home',
      'About',
      'cookies',
      'Accept all',
      'Popular',
      'rights reserved',
      'Privacy',
      'Skip to',
    ]) {
      expect(markdown).not.toContain(chrome);
    }
  });

  it('drops a newsletter sign-up block inside the article', () => {
    const signup = `<div><h3>Get our weekly letter</h3><p>Subscribe to the free newsletter with the best growing tips.</p>
      <form><input type="email" placeholder="Your e-mail"><button>Sign up</button></form>
      <p>By subscribing you agree to our terms.</p></div>`;
    const { markdown } = sut(article.replace('<noscript>', `${signup}<noscript>`), MAIN);
    expect(markdown).toContain('never in the fridge');
    expect(markdown).not.toMatch(/weekly letter|Subscribe|agree to our terms/);
  });

  it('takes links from the cleaned content only', () => {
    expect(sut(article, MAIN).links).toEqual(['https://example.com/guides/feeding']);
  });

  it('still lists all images of the page, logo included', () => {
    expect(sut(article, MAIN).images).toEqual(['https://example.com/logo.png']);
  });

  it('falls back to the whole cleaned page when nothing looks like main content', () => {
    const { markdown } = sut(
      '<nav><a href="/a">Alpha</a> <a href="/b">Beta</a> <a href="/c">Gamma</a></nav>',
      MAIN,
    );
    expect(markdown).toBe(
      '[Alpha](https://example.com/a) [Beta](https://example.com/b) [Gamma](https://example.com/c)',
    );
  });

  it('keeps the server-rendered posts that JavaScript forums put in <noscript>', () => {
    const posts = Array.from(
      { length: 4 },
      (_, i) => `<div class="post"><p>Reply ${i}: ${'useful words '.repeat(20)}</p></div>`,
    ).join('');
    const page = `<body><div id="app"></div><noscript><div id="main-outlet">${posts}</div></noscript></body>`;
    const { markdown } = sut(page, MAIN);
    expect(markdown).toContain('Reply 0:');
    expect(markdown).toContain('Reply 3:');
  });

  it('drops a related-posts row under an article but keeps a listing', () => {
    const teaser = (i: number) =>
      `<div class="card"><a href="/p${i}"><h3>Another interesting story number ${i}</h3></a><p>Short teaser.</p></div>`;
    const withRelated = article.replace(
      '</article>',
      `</article><section><div class="row">${[1, 2, 3, 4].map(teaser).join('')}</div></section>`,
    );
    expect(sut(withRelated, MAIN).markdown).not.toContain('Another interesting story');
    const listing = `<main><h1>News</h1><div class="list">${[1, 2, 3, 4, 5, 6].map(teaser).join('')}</div></main>`;
    expect(sut(listing, MAIN).markdown).toContain('Another interesting story number 6');
  });
});

describe('transformDocument: main content of documentation pages', () => {
  const prose = (topic: string) =>
    `<p>${`The ${topic} settings decide how requests flow through the stack, which order applies and what each step may change. `.repeat(4)}</p>`;
  const links = (n: number) =>
    `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="/ref/${i}">Reference page ${i}</a></li>`).join('')}</ul>`;
  const docsPage = (main: string) =>
    `<html><body><nav class="sidebar">${links(12)}</nav><main><article>${main}</article></main>
<footer class="site-footer"><a href="/a">About</a><a href="/b">Blog</a><a href="/c">Careers</a></footer></body></html>`;

  it('keeps a section whose anchor id happens to contain a chrome word', () => {
    const page = docsPage(
      `<h1>Submitting patches</h1>${prose('patch')}${prose('mail')}${prose('review')}` +
        `<section id="respond-to-review-comments"><h2>Respond to review comments</h2>${prose('reply')}</section>`,
    );
    expect(sut(page, MAIN).markdown).toContain('Respond to review comments');
  });

  it('keeps every peer section of a document, not just the largest', () => {
    const section = (title: string, body: string) => `<section><h2>${title}</h2>${body}</section>`;
    const page = docsPage(
      `<section><h1>Middleware</h1>` +
        section('Available middleware', prose('cache').repeat(6)) +
        section(
          'Middleware ordering',
          `<p>Here are some hints about ordering the classes of the stack: put security first, then sessions, then the rest in the order they depend on each other.</p>${links(5)}`,
        ) +
        `</section>`,
    );
    const markdown = sut(page, MAIN).markdown ?? '';
    expect(markdown).toContain('Middleware ordering');
    expect(markdown).not.toContain('Careers');
  });

  it('keeps links set in the text but drops a bold-labelled related list', () => {
    const page = docsPage(
      `<h1>Introduction</h1>${prose('query')}` +
        `<p>For details, see the <a href="/x">paper</a>, <a href="/y">the site</a> and <a href="/z">the follow-up</a>.</p>` +
        `<p>Task guidance to help if you need to do the following:</p>${links(4)}${prose('storage')}` +
        `<p><strong>Related posts:</strong></p><ul><li><a href="/r1">Other post one</a></li>` +
        `<li><a href="/r2">Other post two</a></li><li><a href="/r3">Other post three</a></li></ul>`,
    );
    const markdown = sut(page, MAIN).markdown ?? '';
    expect(markdown).toContain('the follow-up');
    expect(markdown).toContain('Reference page 3');
    expect(markdown).not.toContain('Other post one');
  });

  it('keeps the notes that API entries repeat', () => {
    const entry = (name: string) =>
      `<dt>json.${name}(obj)</dt><dd>${prose(name)}<p>Changed in version 3.6: All parameters are now keyword-only.</p></dd>`;
    const page = docsPage(`<h1>json</h1><dl>${entry('dump')}</dl><dl>${entry('dumps')}</dl>`);
    const markdown = sut(page, MAIN).markdown ?? '';
    expect(markdown.split('Changed in version 3.6').length - 1).toBe(2);
  });

  it('keeps closed tab panels (code samples in other languages)', () => {
    const page = docsPage(
      `<h1>Resources</h1><p>Each instance is created from a collection.</p>` +
        `<div role="tablist"><button>Map</button><button>Set</button></div>` +
        `<div role="tabpanel">${prose('map')}<pre><code>resource "map_example" {}</code></pre></div>` +
        `<div role="tabpanel" aria-hidden="true">${prose('set')}<pre><code>resource "set_example" {}</code></pre></div>`,
    );
    expect(sut(page, MAIN).markdown).toContain('set_example');
  });
});

describe('transformDocument: formats', () => {
  it('computes only the requested formats', () => {
    const result = sut(article, MAIN, ['links']);
    expect(result.markdown).toBeUndefined();
    expect(result.html).toBeUndefined();
    expect(result.images).toBeUndefined();
    expect(result.links).toBeDefined();
    expect(result.metadata.title).toBe('Post');
  });

  it('de-duplicates links in document order', () => {
    const { links } = sut('<a href="/x">1</a><a href="/y">2</a><a href="https://example.com/x">3</a>');
    expect(links).toEqual(['https://example.com/x', 'https://example.com/y']);
  });

  it('removes base64 images from markdown only', () => {
    const { markdown, html } = sut('<p>pic <img alt="dot" src="data:image/png;base64,iVBORw0KGgo="></p>');
    expect(markdown).toBe('pic ![dot](<Base64-Image-Removed>)');
    expect(html).toContain('src="data:image/png;base64,iVBORw0KGgo="');
    expect(
      sut('<img alt="dot" src="data:image/png;base64,AA">', { ...WHOLE, removeBase64Images: false }).markdown,
    ).toBe('![dot](data:image/png;base64,AA)');
  });

  it('survives documents nested thousands of elements deep', () => {
    const html = `${'<div>'.repeat(20_000)}deep text${'</div>'.repeat(20_000)}`;
    expect(sut(html, MAIN, ['markdown']).markdown).toBe('deep text');
  });

  it('converts a table of 150,000 rows (spreading them into Math.max overflowed the stack)', () => {
    const html = `<table><tr><th>name</th><th>size</th></tr>${'<tr><td>cell</td><td>5</td></tr>'.repeat(150_000)}</table>`;
    const markdown = sut(html, MAIN, ['markdown']).markdown ?? '';
    expect(markdown.match(/\| cell \| 5 \|/g)).toHaveLength(150_000);
  });

  it('keeps CJK and accented text intact', () => {
    expect(sut('<p>東京の天気は晴れです。Ça va très bien.</p>').markdown).toBe(
      '東京の天気は晴れです。Ça va très bien.',
    );
  });
});

describe('transformDocument: non-HTML bodies', () => {
  it('fences a JSON body by content type', () => {
    const { markdown, links } = sut(
      '{"a": [1, 2], "b": "x_y"}',
      WHOLE,
      ALL,
      'application/json; charset=utf-8',
    );
    expect(markdown).toBe('```json\n{"a": [1, 2], "b": "x_y"}\n```');
    expect(links).toEqual([]);
  });

  it('fences a body that is JSON whatever its content type says', () => {
    expect(sut('[{"k": "```"}]', WHOLE, ['markdown'], 'text/html').markdown).toBe(
      '````json\n[{"k": "```"}]\n````',
    );
  });

  it('passes text/plain through unescaped', () => {
    const text = 'snake_case *stars* # not heading\n\n<b>not html</b>';
    expect(sut(text, MAIN, ['markdown'], 'text/plain; charset=utf-8').markdown).toBe(text);
  });
});
