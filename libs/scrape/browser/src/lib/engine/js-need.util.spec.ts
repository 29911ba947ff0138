import type { FetchedPage } from '@quarry/scrape/engine';
import { needsJavaScript, staticText } from './js-need.util';

const page = (html: string, contentType = 'text/html; charset=utf-8', status = 200): FetchedPage => ({
  engine: 'http',
  url: 'https://example.com/',
  status,
  headers: {},
  contentType,
  body: Buffer.from(html),
});
const prose = '<p>' + 'Plenty of server-rendered words in this article. '.repeat(20) + '</p>';

describe('needsJavaScript', () => {
  it('flags an empty application shell', () => {
    expect(
      needsJavaScript(page('<html><body><div id="root"></div><script src="/app.js"></script></body></html>')),
    ).toMatch(/application shell/);
    expect(
      needsJavaScript(page('<html><body><div id="__next"><!-- --></div><script>1</script></body></html>')),
    ).toMatch(/application shell/);
    expect(
      needsJavaScript(page('<html><body><app-root></app-root><script src="main.js"></script></body></html>')),
    ).toMatch(/application shell/);
  });

  it('flags a noscript asking for JavaScript', () => {
    expect(
      needsJavaScript(
        page(
          '<html><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="x">hi</div><script></script></body></html>',
        ),
      ),
    ).toBeDefined();
  });

  it('flags scripts with almost no text', () => {
    expect(
      needsJavaScript(page('<html><body><h1>Loading</h1><script src="/bundle.js"></script></body></html>')),
    ).toMatch(/almost no text/);
  });

  it('leaves server-rendered pages, pages without scripts, non-HTML and errors alone', () => {
    expect(
      needsJavaScript(
        page(`<html><body><div id="root">${prose}</div><script>hydrate()</script></body></html>`),
      ),
    ).toBeUndefined();
    expect(needsJavaScript(page('<html><body><h1>Tiny</h1></body></html>'))).toBeUndefined();
    // Structured data and JSON blocks are scripts no browser runs: a short product page stays on HTTP.
    expect(
      needsJavaScript(
        page(
          '<html><head><script type="application/ld+json">{"@type":"Product"}</script><script type=\'application/json\'>{}</script></head><body><p>The Pro plan costs $49.</p></body></html>',
        ),
      ),
    ).toBeUndefined();
    expect(
      needsJavaScript(page('<html><body><p>Short.</p><script type="module" src="/app.js"></script></body></html>')),
    ).toMatch(/almost no text/);
    expect(needsJavaScript(page('{"a":1}', 'application/json'))).toBeUndefined();
    expect(
      needsJavaScript(
        page('<html><body><div id="root"></div><script></script></body></html>', 'text/html', 404),
      ),
    ).toBeUndefined();
  });

  it('reads visible text without scripts, styles and comments', () => {
    expect(
      staticText(
        '<head><title>t</title></head><body><style>a{}</style><!-- c --><p>Hello&nbsp;<b>world</b></p><script>x()</script></body>',
      ),
    ).toBe('Hello world');
  });
});
