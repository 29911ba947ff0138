import type { FetchedPage } from '@quarry/scrape/engine';
import { seededRandom, seededTexts } from '@quarry/testing';

import {
  hasEmptyAppRoot,
  hasHydrationSlot,
  javaScriptNeedOf,
  needsJavaScript,
  staticText,
} from './js-need.util';

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
      needsJavaScript(
        page('<html><body><p>Short.</p><script type="module" src="/app.js"></script></body></html>'),
      ),
    ).toMatch(/almost no text/);
    expect(needsJavaScript(page('{"a":1}', 'application/json'))).toBeUndefined();
    expect(
      needsJavaScript(
        page('<html><body><div id="root"></div><script></script></body></html>', 'text/html', 404),
      ),
    ).toBeUndefined();
  });

  // Each signal on a page with some real text (above the shell threshold), so only that signal decides.
  const intro =
    '<h1>Walking the coast</h1><p>Three days along the cliffs from the lighthouse to the old harbour, with a night in a hut and a ferry back.</p><p>Bring water, a map and a warm layer; the weather on the headland changes quickly.</p>';
  const reasonOf = (body: string, head = '') =>
    needsJavaScript(page(`<html><head>${head}</head><body><main>${intro}${body}</main></body></html>`));

  it('flags elements the page fills that the server sent empty, but not controls or widgets', () => {
    expect(
      reasonOf(
        `<section id="days"></section><script>fetch('/days').then(r => r.text()).then(h => { document.getElementById('days').innerHTML = h; });</script>`,
      ),
    ).toMatch(/fill elements the server sent empty \(#days\)/);
    expect(
      reasonOf(`<div class="stages"><p>Loading…</p></div><script>$('.stages').html(build());</script>`),
    ).toMatch(/\.stages/);
    // A map or a button set up by code is not missing content.
    expect(
      reasonOf(
        `<div id="map"></div><button id="more">More</button><script>new Maps.Map(document.getElementById('map')); document.getElementById('more').addEventListener('click', load);</script>`,
      ),
    ).toBeUndefined();
  });

  it('flags loading placeholders, empty custom elements, bindings and document.write of content', () => {
    expect(reasonOf('<div class="card-skeleton"></div><script src="/app.js"></script>')).toMatch(
      /placeholders/,
    );
    expect(reasonOf('<route-map></route-map><script type="module" src="/components.js"></script>')).toMatch(
      /custom elements \(route-map\)/,
    );
    expect(
      reasonOf('<p x-text="distance"></p><p x-text="duration"></p><script src="/alpine.js"></script>'),
    ).toMatch(/bindings/);
    expect(reasonOf('<p>{{ stage.name }} — {{ stage.km }} km</p><script src="/vue.js"></script>')).toMatch(
      /bindings/,
    );
    expect(
      reasonOf(`<script>document.write('<p>Day one: from the lighthouse to the cove.</p>')</script>`),
    ).toMatch(/document\.write/);
    expect(reasonOf('<p>© <script>document.write(new Date().getFullYear())</script></p>')).toBeUndefined();
  });

  it('flags content carried in a JSON state blob, not a blob repeating the page', () => {
    const story =
      'The path climbs steeply from the beach and follows the cliff edge for several kilometres. '.repeat(8);
    expect(
      reasonOf(
        `<div id="story-root" class="story"></div><script id="state" type="application/json">{"story":"${story}"}</script><script src="/story.js"></script>`,
      ),
    ).toMatch(/JSON state blob/);
    expect(
      needsJavaScript(
        page(
          `<html><body><main><p>${story}</p></main><script type="application/json">{"story":"${story}"}</script><script src="/a.js"></script></body></html>`,
        ),
      ),
    ).toBeUndefined();
  });

  it('does not count analytics, ads, consent or chat scripts as the page rendering itself', () => {
    const trackers =
      '<script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script><script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}gtag("config","G-1");</script>';
    expect(
      needsJavaScript(
        page(`<html><head>${trackers}</head><body><h1>Thanks!</h1><p>See you soon.</p></body></html>`),
      ),
    ).toBeUndefined();
    expect(
      needsJavaScript(
        page(
          `<html><head>${trackers}</head><body><h1>Thanks!</h1><script src="/app.js"></script></body></html>`,
        ),
      ),
    ).toMatch(/almost no text/);
  });

  it('measures the content outside the page chrome', () => {
    const chrome = `<header><nav>${'<a href="/x">Section link</a> '.repeat(30)}</nav></header>`;
    const footer = `<footer>${'<p>Company address and legal notice text.</p>'.repeat(10)}</footer>`;
    expect(
      needsJavaScript(
        page(
          `<html><body>${chrome}<main><div id="app-view"></div></main>${footer}<script src="/v.js"></script></body></html>`,
        ),
      ),
    ).toMatch(/almost no text/);
    expect(
      needsJavaScript(
        page(
          `<html><body>${chrome}<main>${prose}</main>${footer}<script src="/v.js"></script></body></html>`,
        ),
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

  it.each([
    ['unclosed <script> tags', '<script>x '],
    ['unclosed <p> tags', '<p>x '],
    ['unclosed comments', '<!-- x '],
    ['unclosed <noscript> tags', '<noscript>enable javascript '],
    ['tags without >', '<div x '],
  ])(
    'reads a page of 200,000 %s in linear time, on the HTTP engine (1.1 s at 20,000 scripts: minutes)',
    (_name, piece) => {
      const html = `<html><body><div id="root"></div><script src="/app.js"></script>${piece.repeat(200_000)}`;
      const started = performance.now();
      expect(javaScriptNeedOf(html)).toBeUndefined();
      expect(performance.now() - started).toBeLessThan(2_000);
    },
  );

  describe('hasEmptyAppRoot', () => {
    // The expression it replaces, kept as the oracle on markup of a few comments (on 40 comments
    // followed by a letter it backtracked past 100 s).
    const oracle =
      /<(div|main|section|body)\b[^>]*\bid=["']?(root|app|__next|__nuxt|___gatsby|svelte|application|main-app|react-root|vue-app|app-root|spa-root)(?=["'\s>])["']?[^>]*>\s*(<!--[\s\S]*?-->\s*)*<\/\1>|<(app-root|my-app)\b[^>]*>\s*<\/\4>/i;
    const opens = [
      '<div id="root">',
      '<div class="x" id=app>',
      "<main data-id='__next'>",
      '<section id="rooted">',
      '<body id="root">',
      '<DIV ID="app">',
      '<app-root>',
      '<my-app ng-version="17">',
      '<span id="root">',
    ];
    const closes = [
      '</div>',
      '</DIV>',
      '</main>',
      '</section>',
      '</body>',
      '</app-root>',
      '</my-app>',
      '</span>',
    ];
    const fillers = [' ', '\n', '<!-- c -->', '<!-- a -- b -->', '<!---->'];
    // A root, white space and comments, perhaps a letter after them, an end tag: the readings of the
    // expression and of a browser agree there (the expression also let a comment run on over text up
    // to a later "-->").
    const generated = (count: number) => {
      const next = seededRandom(11);
      const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
      return Array.from({ length: count }, () => {
        let markup = pick(opens);
        for (let left = Math.floor(next() * 5); left > 0; left -= 1) markup += pick(fillers);
        if (next() < 0.3) markup += 'x';
        return markup + pick(closes);
      });
    };

    it('answers as the expression did, on generated markup', () => {
      const cases = generated(4_000);
      expect(cases.filter((markup) => oracle.test(markup)).length).toBeGreaterThan(200);
      for (const markup of cases)
        expect([markup, hasEmptyAppRoot(markup)]).toEqual([markup, oracle.test(markup)]);
    });

    it('reads <!--> and <!---> as empty comments, as a browser does (the expression did not)', () => {
      expect(hasEmptyAppRoot('<div id="root"><!--> <!---></div>')).toBe(true);
      expect(hasEmptyAppRoot('<div id="root"><!--> x <!---></div>')).toBe(false);
    });

    it('reads a root of many comments and a letter in linear time (40 comments: past 100 s)', () => {
      const started = performance.now();
      expect(hasEmptyAppRoot(`<div id="root">${'<!-- c -->'.repeat(20_000)}x</div>`)).toBe(false);
      expect(hasEmptyAppRoot(`<div id="root">${'<!-- c -->'.repeat(20_000)}</div>`)).toBe(true);
      expect(
        javaScriptNeedOf(
          `<html><body><script>app()</script><div id="root">${'<!-- c -->'.repeat(40)}x</div></body></html>`,
        ),
      ).toBe('the page has almost no text without JavaScript');
      expect(performance.now() - started).toBeLessThan(1_000);
    });
  });

  describe('hasHydrationSlot', () => {
    // The single expression it replaces, kept as the oracle.
    const oracle =
      /<[a-z][\w-]*\s[^>]*\bdata-(?:island|component|react-class|reactroot|hydrate|widget|mount|props|controller)\b[^>]*>\s*<\/[a-z][\w-]*\s*>/i;
    const pieces = [
      '<div data-island>',
      '<div class="a" data-mount="x" >',
      "<x-a data-props='{}'>",
      '<span data-islander>',
      '<p data-component>',
      '<div>',
      '</div>',
      '</x-a>',
      '</p>',
      ' ',
      '\n',
      'text',
      'data-hydrate',
      ' data-widget',
      '>',
      '<',
      '<b ',
    ];

    it('answers as the expression over the whole markup did, on generated markup', () => {
      for (const markup of seededTexts(7, pieces, 4_000, 14))
        expect([markup, hasHydrationSlot(markup)]).toEqual([markup, oracle.test(markup)]);
    });

    it('reads a tag of 20,000 data- attributes in linear time (3.3 s: the tag was read once per attribute)', () => {
      const markup = `<div ${'data-island '.repeat(20_000)}>x</div><div data-island></div>`;
      const started = performance.now();
      expect(hasHydrationSlot(markup)).toBe(true);
      expect(performance.now() - started).toBeLessThan(1_000);
    });
  });

  describe('a page of thousands of components or lookups', () => {
    const text = `<h1>Title</h1><p>${'This is a sentence of real content text. '.repeat(8)}</p>`;
    const define = "<script>customElements.define('x-a', class extends HTMLElement {})</script>";

    it.each([
      ['20,000 nested components', `${define}${'<x-a>'.repeat(20_000)}${'</x-a>'.repeat(20_000)}`],
      ['20,000 unclosed components', `${define}${'<x-a>'.repeat(20_000)}`],
    ])('reads %s in linear time (each was read to its end: 8,000 nested took 5.4 s)', (_name, markup) => {
      const started = performance.now();
      expect(javaScriptNeedOf(`<html><body>${text}${markup}</body></html>`)).toBe(
        'the content is rendered by custom elements (x-a)',
      );
      expect(performance.now() - started).toBeLessThan(2_000);
    });

    it('reads an inline script of 20,000 element lookups in linear time (8,000 over 550 kB took 7.1 s)', () => {
      const lookups = Array.from(
        { length: 20_000 },
        (_, i) => `document.getElementById('id${i}').innerHTML = 'x';`,
      ).join('');
      const html = `<html><body>${text}<script>${lookups}</script>${'<div class="q"></div>'.repeat(20_000)}<div id="id3"></div></body></html>`;
      const started = performance.now();
      expect(javaScriptNeedOf(html)).toBe("the page's scripts fill elements the server sent empty (#id3)");
      expect(performance.now() - started).toBeLessThan(2_000);
    });
  });

  it.each([
    ['<noscript> openers', '<noscript '],
    ['<div> openers', '<div '],
    ['<main> openers', '<main x'],
    ['<a> openers', '<a '],
  ])(
    'reads a page of 100,000 %s sharing one > in linear time, on the HTTP engine (20,000 <noscript: 9.9 s)',
    (_name, piece) => {
      const html = `<html><body><script src="/app.js"></script>${piece.repeat(100_000)}><p>Hello</p></body></html>`;
      const started = performance.now();
      expect(javaScriptNeedOf(html)).toBeUndefined();
      expect(performance.now() - started).toBeLessThan(2_000);
    },
  );
});
