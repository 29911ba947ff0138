import {
  ADS,
  type CorpusPage,
  doc,
  fragment,
  GTAG,
  json,
  markerFor,
  NEWS_FOOTER,
  NEWS_HEADER,
  prose,
  script,
  SHOP_FOOTER,
  SHOP_HEADER,
  split,
} from './corpus-parts';

const mark = markerFor('zq');

/**
 * Second held-out set: written after the short-page rule of 2026-12-02 (a title and a sentence with
 * nothing the scripts fill is a whole page), before it was measured, and never tuned on
 * (docs/scraping.md reports every set's first measurement).
 */
export const JS_PAGES_HELDOUT_2: CorpusPage[] = [
  (() => {
    const m = mark('jqueryjson');
    return {
      id: 'held2-jquery-getjson-list',
      pattern: 'jQuery getJSON then render a list',
      marker: m,
      html: doc(
        'Branch opening hours',
        `${NEWS_HEADER}<main><h1>Branch opening hours</h1><ul id="branches"></ul></main>${NEWS_FOOTER}
<script src="/h2/vendor/jquery.min.js"></script>
<script>$.getJSON('/h2/api/branches', function (rows) { $('#branches').html(rows.map(function (r) { return '<li>' + r + '</li>'; }).join('')); });</script>`,
      ),
      routes: {
        '/h2/vendor/jquery.min.js': script(
          `window.$ = function (sel) { var el = document.querySelector(sel); return { html: function (h) { el.innerHTML = h; } }; }; window.$.getJSON = function (url, cb) { fetch(url).then(function (r) { return r.json(); }).then(cb); };`,
        ),
        '/h2/api/branches': json([
          `Harbour ${m} branch: 9:00 to 17:30 on weekdays`,
          'Old Town branch: 10:00 to 16:00',
        ]),
      },
    };
  })(),
  (() => {
    const m = mark('reactbundle');
    return {
      id: 'held2-react-root-external-bundle',
      pattern: 'React root rendered by an external bundle',
      marker: m,
      html: doc(
        'Trip planner',
        `<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><script defer src="/h2/static/js/main.4f2a.js"></script>`,
      ),
      routes: {
        '/h2/static/js/main.4f2a.js': script(
          `document.getElementById('root').innerHTML = '<main><h1>Trip planner</h1><p>Plan a ' + ${split(m)} + ' route across three regions with ferry times included.</p></main>';`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('alpinefor');
    return {
      id: 'held2-alpine-x-for',
      pattern: 'Alpine x-data with x-for list',
      marker: m,
      html: doc(
        'Course list',
        `<main x-data="{ courses: [] }" x-init="courses = await (await fetch('/h2/api/courses')).json()"><h1>Evening courses</h1><template x-for="course in courses"><article><h2 x-text="course.title"></h2><p x-text="course.summary"></p></article></template></main>
<script defer src="/h2/vendor/alpine.min.js"></script>`,
      ),
      routes: {
        '/h2/vendor/alpine.min.js': script(
          `fetch('/h2/api/courses').then((r) => r.json()).then((items) => { document.querySelector('main').insertAdjacentHTML('beforeend', items.map((c) => '<article><h2>' + c.title + '</h2><p>' + c.summary + '</p></article>').join('')); });`,
        ),
        '/h2/api/courses': json([
          { title: 'Pottery', summary: `Wheel throwing for ${m} beginners, six Tuesday evenings.` },
        ]),
      },
    };
  })(),
  (() => {
    const m = mark('htmxload');
    return {
      id: 'held2-htmx-load-trigger',
      pattern: 'htmx fragment loaded on page load',
      marker: m,
      html: doc(
        'Departures',
        `${NEWS_HEADER}<main><h1>Departures</h1><div hx-get="/h2/fragments/departures" hx-trigger="load"></div></main>${NEWS_FOOTER}
<script src="/h2/vendor/htmx.min.js"></script>`,
      ),
      routes: {
        '/h2/vendor/htmx.min.js': script(
          `document.querySelectorAll('[hx-get]').forEach((el) => fetch(el.getAttribute('hx-get')).then((r) => r.text()).then((h) => { el.innerHTML = h; }));`,
        ),
        '/h2/fragments/departures': fragment(
          `<table><tr><td>08:15</td><td>${m} ferry to the islands</td></tr></table>`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('storytimer');
    return {
      id: 'held2-timer-external-script',
      pattern: 'timer in an external script fills an empty article',
      marker: m,
      html: doc(
        'Council budget',
        `${NEWS_HEADER}<article id="story"></article>${NEWS_FOOTER}<script src="/h2/js/story.js"></script>`,
      ),
      routes: {
        '/h2/js/story.js': script(
          `setTimeout(() => { document.getElementById('story').innerHTML = '<h1>Council budget approved</h1>' + '<p>The council approved the ' + ${split(m)} + ' budget after a long evening session.</p>'.repeat(4); }, 400);`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('shadowcard');
    return {
      id: 'held2-shadow-dom-component',
      pattern: 'web component with a shadow root from a module',
      marker: m,
      html: doc(
        'Trail shoe',
        `${SHOP_HEADER}<main><product-detail sku="TR-204"></product-detail></main>${SHOP_FOOTER}<script type="module" src="/h2/components/product-detail.js"></script>`,
      ),
      routes: {
        '/h2/components/product-detail.js': script(
          `customElements.define('product-detail', class extends HTMLElement { connectedCallback() { this.attachShadow({ mode: 'open' }).innerHTML = '<h1>Trail shoe TR-204</h1><p>Grippy ' + ${split(m)} + ' outsole, 280 g per shoe.</p>'; } });`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('nextdata');
    return {
      id: 'held2-next-data-empty-root',
      pattern: 'Next.js page data with an empty root',
      marker: m,
      html: doc(
        'Menu',
        `<div id="__next"></div><script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps: { dishes: [`${m} lentil soup`, 'Grilled halloumi', 'Lemon tart'] } } })}</script><script src="/h2/_next/static/chunks/main.js" defer></script>`,
      ),
      routes: {
        '/h2/_next/static/chunks/main.js': script(
          `const data = JSON.parse(document.getElementById('__NEXT_DATA__').textContent); document.getElementById('__next').innerHTML = '<main><h1>Menu</h1><ul>' + data.props.pageProps.dishes.map((d) => '<li>' + d + '</li>').join('') + '</ul></main>';`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('angularroot');
    return {
      id: 'held2-angular-app-root',
      pattern: 'Angular app-root element',
      marker: m,
      html: doc(
        'Account',
        `<app-root></app-root><script src="/h2/runtime.js" type="module"></script><script src="/h2/main.js" type="module"></script>`,
      ),
      routes: {
        '/h2/runtime.js': script(''),
        '/h2/main.js': script(
          `document.querySelector('app-root').innerHTML = '<main><h1>Your account</h1><p>Manage the ' + ${split(m)} + ' subscription and your invoices here.</p></main>';`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('fetchhtml');
    return {
      id: 'held2-fetch-html-into-main',
      pattern: 'fetch an HTML fragment into the main element',
      marker: m,
      html: doc(
        'Release notes',
        `${NEWS_HEADER}<main id="content" class="loading"></main>${NEWS_FOOTER}<script>fetch('/h2/partials/release-notes.html').then((r) => r.text()).then((html) => { const main = document.getElementById('content'); main.innerHTML = html; main.classList.remove('loading'); });</script>`,
      ),
      routes: {
        '/h2/partials/release-notes.html': fragment(
          `<h1>Release notes</h1><p>Version 4.2 adds ${m} offline maps and fixes the sync of saved routes.</p>`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('stimulus');
    return {
      id: 'held2-stimulus-controller',
      pattern: 'Stimulus controller fills its target on connect',
      marker: m,
      html: doc(
        'Weather',
        `${NEWS_HEADER}<main><h1>Weather</h1><div data-controller="forecast" data-forecast-url-value="/h2/api/forecast"><div data-forecast-target="days"></div></div></main>${NEWS_FOOTER}<script type="module" src="/h2/controllers/forecast.js"></script>`,
      ),
      routes: {
        '/h2/controllers/forecast.js': script(
          `fetch('/h2/api/forecast').then((r) => r.json()).then((f) => { document.querySelector('[data-forecast-target="days"]').innerHTML = '<p>' + f.summary + '</p>'; });`,
        ),
        '/h2/api/forecast': json({ summary: `Dry and ${m} bright until Thursday, rain at the weekend.` }),
      },
    };
  })(),
];

/** Second held-out set of static pages: scripts that do not carry the content. */
export const STATIC_PAGES_HELDOUT_2: CorpusPage[] = [
  (() => {
    const m = mark('notfound');
    return {
      id: 'held2-short-not-found',
      pattern: 'short 404 page with the site bundle',
      marker: m,
      html: doc(
        'Page not found',
        `${SHOP_HEADER}<main><h1>Page not found</h1><p>The ${m} page you asked for has moved or no longer exists.</p></main>${SHOP_FOOTER}<script src="/assets/app.js" defer></script>`,
        GTAG,
      ),
    };
  })(),
  (() => {
    const m = mark('disqus');
    return {
      id: 'held2-blog-post-comments-embed',
      pattern: 'blog post with a comments embed',
      marker: m,
      html: doc(
        'Sharpening chisels',
        `<header><a href="/">Workshop notes</a></header><main><article><h1>Sharpening chisels</h1>${prose('chisel', 4, m)}</article><div id="disqus_thread"></div></main>
<script>var disqus_config = function () { this.page.url = location.href; }; (function () { var d = document, s = d.createElement('script'); s.src = 'https://workshop.disqus.com/embed.js'; (d.head || d.body).appendChild(s); })();</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('pricetoggle');
    return {
      id: 'held2-pricing-toggle',
      pattern: 'pricing page whose script toggles monthly and annual prices',
      marker: m,
      html: doc(
        'Pricing',
        `<main><h1>Pricing</h1><p>${m} plans for teams of every size.</p><div class="plan"><h2>Team</h2><p class="monthly">12 euros per user per month</p><p class="annual" hidden>120 euros per user per year</p></div><div class="plan"><h2>Business</h2><p class="monthly">25 euros per user per month</p><p class="annual" hidden>250 euros per user per year</p></div><button id="toggle">Show annual prices</button></main>
<script>document.getElementById('toggle').addEventListener('click', () => document.querySelectorAll('.monthly, .annual').forEach((p) => { p.hidden = !p.hidden; }));</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('faqaccordion');
    return {
      id: 'held2-faq-accordion',
      pattern: 'FAQ with an accordion script',
      marker: m,
      html: doc(
        'Frequently asked questions',
        `${SHOP_HEADER}<main><h1>Frequently asked questions</h1><details><summary>How long does delivery take?</summary><p>Orders ship within two ${m} working days and arrive in three to five days.</p></details><details><summary>Can I return sale items?</summary><p>Yes, within 30 days, unworn and with the tags attached.</p></details></main>${SHOP_FOOTER}
<script src="/assets/accordion.js"></script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('statuspage');
    return {
      id: 'held2-status-page-refresh',
      pattern: 'short status page that refreshes itself',
      marker: m,
      html: doc(
        'Service status',
        `<main><h1>Service status</h1><p>All ${m} systems operational.</p><p>Last checked at 09:40 UTC.</p></main><script>setTimeout(() => location.reload(), 60000);</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('contactmap');
    return {
      id: 'held2-contact-page-map',
      pattern: 'contact page with a map widget in the sidebar',
      marker: m,
      html: doc(
        'Contact',
        `${SHOP_HEADER}<main><h1>Contact us</h1><p>Write to ${m} support at help@northwind.example or call 030 555 0182 on weekdays.</p><p>Visit us at Hafenstrasse 12, 20457 Hamburg.</p></main><aside><div id="map"></div></aside>${SHOP_FOOTER}
<script>window.addEventListener('load', () => { const map = document.getElementById('map'); map.innerHTML = '<iframe src="https://maps.example/embed?q=Hafenstrasse+12"></iframe>'; });</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('recipeprint');
    return {
      id: 'held2-recipe-print-button',
      pattern: 'recipe with a print button script',
      marker: m,
      html: doc(
        'Rye bread',
        `${NEWS_HEADER}<main><article><h1>Rye bread</h1><ul><li>500 g ${m} rye flour</li><li>10 g salt</li><li>400 ml warm water</li><li>100 g sourdough starter</li></ul><ol><li>Mix everything and leave it covered for twelve hours.</li><li>Shape, proof for two hours and bake at 230 °C for 50 minutes.</li></ol><button onclick="window.print()">Print recipe</button></article></main>${NEWS_FOOTER}`,
      ),
    };
  })(),
  (() => {
    const m = mark('carousel');
    return {
      id: 'held2-product-gallery-carousel',
      pattern: 'product page with an image carousel script',
      marker: m,
      html: doc(
        'Down jacket',
        `${SHOP_HEADER}<main><div class="carousel"><img src="/img/jacket-1.jpg" alt="Front"><img src="/img/jacket-2.jpg" alt="Back"></div><h1>Down jacket</h1><p class="price">€229.00</p><p>Warm ${m} down jacket with 750 fill power and a recycled shell.</p></main>${SHOP_FOOTER}
<script src="/h2/vendor/carousel.min.js"></script><script>new Carousel(document.querySelector('.carousel'), { autoplay: true });</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('newsads');
    return {
      id: 'held2-news-article-ads',
      pattern: 'long news article with ad slots',
      marker: m,
      html: doc(
        'Harbour dredging',
        `${NEWS_HEADER}<main><article><h1>Harbour dredging starts in March</h1>${prose('dredging plan', 5, m)}<div id="div-gpt-ad-mpu"></div></article></main>${NEWS_FOOTER}`,
        ADS,
      ),
    };
  })(),
  (() => {
    const m = mark('docsearch');
    return {
      id: 'held2-docs-page-search-widget',
      pattern: 'documentation page with a search widget script',
      marker: m,
      html: doc(
        'Configuration',
        `<nav><a href="/docs">Docs</a><div id="docsearch"></div></nav><main><h1>Configuration</h1><p>The ${m} settings file is read once at start-up.</p><h2>timeout</h2><p>How long a request may take, in seconds. Default: 30.</p><h2>retries</h2><p>How often a failed request is sent again. Default: 2.</p></main>
<script src="/assets/docsearch.js"></script><script>docsearch({ container: '#docsearch', indexName: 'docs' });</script>`,
      ),
    };
  })(),
];
