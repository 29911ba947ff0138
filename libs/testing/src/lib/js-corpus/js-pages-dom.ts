import {
  COOKIE_BANNER,
  type CorpusPage,
  doc,
  fragment,
  json,
  markerFor,
  NEWS_FOOTER,
  NEWS_HEADER,
  script,
  SHOP_FOOTER,
  SHOP_HEADER,
  split,
} from './corpus-parts';

const mark = markerFor('zq');

/**
 * JS_PAGES, second part: lazy sections, document.write, web components, noscript shells, client-side
 * routers, state blobs, script-built content and later variants of the first part's patterns.
 */
export const JS_PAGES_DOM: CorpusPage[] = [
  (() => {
    const m = mark('lazyinclude');
    return {
      id: 'lazy-include-sections',
      pattern: 'lazy sections',
      marker: m,
      html: doc(
        'Lake Orta walking guide',
        `${NEWS_HEADER}<main><article><h1>Lake Orta walking guide</h1><p class="standfirst">Three days around a quiet lake.</p>
<div class="lazy-section" data-include="/fragments/day-1.html"></div><div class="lazy-section" data-include="/fragments/day-2.html"></div></article></main>${NEWS_FOOTER}
<script>
document.querySelectorAll('[data-include]').forEach(function (section) {
  fetch(section.getAttribute('data-include')).then(function (r) { return r.text(); }).then(function (html) { section.innerHTML = html; });
});
</script>`,
      ),
      routes: {
        '/fragments/day-1.html': fragment(
          `<h2>Day one</h2><p>From Omegna follow the ${m} path along the eastern shore to Pella, about eighteen kilometres.</p>`,
        ),
        '/fragments/day-2.html': fragment(
          '<h2>Day two</h2><p>Take the boat to the island of San Giulio, then climb to the Sacro Monte chapels.</p>',
        ),
      },
    };
  })(),
  (() => {
    const m = mark('docwrite');
    return {
      id: 'document-write-article',
      pattern: 'document.write',
      marker: m,
      html: doc(
        'Notice',
        `<div class="wrap"><script>
document.write('<h1>Service notice</h1>');
document.write('<p>The ' + ${split(m)} + ' water main on Elm Street will be replaced between 9 and 17 March; expect low pressure in the mornings.</p>');
document.write('<p>Residents affected will receive a letter from the utility.</p>');
</script></div>`,
      ),
    };
  })(),
  (() => {
    const m = mark('shadowcard');
    return {
      id: 'web-component-shadow',
      pattern: 'web components',
      marker: m,
      html: doc(
        'Specifications',
        `${SHOP_HEADER}<main><product-specs sku="NW-4410"></product-specs></main>${SHOP_FOOTER}
<script>
class ProductSpecs extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = '<style>h2{font-size:1.2em}</style><h2>Summit 2 tent</h2><p>The ' + ${split(m)} + ' tent sleeps two and packs down to 1.9 kg.</p><table><tr><th>Floor area</th><td>2.9 m²</td></tr></table>';
  }
}
customElements.define('product-specs', ProductSpecs);
</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('templatelight');
    return {
      id: 'web-component-template',
      pattern: 'web components',
      marker: m,
      html: doc(
        'Opening hours',
        `${NEWS_HEADER}<main><opening-hours data-branch="quay"></opening-hours>
<template id="hours-template"><h2>Opening hours</h2><p>Monday to Friday 9:00–18:00. The ${m} desk is open on Saturdays until noon.</p></template></main>${NEWS_FOOTER}
<script>
customElements.define('opening-hours', class extends HTMLElement {
  connectedCallback() { this.appendChild(document.getElementById('hours-template').content.cloneNode(true)); }
});
</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('noscriptshell');
    return {
      id: 'noscript-enable-shell',
      pattern: 'noscript shell',
      marker: m,
      html: doc(
        'Account',
        `${SHOP_HEADER}<noscript><div class="warning">This site requires JavaScript. Please enable JavaScript in your browser settings and reload the page.</div></noscript><div class="view"></div>${SHOP_FOOTER}
<script src="/assets/account.js" defer></script>`,
      ),
      routes: {
        '/assets/account.js': script(
          `document.querySelector('.view').innerHTML = '<main><h1>Order history</h1><p>Order 4471 (' + ${split(m)} + ' sleeping bag) shipped on 2 May.</p></main>';`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('hashrouter');
    return {
      id: 'hash-router',
      pattern: 'client-side router',
      marker: m,
      html: doc(
        'Handbook',
        `<nav class="sidebar"><a href="#/">Introduction</a><a href="#/install">Installation</a><a href="#/config">Configuration</a><a href="#/faq">FAQ</a></nav><div id="view" class="markdown-body"></div>
<script>
const routes = {
  '/': '<h1>Handbook</h1><p>Welcome to the handbook of the ' + ${split(m)} + ' command line tool, which syncs folders between machines over SSH.</p><p>Start with the installation chapter.</p>',
  '/install': '<h1>Installation</h1><p>Download the binary for your platform.</p>',
};
function show() { document.getElementById('view').innerHTML = routes[location.hash.slice(1) || '/'] || '<h1>Not found</h1>'; }
window.addEventListener('hashchange', show); show();
</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('historyrouter');
    return {
      id: 'history-router-external',
      pattern: 'client-side router',
      marker: m,
      html: doc(
        'Careers',
        `${NEWS_HEADER}<div data-router-view></div>${NEWS_FOOTER}<script type="module" src="/assets/router.js"></script>`,
      ),
      routes: {
        '/assets/router.js': script(
          `const views = { default: '<main><h1>Careers</h1><p>We are hiring a ' + ${split(m)} + ' data journalist and two sub-editors.</p></main>' };
window.addEventListener('popstate', () => {});
document.querySelector('[data-router-view]').innerHTML = views[location.pathname] || views.default;`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('stateblob');
    const state = {
      listing: {
        title: 'Two-bedroom flat near the harbour',
        details: `Bright ${m} flat on the third floor with a balcony facing the water, renovated kitchen, cellar storage and a bicycle room. Available from April; the rent includes heating and water.`,
        rent: '1,450 per month',
      },
    };
    return {
      id: 'initial-state-blob',
      pattern: 'hydration (state blob)',
      marker: m,
      html: doc(
        'Listing',
        `${NEWS_HEADER}<div id="listing-mount"></div>${NEWS_FOOTER}
<script>window.__INITIAL_STATE__ = ${JSON.stringify(state)};</script>
<script>
const listing = window.__INITIAL_STATE__.listing;
document.getElementById('listing-mount').innerHTML = '<main><h1>' + listing.title + '</h1><p>' + listing.details + '</p><p>Rent: ' + listing.rent + '</p></main>';
</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('jqueryload');
    return {
      id: 'jquery-load-fragment',
      pattern: 'fetch-then-render (jQuery)',
      marker: m,
      html: doc(
        'Timetable',
        `${NEWS_HEADER}<main><h1>Bus timetable</h1><div id="timetable"><p>Loading timetable…</p></div></main>${NEWS_FOOTER}
<script src="/js/jquery-3.7.1.min.js"></script>
<script>$(function () { $('#timetable').load('/partials/timetable.html'); });</script>`,
      ),
      routes: {
        '/js/jquery-3.7.1.min.js': script(
          `window.$ = function (arg) {
  if (typeof arg === 'function') { document.readyState === 'loading' ? document.addEventListener('DOMContentLoaded', arg) : arg(); return; }
  const element = document.querySelector(arg);
  return { load(url) { fetch(url).then((r) => r.text()).then((html) => { element.innerHTML = html; }); return this; } };
};`,
        ),
        '/partials/timetable.html': fragment(
          `<table><tr><th>Stop</th><th>Departure</th></tr><tr><td>${m} Square</td><td>07:15</td></tr><tr><td>Harbour</td><td>07:32</td></tr></table>`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('skeletonfeed');
    return {
      id: 'skeleton-feed',
      pattern: 'skeleton placeholders',
      marker: m,
      html: doc(
        'Community feed',
        `${SHOP_HEADER}<main class="feed"><div class="post-skeleton"><div class="shimmer avatar"></div><div class="shimmer line"></div><div class="shimmer line"></div></div><div class="post-skeleton"><div class="shimmer avatar"></div><div class="shimmer line"></div></div></main>${SHOP_FOOTER}
<script defer src="/feed.js"></script>`,
      ),
      routes: {
        '/feed.js': script(
          `fetch('/api/feed').then((r) => r.json()).then((posts) => {
  document.querySelector('main.feed').innerHTML = posts.map((p) => '<article><h2>' + p.author + '</h2><p>' + p.text + '</p></article>').join('');
});`,
        ),
        '/api/feed': json([
          { author: 'Mara', text: `Just back from the ${m} ridge traverse, the new boots held up well.` },
          { author: 'Tomas', text: 'Anyone tried the double burner stove above 3000 m?' },
        ]),
      },
    };
  })(),
  (() => {
    const m = mark('inlinedata');
    return {
      id: 'inline-array-render',
      pattern: 'script-built content',
      marker: m,
      html: doc(
        'Glossary',
        `${NEWS_HEADER}<main><h1>Sailing glossary</h1><dl id="terms"></dl></main>${NEWS_FOOTER}
<script>
const glossary = [
  ['Abeam', 'At a right angle to the length of the boat.'],
  ['Bearing away', 'Turning the boat away from the wind.'],
  ['Close hauled', 'Sailing as close to the wind as the boat can.'],
  ['Reefing', 'Reducing the sail area; the ' + ${split(m)} + ' reef is the deepest.'],
];
document.getElementById('terms').innerHTML = glossary.map(([term, meaning]) => '<dt>' + term + '</dt><dd>' + meaning + '</dd>').join('');
</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('domready');
    return {
      id: 'domcontentloaded-create-element',
      pattern: 'script-built content',
      marker: m,
      html: doc(
        'Menu',
        `${SHOP_HEADER}<main id="menu-page"></main>${SHOP_FOOTER}
<script>
document.addEventListener('DOMContentLoaded', function () {
  var main = document.getElementById('menu-page');
  var heading = document.createElement('h1'); heading.textContent = 'Café menu'; main.appendChild(heading);
  ['Flat white 3.20', 'Cardamom bun 3.80', 'Soup of the day (' + ${split(m)} + ' pumpkin) 6.50'].forEach(function (line) {
    var p = document.createElement('p'); p.textContent = line; main.appendChild(p);
  });
});
</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('raf');
    return {
      id: 'request-animation-frame',
      pattern: 'script-built content',
      marker: m,
      html: doc(
        'Status',
        `<header><h1>System status</h1></header><section id="status-board"></section>
<script>requestAnimationFrame(() => {
  document.getElementById('status-board').innerHTML = '<p>All systems operational. The ' + ${split(m)} + ' API answered in 84 ms on average today.</p><p>Last incident: 3 days ago.</p>';
});</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('gatsby');
    return {
      id: 'gatsby-focus-wrapper',
      pattern: 'hydration',
      marker: m,
      html: doc(
        'Blog',
        `<div id="___gatsby"><div style="outline:none" tabindex="-1" id="gatsby-focus-wrapper"></div><div id="gatsby-announcer" aria-live="assertive" aria-atomic="true"></div></div>
<script src="/app-7c1d.js" async></script>`,
      ),
      routes: {
        '/app-7c1d.js': script(
          `document.getElementById('gatsby-focus-wrapper').innerHTML = '<main><h1>Field notes</h1><p>Notes from the ' + ${split(m)} + ' expedition, week two: snow above the pass.</p></main>';`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('htmx');
    return {
      id: 'htmx-load-trigger',
      pattern: 'lazy sections (attributes)',
      marker: m,
      html: doc(
        'Reviews',
        `${SHOP_HEADER}<main><h1>Customer reviews</h1><div hx-get="/reviews/partial" hx-trigger="load" hx-swap="innerHTML"><span class="htmx-indicator">Loading reviews…</span></div></main>${SHOP_FOOTER}
<script src="/js/htmx.min.js"></script>`,
      ),
      routes: {
        '/js/htmx.min.js': script(
          `document.querySelectorAll('[hx-get]').forEach((el) => fetch(el.getAttribute('hx-get')).then((r) => r.text()).then((html) => { el.innerHTML = html; }));`,
        ),
        '/reviews/partial': fragment(
          `<blockquote>Warm and light, the ${m} jacket is my favourite layer. — Ines</blockquote><blockquote>Runs a size small. — Pavel</blockquote>`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('alpine');
    return {
      id: 'attribute-bindings',
      pattern: 'hydration (bindings)',
      marker: m,
      html: doc(
        'Pricing',
        `${NEWS_HEADER}<main x-data="pricing"><h1 x-text="title"></h1><p x-text="summary"></p><ul><li x-text="plans[0]"></li><li x-text="plans[1]"></li></ul></main>${NEWS_FOOTER}
<script>
const pricing = { title: 'Subscription plans', summary: 'Read without limits; the ' + ${split(m)} + ' plan includes the print edition.', plans: ['Digital 6 per month', 'Print and digital 14 per month'] };
document.querySelectorAll('[x-text]').forEach((el) => { const key = el.getAttribute('x-text'); el.textContent = key.includes('[') ? pricing.plans[Number(key.match(/\\d+/)[0])] : pricing[key]; });
</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('onloadchain');
    return {
      id: 'onload-then-timer',
      pattern: 'timer',
      marker: m,
      html: doc(
        'Results',
        `${COOKIE_BANNER}${NEWS_HEADER}<main><h1>Election results</h1><div id="results" class="placeholder"></div></main>${NEWS_FOOTER}
<script>window.addEventListener('load', function () {
  setTimeout(function () {
    document.getElementById('results').innerHTML = '<table><tr><th>Party</th><th>Seats</th></tr><tr><td>' + ${split(m)} + ' Alliance</td><td>41</td></tr><tr><td>Harbour First</td><td>29</td></tr></table>';
  }, 700);
});</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('nuxtdata');
    return {
      id: 'nuxt-spa-shell',
      pattern: 'hydration',
      marker: m,
      html: doc(
        'Docs',
        `<div id="__nuxt"><div class="nuxt-loading" aria-busy="true"></div></div>
<script>window.__NUXT__={config:{public:{}},serverRendered:false}</script>
<script type="module" src="/_nuxt/entry.3f2a.js" crossorigin></script>`,
      ),
      routes: {
        '/_nuxt/entry.3f2a.js': script(
          `document.getElementById('__nuxt').innerHTML = '<main><h1>Getting started</h1><p>Install the ' + ${split(m)} + ' module with npm, then add it to the modules array.</p></main>';`,
        ),
      },
    };
  })(),
];
