import {
  type CorpusPage,
  doc,
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

/** JS_PAGES, first part: timers, fetch/XHR renders and framework mounts (React, Next, Vue, Svelte, Angular). */
export const JS_PAGES_SCRIPTED: CorpusPage[] = [
  (() => {
    const m = mark('timer400');
    return {
      id: 'timer-400ms-chrome',
      pattern: 'timer',
      marker: m,
      // The case: a real header and footer, an empty container, a 400 ms timer filling it.
      html: doc(
        'Trail running vest | Northwind',
        `${SHOP_HEADER}<main><div id="content"></div></main>${SHOP_FOOTER}
<script>setTimeout(function () {
  document.getElementById('content').innerHTML = '<h1>Ridgeline 12 running vest</h1><p>The ' + ${split(m)} + ' vest carries two soft flasks, a rain shell and a phone on long mountain runs.</p><p>It weighs 310 g and comes in three sizes.</p>';
}, 400);</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('timerbare');
    return {
      id: 'timer-bare-loading',
      pattern: 'timer',
      marker: m,
      html: doc(
        'Loading',
        `<div class="page"><p class="loading">Loading…</p></div>
<script>setTimeout(() => { document.querySelector('.page').innerHTML = '<article><h1>Quarterly update</h1><p>Revenue grew in every region; the ' + ${split(m)} + ' programme doubled its members.</p></article>'; }, 150);</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('fetchgrid');
    return {
      id: 'fetch-json-grid',
      pattern: 'fetch-then-render',
      marker: m,
      html: doc(
        'Camping stoves | Northwind',
        `${SHOP_HEADER}<main><h1>Camping stoves</h1><section id="products" class="product-grid" aria-live="polite"></section></main>${SHOP_FOOTER}
<script>
fetch('/api/stoves.json').then((response) => response.json()).then((items) => {
  const grid = document.getElementById('products');
  grid.innerHTML = items.map((item) => '<article class="card"><h2>' + item.name + '</h2><p>' + item.text + '</p><p class="price">' + item.price + '</p></article>').join('');
});
</script>`,
      ),
      routes: {
        '/api/stoves.json': json([
          {
            name: 'Pocket rocket stove',
            text: `A ${m} canister stove that boils a litre in three minutes.`,
            price: '€59.00',
          },
          {
            name: 'Basecamp double burner',
            text: 'Two burners and a windscreen for group cooking.',
            price: '€149.00',
          },
          {
            name: 'Alpine liquid fuel stove',
            text: 'Burns white gas and kerosene at altitude and in the cold.',
            price: '€189.00',
          },
        ]),
      },
    };
  })(),
  (() => {
    const m = mark('xhrlist');
    return {
      id: 'xhr-news-list',
      pattern: 'fetch-then-render',
      marker: m,
      html: doc(
        'Latest news | The Harbour Gazette',
        `${NEWS_HEADER}<main><h1>Latest news</h1><ul id="stories"></ul></main>${NEWS_FOOTER}
<script>
var request = new XMLHttpRequest();
request.open('GET', '/api/latest');
request.onload = function () {
  var stories = JSON.parse(request.responseText);
  var list = document.getElementById('stories');
  stories.forEach(function (story) {
    var item = document.createElement('li');
    item.innerHTML = '<a href="' + story.url + '">' + story.title + '</a><p>' + story.summary + '</p>';
    list.appendChild(item);
  });
};
request.send();
</script>`,
      ),
      routes: {
        '/api/latest': json([
          {
            url: '/local/ferry',
            title: 'Ferry timetable changes from Monday',
            summary: `The ${m} crossing will run every forty minutes.`,
          },
          {
            url: '/business/port',
            title: 'Port handles record tonnage',
            summary: 'Container traffic rose by twelve percent last year.',
          },
        ]),
      },
    };
  })(),
  (() => {
    const m = mark('reactroot');
    return {
      id: 'react-empty-root',
      pattern: 'hydration',
      marker: m,
      html: doc(
        'Dashboard',
        `<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><script src="/static/js/main.8f3a2c.js"></script>`,
        '<link rel="stylesheet" href="/static/css/main.css">',
      ),
      routes: {
        '/static/js/main.8f3a2c.js': script(
          `document.getElementById('root').innerHTML = '<main><h1>Team dashboard</h1><p>Open tickets: 14. The ' + ${split(m)} + ' queue is empty.</p></main>';`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('nextskeleton');
    const state = {
      props: {
        pageProps: {
          article: {
            title: 'How tides are predicted',
            body: `Tide tables combine astronomical constituents; the ${m} method adds local harmonics measured over a year. Predictions are published twelve months ahead and corrected for air pressure when storms pass.`,
          },
        },
      },
      page: '/articles/[slug]',
    };
    return {
      id: 'next-skeleton-data',
      pattern: 'hydration',
      marker: m,
      html: doc(
        'How tides are predicted',
        `<div id="__next"><div class="layout"><div class="skeleton skeleton-title"></div><div class="skeleton skeleton-line"></div><div class="skeleton skeleton-line"></div><div class="skeleton skeleton-line short"></div></div></div>
<script id="__NEXT_DATA__" type="application/json">${JSON.stringify(state)}</script>
<script src="/_next/static/chunks/main-4a1b.js" defer></script>`,
      ),
      routes: {
        '/_next/static/chunks/main-4a1b.js': script(
          `const data = JSON.parse(document.getElementById('__NEXT_DATA__').textContent).props.pageProps.article;
document.querySelector('#__next .layout').innerHTML = '<article><h1>' + data.title + '</h1><p>' + data.body + '</p></article>';`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('vuemustache');
    return {
      id: 'vue-mustache-template',
      pattern: 'hydration',
      marker: m,
      html: doc(
        'Event',
        `<div id="app"><h1>{{ event.title }}</h1><p>{{ event.date }} · {{ event.venue }}</p><p v-for="line in event.description">{{ line }}</p><button @click="register">Register</button></div>
<script>
const event = { title: 'Harbour lights festival', date: '14 March', venue: 'North Quay', description: ['Lanterns, music and food stalls along the water.', 'The ' + ${split(m)} + ' parade starts at eight.'] };
const app = document.getElementById('app');
app.innerHTML = '<h1>' + event.title + '</h1><p>' + event.date + ' · ' + event.venue + '</p>' + event.description.map((line) => '<p>' + line + '</p>').join('') + '<button>Register</button>';
</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('sveltebody');
    return {
      id: 'svelte-body-mount',
      pattern: 'hydration',
      marker: m,
      html: doc(
        'Recipe finder',
        `<script type="module" src="/build/bundle.js"></script>`,
        '<link rel="stylesheet" href="/build/bundle.css"><link rel="icon" href="/favicon.png">',
      ),
      routes: {
        '/build/bundle.js': script(
          `const main = document.createElement('main');
main.innerHTML = '<h1>Recipe finder</h1><p>Search three thousand tested recipes. Today: ' + ${split(m)} + ' lentil soup with smoked paprika.</p>';
document.body.appendChild(main);`,
        ),
      },
    };
  })(),
  (() => {
    const m = mark('angularroot');
    return {
      id: 'angular-app-root-loading',
      pattern: 'hydration',
      marker: m,
      html: doc(
        'Portal',
        `<app-root><div class="app-loading"><div class="spinner"></div><p>Loading application…</p></div></app-root>
<script src="/runtime.js" type="module"></script><script src="/main.js" type="module"></script>`,
        '<base href="/">',
      ),
      routes: {
        '/runtime.js': script('window.ngRuntime = true;'),
        '/main.js': script(
          `document.querySelector('app-root').innerHTML = '<main><h1>Customer portal</h1><p>Your ' + ${split(m)} + ' contract renews on 1 June.</p></main>';`,
        ),
      },
    };
  })(),
];
