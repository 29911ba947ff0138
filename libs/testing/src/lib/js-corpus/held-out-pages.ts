import {
  type CorpusPage,
  doc,
  fragment,
  GTM,
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

const mark = markerFor('zh');

/**
 * Held-out JavaScript pages: written after the detector's rules were frozen, measured once and
 * never tuned on (docs/scraping.md reports both sets).
 */
export const JS_PAGES_HELDOUT: CorpusPage[] = [
  (() => {
    const m = mark('vuemount');
    return {
      id: 'held-vue-create-app',
      pattern: 'hydration (Vue createApp)',
      marker: m,
      html: doc(
        'Pricing',
        `${SHOP_HEADER}<div id="pricing-app"></div>${SHOP_FOOTER}<script src="/vendor/vue.global.prod.js"></script>
<script>Vue.createApp({ data: () => ({ plans: ['Basic 5 per month', 'Plus 12 per month'] }) }).mount('#pricing-app');</script>`,
      ),
      routes: {
        '/vendor/vue.global.prod.js': script(
          `window.Vue = { createApp: (options) => ({ mount: (selector) => { const state = options.data(); document.querySelector(selector).innerHTML = '<main><h1>Plans</h1><p>The ' + ${split(m)} + ' plan list:</p><ul>' + state.plans.map((p) => '<li>' + p + '</li>').join('') + '</ul></main>'; } }) };`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('introbody');
    return {
      id: 'held-intro-then-fetched-body',
      pattern: 'fetch-then-render after a server-rendered intro',
      marker: m,
      html: doc(
        'The night ferry',
        `${NEWS_HEADER}<main><article><h1>The night ferry</h1><p class="standfirst">For sixty years a ferry has crossed the strait every night at eleven. Its crew of nine has seen storms, strikes and one wedding on the car deck. We spent a week on board to find out why the service refuses to die, and why the islanders would march if it did. This is their story, in their words, from the bridge to the galley.</p>
<div class="article-body" aria-busy="false"></div></article></main>${NEWS_FOOTER}
<script>fetch('/api/articles/night-ferry').then(function (r) { return r.json(); }).then(function (a) { document.querySelector('.article-body').innerHTML = a.paragraphs.map(function (p) { return '<p>' + p + '</p>'; }).join(''); });</script>`,
      ),
      routes: {
        '/api/articles/night-ferry': json({
          paragraphs: [
            `Captain Ruth Ellery has worked the ${m} route since 1994.`,
            'The crossing takes ninety minutes in good weather.',
          ],
        }),
      },
    };
  })(),
  (() => {
    const m = mark('ember');
    return {
      id: 'held-ember-application',
      pattern: 'hydration (Ember)',
      marker: m,
      html: doc(
        'Issues',
        `<div id="ember-basic-dropdown-wormhole"></div><script src="/assets/vendor-3d1f.js"></script><script src="/assets/issues-app-88a0.js"></script>`,
        '<meta name="issues-app/config/environment" content="%7B%22modulePrefix%22%3A%22issues-app%22%7D">',
        'class="ember-application"',
      ),
      routes: {
        '/assets/vendor-3d1f.js': script('window.Ember = {};'),
        '/assets/issues-app-88a0.js': script(
          `const main = document.createElement('main'); main.innerHTML = '<h1>Open issues</h1><p>Issue 12: ' + ${split(m)} + ' export fails on large files.</p>'; document.body.appendChild(main);`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('islands');
    return {
      id: 'held-islands-external',
      pattern: 'islands hydrated by an external module',
      marker: m,
      html: doc(
        'Summit 2 tent',
        `${SHOP_HEADER}<main><h1>Summit 2 tent</h1><p class="price">€349.00</p><p>Two-person, three-season tent with two doors and two vestibules.</p><div data-island="specs"></div><div data-island="reviews"></div></main>${SHOP_FOOTER}
<script type="module" src="/islands/hydrate.js"></script>`,
      ),
      routes: {
        '/islands/hydrate.js': script(
          `document.querySelector('[data-island="specs"]').innerHTML = '<h2>Specifications</h2><p>Packed weight 1.9 kg; the ' + ${split(m)} + ' poles are aluminium.</p>';
document.querySelector('[data-island="reviews"]').innerHTML = '<h2>Reviews</h2><p>Roomy and quick to pitch.</p>';`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('csvtable');
    return {
      id: 'held-table-body-from-csv',
      pattern: 'fetch-then-render into a table body',
      marker: m,
      html: doc(
        'Fuel prices',
        `${NEWS_HEADER}<main><h1>Fuel prices this week</h1><table id="prices"><thead><tr><th>Station</th><th>Diesel</th><th>Petrol</th></tr></thead><tbody></tbody></table></main>${NEWS_FOOTER}
<script>fetch('/data/prices.csv').then((r) => r.text()).then((csv) => {
  document.querySelector('#prices tbody').innerHTML = csv.trim().split('\\n').map((line) => '<tr>' + line.split(',').map((cell) => '<td>' + cell + '</td>').join('') + '</tr>').join('');
});</script>`,
      ),
      routes: {
        '/data/prices.csv': { body: `${m} Quay,1.61,1.72\nRing Road,1.58,1.69\n`, contentType: 'text/csv' },
      },
    };
  })(),
  (() => {
    const m = mark('i18n');
    return {
      id: 'held-i18n-keys',
      pattern: 'text filled from a translation dictionary',
      marker: m,
      html: doc(
        'Welcome',
        `${SHOP_HEADER}<main><h1 data-i18n="welcome.title"></h1><p data-i18n="welcome.intro"></p><p data-i18n="welcome.delivery"></p></main>${SHOP_FOOTER}
<script src="/i18n/runtime.js"></script>`,
      ),
      routes: {
        '/i18n/runtime.js': script(
          `const dictionary = { 'welcome.title': 'Welcome to Northwind', 'welcome.intro': 'Outdoor gear tested by the ' + ${split(m)} + ' team since 1998.', 'welcome.delivery': 'Free delivery over 60 euros.' };
document.querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = dictionary[el.getAttribute('data-i18n')]; });`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('litpost');
    return {
      id: 'held-lit-style-component',
      pattern: 'web components (module, shadow DOM) after an intro',
      marker: m,
      html: doc(
        'Blog',
        `${NEWS_HEADER}<main><p class="intro">Field notes from the research station: weekly posts from the team on the glacier, covering weather, measurements, equipment failures and the occasional visit from a curious fox. New posts appear every Monday morning, and the archive goes back to the first season in 2019.</p><blog-post slug="week-31"></blog-post></main>${NEWS_FOOTER}
<script type="module" src="/components/blog-post.js"></script>`,
      ),
      routes: {
        '/components/blog-post.js': script(
          `customElements.define('blog-post', class extends HTMLElement { connectedCallback() { this.attachShadow({ mode: 'open' }).innerHTML = '<article><h2>Week 31</h2><p>The ' + ${split(m)} + ' stake moved 14 cm this week.</p></article>'; } });`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('knockout');
    return {
      id: 'held-knockout-bindings',
      pattern: 'hydration (Knockout bindings) after an intro',
      marker: m,
      html: doc(
        'Account',
        `${SHOP_HEADER}<main><h1>Your membership</h1><p>Members collect points on every purchase and get early access to the winter sale, free repairs on gear bought in our stores and a birthday voucher every year.</p><dl><dt>Member</dt><dd data-bind="text: name"></dd><dt>Points</dt><dd data-bind="text: points"></dd><dt>Level</dt><dd data-bind="text: level"></dd></dl></main>${SHOP_FOOTER}
<script src="/js/knockout-min.js"></script><script>ko.applyBindings({ name: 'A. Okafor', points: 1240, level: ${split(m)} });</script>`,
      ),
      routes: {
        '/js/knockout-min.js': script(
          `window.ko = { applyBindings: (model) => document.querySelectorAll('[data-bind]').forEach((el) => { el.textContent = model[el.getAttribute('data-bind').replace('text: ', '')]; }) };`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('search');
    return {
      id: 'held-search-results',
      pattern: 'search results fetched by the client',
      marker: m,
      html: doc(
        'Search',
        `${SHOP_HEADER}<div class="search-page"><aside class="facets"><h2>Filters</h2><p>Category</p><label><input type="checkbox"> Tents</label><label><input type="checkbox"> Sleeping bags</label><p>Price</p><label><input type="checkbox"> Under 100 euros</label></aside><section id="results" aria-live="polite"></section></div>${SHOP_FOOTER}
<script>const query = new URLSearchParams(location.search).get('q') || 'tent';
fetch('/api/search?q=' + encodeURIComponent(query)).then((r) => r.json()).then((hits) => {
  document.getElementById('results').innerHTML = hits.map((hit) => '<article><h3>' + hit.title + '</h3><p>' + hit.text + '</p></article>').join('');
});</script>`,
      ),
      routes: {
        '/api/search': json([{ title: 'Summit 2 tent', text: `Two-person ${m} tent, 1.9 kg.` }]),
      },
    };
  })(),
  (() => {
    const m = mark('fragmentload');
    return {
      id: 'held-partial-on-load',
      pattern: 'lazy section loaded on window load',
      marker: m,
      html: doc(
        'Timetable',
        `${NEWS_HEADER}<main><h1>Winter timetable</h1><div id="timetable-partial" class="partial"></div></main>${NEWS_FOOTER}
<script>window.onload = function () { var x = new XMLHttpRequest(); x.open('GET', '/partials/winter.html'); x.onload = function () { document.getElementById('timetable-partial').innerHTML = x.responseText; }; x.send(); };</script>`,
      ),
      routes: {
        '/partials/winter.html': fragment(
          `<p>Boats leave at 07:10 and 16:40; the ${m} boat runs on Saturdays only.</p>`,
        ),
      },
    };
  })(),
];

/** Held-out static pages (same rules as JS_PAGES_HELDOUT). */
export const STATIC_PAGES_HELDOUT: CorpusPage[] = [
  (() => {
    const m = mark('related');
    return {
      id: 'held-article-related-widget',
      pattern: 'related-articles widget filled by script',
      marker: m,
      html: doc(
        'Storm damage',
        `${NEWS_HEADER}<main><article><h1>Storm damage along the coast road</h1>${prose('coast road', 4, m)}</article><div id="related-articles"></div></main>${NEWS_FOOTER}
<script>fetch('/api/related?slug=storm').then((r) => r.json()).then((items) => { document.getElementById('related-articles').innerHTML = items.map((i) => '<a href="' + i.url + '">' + i.title + '</a>').join(''); });</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('reviewswidget');
    return {
      id: 'held-product-reviews-component',
      pattern: 'reviews web component on a full product page',
      marker: m,
      html: doc(
        'Alpine liquid fuel stove',
        `${SHOP_HEADER}<main><h1>Alpine liquid fuel stove</h1><p class="price">€189.00</p>${prose('liquid fuel stove', 3, m)}<product-reviews product="alpine-stove"></product-reviews></main>${SHOP_FOOTER}
<script type="module" src="/components/reviews.js"></script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('moved');
    return {
      id: 'held-short-confirmation-app',
      pattern: 'short confirmation page with the site bundle',
      marker: m,
      html: doc(
        'Order confirmed',
        `<main><h1>Order confirmed</h1><p>Thank you. Order ${m} is on its way.</p></main><script src="/assets/site.js" defer></script>`,
        GTM,
      ),
    };
  })(),
  (() => {
    const m = mark('vuedocs');
    return {
      id: 'held-docs-with-template-examples',
      pattern: 'template syntax in code examples',
      marker: m,
      html: doc(
        'Template syntax',
        `<nav><a href="/guide">Guide</a><a href="/api">API</a></nav><main><h1>Template syntax</h1><p>The ${m} templates interpolate values with double curly braces.</p><pre><code>&lt;span&gt;Message: {{ msg }}&lt;/span&gt;\n&lt;p&gt;{{ count + 1 }}&lt;/p&gt;</code></pre><p>The value is escaped; use the raw directive for HTML. Expressions may call methods and use ternaries, but not statements.</p><pre><code>{{ ok ? 'YES' : 'NO' }}</code></pre></main>
<script src="/assets/docs.js" defer></script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('sveltekit');
    return {
      id: 'held-sveltekit-ssr',
      pattern: 'server-rendered framework page (SvelteKit)',
      marker: m,
      html: doc(
        'Tide tables',
        `<div style="display: contents"><main><h1>Tide tables</h1><p>High water at the ${m} pier today: 06:42 and 19:05. Low water: 00:31 and 12:58.</p><p>Tomorrow the range increases as spring tides approach.</p></main></div>
<script type="module" data-sveltekit-hydrate="1x9zd2">import { start } from '/_app/immutable/start.js'; start({ target: document.querySelector('[data-sveltekit-hydrate="1x9zd2"]').parentNode });</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('alpinedropdown');
    return {
      id: 'held-alpine-dropdown',
      pattern: 'Alpine.js interactivity on server-rendered content',
      marker: m,
      html: doc(
        'Opening times',
        `<header x-data="{ open: false }"><button @click="open = !open">Menu</button><span x-text="open ? 'Close' : ''"></span></header><main><h1>Library opening times</h1><p>The ${m} library is open Monday to Saturday from 9:00 to 20:00. On Sundays the reading room opens from 12:00 to 17:00.</p><p>Returns can be dropped in the box by the entrance at any time.</p></main>
<script defer src="/js/alpine.min.js"></script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('prism');
    return {
      id: 'held-blog-code-highlighting',
      pattern: 'highlighting, comment form and newsletter modal',
      marker: m,
      html: doc(
        'Parsing dates safely',
        `<header><a href="/">Dev notes</a></header><main><article><h1>Parsing dates safely</h1>${prose('date parser', 3, m)}<pre><code class="language-js">const d = new Date(Date.parse(input));</code></pre></article><form id="comment"><textarea></textarea><button>Post comment</button></form></main><div class="modal" id="newsletter" hidden><p>Get new posts by email.</p></div>
<script src="/js/prism.js"></script><script>setTimeout(function () { document.getElementById('newsletter').hidden = false; }, 15000);</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('menubasket');
    return {
      id: 'held-menu-with-basket',
      pattern: 'order basket filled by script beside a server-rendered menu',
      marker: m,
      html: doc(
        'Menu',
        `<header><a href="/">Harbour Café</a></header><main><h1>Lunch menu</h1><div class="menu"><p>${m} fish soup with rye bread — 9.50</p><p>Smoked mackerel salad — 11.00</p><p>Mushroom risotto — 12.50</p><p>Apple cake with cream — 4.80</p></div><aside class="order"><h2>Your order</h2><div class="basket"></div></aside></main>
<script>const basket = JSON.parse(localStorage.getItem('basket') || '[]'); document.querySelector('.basket').innerHTML = basket.length ? basket.join('<br>') : 'Empty';</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('govsearch');
    return {
      id: 'held-government-guidance',
      pattern: 'noscript notice for a search box on a long page',
      marker: m,
      html: doc(
        'Apply for a fishing licence',
        `<a class="skip" href="#main">Skip to main content</a><header><a href="/">City services</a><form><input aria-label="Search"><noscript>Please enable JavaScript to use the search.</noscript></form></header><main id="main"><h1>Apply for a fishing licence</h1>${prose('licence application', 4, m)}</main><footer><p>City council</p></footer>
<script src="/assets/govuk-frontend.min.js"></script><script>window.GOVUKFrontend.initAll();</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('liveblog');
    return {
      id: 'held-article-live-embed',
      pattern: 'live-blog embed beside a full article',
      marker: m,
      html: doc(
        'Marathon day',
        `${NEWS_HEADER}<main><article><h1>Marathon day: roads closed until 4 pm</h1>${prose('marathon route', 5, m)}<div id="liveblog"></div></article></main>${NEWS_FOOTER}
<script>setInterval(function () { fetch('/api/live').then(function (r) { return r.text(); }).then(function (h) { document.getElementById('liveblog').innerHTML = h; }); }, 30000);</script>`,
      ),
    };
  })(),
];
