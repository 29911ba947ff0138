import { encode } from 'iconv-lite';

import { type FixtureServer, html, startFixtureServer } from './fixture-server';

/** Marker words the tests look for in extracted content. */
export const BASIC_SITE = {
  articleMarker: 'quartzlantern',
  codeIdentifier: 'computeFrontierScore',
  japanese: '日本語のテキストです',
  shiftJisText: 'こんにちは世界',
  navMarker: 'navigationchromeword',
  footerMarker: 'footerchromeword',
  sidebarMarker: 'sidebarchromeword',
} as const;

const layout = (title: string, main: string, extraHead = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="description" content="A fixture page about ${title}">
<meta name="keywords" content="fixture, test">
<meta property="og:title" content="OG ${title}">
<meta property="og:locale:alternate" content="fr_FR"><meta property="og:locale:alternate" content="de_DE">
<meta name="viewport" content="width=device-width">
<link rel="icon" href="/favicon.ico">
${extraHead}
<style>body{font-family:sans-serif}</style><script>window.tracking = true;</script></head>
<body>
<header><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/blog">${BASIC_SITE.navMarker}</a></nav></header>
<aside class="sidebar"><h3>Popular</h3><ul><li><a href="/p1">${BASIC_SITE.sidebarMarker} one</a></li><li><a href="/p2">Two</a></li></ul></aside>
<main>${main}</main>
<footer><p>© Fixture Inc. ${BASIC_SITE.footerMarker}</p><a href="/privacy">Privacy</a></footer>
</body></html>`;

const ARTICLE = `<article>
<h1>The ${BASIC_SITE.articleMarker} article</h1>
<p>This article explains how a <strong>web crawler</strong> keeps a frontier of URLs. It is long enough to be
recognised as the main content of the page, with several sentences of prose and <a href="/docs/frontier">a link</a>.</p>
<p>Crawlers respect robots.txt, sitemaps and politeness delays, and they normalise URLs before deduplicating them.</p>
<h2>Comparison table</h2>
<table><thead><tr><th>Engine</th><th>Pages/s</th></tr></thead><tbody><tr><td>HTTP</td><td>120</td></tr><tr><td>Browser</td><td>6</td></tr></tbody></table>
<h2>Code</h2>
<pre><code class="language-ts">function ${BASIC_SITE.codeIdentifier}(depth: number) {
  return depth * 2; // \`\`\` backticks inside code
}</code></pre>
<figure><img src="/images/diagram.png" alt="Frontier diagram" srcset="/images/diagram-small.png 320w, /images/diagram-large.png 1280w"><figcaption>The frontier</figcaption></figure>
<p>日本語: ${BASIC_SITE.japanese}</p>
</article>`;

/** The fixture site of the foundation e2e tests: articles with chrome, tables, code, images, encodings, redirects, errors, JSON, text. */
export function startBasicSite(): Promise<FixtureServer> {
  return startFixtureServer({
    '/': html(
      layout(
        'Home',
        `<h1>Welcome</h1><p>Home page of the fixture site with the marker ${BASIC_SITE.articleMarker}.</p><a href="/article">Read the article</a>`,
      ),
    ),
    '/article': html(layout('Crawler article', ARTICLE)),
    '/shift-jis': (_request, response) => {
      const page = `<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><title>SJIS</title></head><body><main><h1>${BASIC_SITE.shiftJisText}</h1><p>${BASIC_SITE.shiftJisText}、これはシフトJISでエンコードされたページです。</p></main></body></html>`;
      response.writeHead(200, { 'content-type': 'text/html' }).end(encode(page, 'Shift_JIS'));
    },
    '/redirect': (_request, response) => response.writeHead(301, { location: '/article' }).end(),
    '/redirect-chain': (_request, response) => response.writeHead(302, { location: '/redirect' }).end(),
    '/missing': html(layout('Missing', '<h1>Page not found</h1><p>Nothing here.</p>'), 404),
    '/broken': html('<html><body><h1>Internal error</h1></body></html>', 500),
    '/data.json': (_request, response) =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: 1, name: 'fixture' })),
    '/notes.txt': (_request, response) =>
      response
        .writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
        .end('plain_text with_underscores *stars*'),
    '/slow': (_request, response) => {
      const timer = setTimeout(() => response.end('<html><body>late</body></html>'), 8_000);
      response.on('close', () => clearTimeout(timer));
    },
    '/images/diagram-large.png': (_request, response) =>
      response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(8)),
  });
}
