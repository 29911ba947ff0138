import {
  ADS,
  COOKIE_BANNER,
  type CorpusPage,
  doc,
  FB_PIXEL,
  GTAG,
  GTM,
  GTM_NOSCRIPT,
  HOTJAR,
  INTERCOM,
  markerFor,
  MATOMO,
  NEWS_FOOTER,
  NEWS_HEADER,
  ONETRUST,
  PLAUSIBLE,
  prose,
  script,
  SHOP_FOOTER,
  SHOP_HEADER,
} from './corpus-parts';

const mark = markerFor('zs');

/**
 * Server-rendered pages that carry scripts (analytics, widgets, consent, structured data, hydration
 * of content already present): the browser adds nothing to their text, so they must stay on HTTP.
 */
export const STATIC_PAGES: CorpusPage[] = [
  (() => {
    const m = mark('gtagblog');
    return {
      id: 'blog-with-gtag',
      pattern: 'analytics',
      marker: m,
      html: doc(
        'Ten years of trail maintenance',
        `${NEWS_HEADER}<main><article><h1>Ten years of trail maintenance</h1><p class="byline">By Ada Lindqvist · 4 February 2026</p>${prose('trail network', 5, m)}</article></main>${NEWS_FOOTER}`,
        GTAG,
      ),
    };
  })(),
  (() => {
    const m = mark('newsads');
    return {
      id: 'news-with-ad-slots',
      pattern: 'ads (empty slots filled by scripts)',
      marker: m,
      html: doc(
        'Council approves harbour wall repairs',
        `${NEWS_HEADER}<div id="div-gpt-ad-leader" class="ad ad-leaderboard"></div><main><article><h1>Council approves harbour wall repairs</h1>${prose('harbour wall', 4, m)}<div id="div-gpt-ad-mpu" class="ad ad-mpu"></div>${prose('repair budget', 2)}</article></main>${NEWS_FOOTER}
<script>googletag.cmd.push(function() { googletag.display('div-gpt-ad-leader'); googletag.display('div-gpt-ad-mpu'); });</script>`,
        ADS,
      ),
    };
  })(),
  (() => {
    const m = mark('jquerycarousel');
    return {
      id: 'product-jquery-carousel',
      pattern: 'jQuery widget',
      marker: m,
      html: doc(
        'Ridgeline 40 backpack',
        `${SHOP_HEADER}<main><div class="product"><div class="gallery slick-carousel"><img src="/img/pack-1.jpg" alt="Front"><img src="/img/pack-2.jpg" alt="Side"><img src="/img/pack-3.jpg" alt="Back"></div>
<h1>Ridgeline 40 backpack</h1><p class="price">€139.00</p><p>A ${m} 40-litre pack with a ventilated back panel, hip-belt pockets and a rain cover stored in the base. It weighs 1.2 kg and fits torso lengths from 42 to 52 cm.</p>
<ul><li>Volume: 40 l</li><li>Weight: 1.2 kg</li><li>Material: recycled nylon ripstop</li></ul></div></main>${SHOP_FOOTER}
<script src="/assets/vendor/jquery.min.js"></script><script src="/assets/vendor/slick.min.js"></script>
<script>$(document).ready(function(){ $('.slick-carousel').slick({ dots: true, infinite: true, speed: 300 }); $('.product .price').on('click', function(){ $(this).toggleClass('open'); }); });</script>`,
      ),
      routes: {
        '/assets/vendor/jquery.min.js': script(
          'window.$ = function(){ return { ready: function(f){ f(); }, slick: function(){}, on: function(){} }; };',
        ),
        '/assets/vendor/slick.min.js': script('/* carousel */'),
      },
    };
  })(),
  (() => {
    const m = mark('docsearch');
    return {
      id: 'docs-with-search-widget',
      pattern: 'widget mounting into an empty element',
      marker: m,
      html: doc(
        'Configuration reference',
        `<header><a href="/">Sync docs</a><div id="docsearch"></div></header><div class="layout"><aside><nav><a href="/intro">Introduction</a><a href="/install">Install</a><a href="/config">Configuration</a></nav></aside>
<main><h1>Configuration reference</h1><p>The ${m} configuration file lives in your home directory and uses TOML.</p><h2>remote</h2><p>The host to sync with, as user@host. Required.</p><h2>interval</h2><p>Seconds between two sync runs; the default is 60 and the minimum is 5.</p><h2>exclude</h2><p>A list of glob patterns that are never synchronised, for example node_modules or .cache directories.</p><pre><code>remote = "me@backup.example"\ninterval = 120</code></pre></main></div>
<script src="https://cdn.jsdelivr.net/npm/@docsearch/js@3"></script>
<script>docsearch({ container: '#docsearch', appId: 'R2IYF7ETH7', indexName: 'sync', apiKey: '599cec31baffa4868cae4e79f180729b' });</script>
<script src="/assets/highlight.min.js"></script><script>hljs.highlightAll();</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('onetrust');
    return {
      id: 'page-with-consent-sdk',
      pattern: 'cookie banner',
      marker: m,
      html: doc(
        'Delivery information',
        `${SHOP_HEADER}<main><h1>Delivery information</h1><p>We deliver to 24 countries. Orders placed before 14:00 on a working day leave our ${m} warehouse the same day.</p><h2>Costs</h2><p>Standard delivery costs 4.95 euros and is free above 60 euros. Express delivery costs 9.95 euros.</p><h2>Times</h2><p>Standard delivery takes two to four working days, express delivery one to two.</p></main>${SHOP_FOOTER}<div id="onetrust-consent-sdk"></div>`,
        ONETRUST + GTM,
      ),
    };
  })(),
  (() => {
    const m = mark('jsonld');
    return {
      id: 'short-product-json-ld',
      pattern: 'inline JSON-LD',
      marker: m,
      html: doc(
        'Merino beanie',
        `<main><h1>Merino beanie</h1><p class="price">€29.00</p><p>A ${m} beanie knitted from soft merino wool. Warm, breathable and itch-free.</p><p>In stock.</p></main>`,
        `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Merino beanie","offers":{"@type":"Offer","price":"29.00","priceCurrency":"EUR","availability":"https://schema.org/InStock"}}</script>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","position":1,"name":"Accessories","item":"https://shop.example/accessories"}]}</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('heavy');
    const rows = Array.from(
      { length: 40 },
      (_, index) =>
        `<tr><td>Stage ${index + 1}</td><td>${120 + index * 3} km</td><td>Rider ${index + 7}</td><td>${4 + (index % 3)}h ${10 + index} min</td></tr>`,
    ).join('');
    return {
      id: 'heavy-server-rendered',
      pattern: 'heavy page with many scripts',
      marker: m,
      html: doc(
        'Tour results',
        `${NEWS_HEADER}<main><h1>Tour results</h1>${prose('race', 6, m)}<table class="sortable"><thead><tr><th>Stage</th><th>Distance</th><th>Winner</th><th>Time</th></tr></thead><tbody>${rows}</tbody></table>${prose('final climb', 4)}</main>${NEWS_FOOTER}
${Array.from({ length: 10 }, (_, index) => `<script src="/assets/chunk-${index}.js" defer></script>`).join('')}
<script>document.querySelectorAll('table.sortable th').forEach(function (th) { th.addEventListener('click', function () { th.classList.toggle('sorted'); }); });</script>`,
        GTAG + HOTJAR,
      ),
    };
  })(),
  (() => {
    const m = mark('nextssr');
    const data = {
      props: { pageProps: { post: { title: 'Winter cycling', body: 'Studded tyres and good lights.' } } },
      page: '/posts/[slug]',
    };
    return {
      id: 'next-ssr-content',
      pattern: 'server-rendered framework page (hydration of present content)',
      marker: m,
      html: doc(
        'Winter cycling',
        `<div id="__next"><header><a href="/">Pedal notes</a></header><main><article><h1>Winter cycling</h1>${prose('winter commute', 4, m)}</article></main></div>
<script id="__NEXT_DATA__" type="application/json">${JSON.stringify(data)}</script>
<script src="/_next/static/chunks/framework.js" defer></script><script src="/_next/static/chunks/main.js" defer></script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('reactssr');
    return {
      id: 'react-ssr-root',
      pattern: 'server-rendered framework page (hydration of present content)',
      marker: m,
      html: doc(
        'Museum opening hours',
        `<div id="root"><div data-reactroot=""><header><a href="/">City Museum</a></header><main><h1>Opening hours</h1><p>The ${m} museum is open Tuesday to Sunday from 10:00 to 18:00, and until 21:00 on Thursdays.</p><p>Admission is free for visitors under 18. Adults pay 12 euros; the annual pass costs 40 euros.</p><p>The café on the ground floor opens half an hour before the galleries.</p></main></div></div>
<script>window.__PRELOADED_STATE__ = {"hours":{"weekday":"10-18"}};</script><script src="/static/js/bundle.js"></script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('nuxtssr');
    return {
      id: 'nuxt-ssr-content',
      pattern: 'server-rendered framework page (hydration of present content)',
      marker: m,
      html: doc(
        'Climbing grades explained',
        `<div id="__nuxt"><div id="__layout"><main><h1>Climbing grades explained</h1>${prose('grading system', 3, m)}</main></div></div>
<script>window.__NUXT__=(function(a){return {layout:"default",data:[{title:"Climbing grades explained"}],serverRendered:true}}(null));</script><script src="/_nuxt/app.js" defer></script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('recipe');
    return {
      id: 'recipe-with-rating-widget',
      pattern: 'widget mounting into an empty element',
      marker: m,
      html: doc(
        'Lentil soup',
        `${NEWS_HEADER}<main><article><h1>Smoked paprika lentil soup</h1><div id="rating-widget" data-recipe="4471"></div><button class="jump" onclick="document.getElementById('recipe').scrollIntoView()">Jump to recipe</button>
${prose('soup', 2, m)}<section id="recipe"><h2>Ingredients</h2><ul><li>250 g red lentils</li><li>1 onion</li><li>2 tsp smoked paprika</li><li>1.2 l vegetable stock</li></ul><h2>Method</h2><ol><li>Soften the onion in olive oil for eight minutes.</li><li>Add the lentils, paprika and stock; simmer for 25 minutes.</li><li>Blend half of the soup and season.</li></ol></section></article></main>${NEWS_FOOTER}
<script src="https://widgets.example-ratings.com/v2/embed.js" async></script>`,
        `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe","name":"Smoked paprika lentil soup","recipeYield":"4 servings","totalTime":"PT40M"}</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('wiki');
    return {
      id: 'wiki-article',
      pattern: 'many small inline scripts',
      marker: m,
      html: doc(
        'Lighthouse',
        `<div id="mw-page-base"></div><div id="content" class="mw-body"><h1 id="firstHeading">Lighthouse</h1><div id="bodyContent"><div id="mw-content-text">${prose('lighthouse', 5, m)}</div></div></div>`,
        `<script>document.documentElement.className="client-js";RLCONF={"wgPageName":"Lighthouse","wgTitle":"Lighthouse"};RLSTATE={"site.styles":"ready"};RLPAGEMODULES=["site","mediawiki.page.ready"];</script>
<script>(RLQ=window.RLQ||[]).push(function(){mw.loader.impl(function(){return["user.options@12s5i",function($,jQuery,require,module){mw.user.tokens.set({"patrolToken":"+\\\\"});}];});});</script>
<script async src="/w/load.php?lang=en&modules=startup&only=scripts"></script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('disqus');
    return {
      id: 'forum-with-comments-embed',
      pattern: 'comments embed into an empty element',
      marker: m,
      html: doc(
        'Which stove for winter?',
        `${SHOP_HEADER}<main><article><h1>Which stove for winter?</h1><p>Canister stoves lose pressure in the cold; the ${m} trick of keeping the canister in your jacket helps down to about minus ten degrees.</p><p>Below that, a liquid fuel stove is the reliable choice, at the cost of priming and more maintenance.</p><p>Integrated systems with a heat exchanger save fuel in wind but are heavier.</p></article><div id="disqus_thread"></div></main>${SHOP_FOOTER}
<script>var disqus_config = function () { this.page.url = location.href; this.page.identifier = 'winter-stove'; };
(function() { var d = document, s = d.createElement('script'); s.src = 'https://northwind.disqus.com/embed.js'; s.setAttribute('data-timestamp', +new Date()); (d.head || d.body).appendChild(s); })();</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('contact');
    return {
      id: 'contact-with-map',
      pattern: 'map widget into an empty element',
      marker: m,
      html: doc(
        'Contact',
        `${SHOP_HEADER}<main><h1>Contact us</h1><p>Northwind Outfitters, ${m} House, 8 Mill Lane, 20095 Hamburg.</p><p>Phone +49 40 555 0192, Monday to Friday 9:00–17:00.</p><p>Email service@northwind.example; we answer within one working day.</p><div id="map" style="height:300px"></div></main>${SHOP_FOOTER}
<script>function initMap() { new google.maps.Map(document.getElementById('map'), { center: { lat: 53.55, lng: 9.99 }, zoom: 14 }); }</script>
<script async defer src="https://maps.googleapis.com/maps/api/js?key=AIzaSyFake&callback=initMap"></script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('thankyou');
    return {
      id: 'short-thank-you-analytics',
      pattern: 'short page with analytics only',
      marker: m,
      html: doc(
        'Thank you',
        `<main><h1>Thank you for subscribing</h1><p>Check your inbox for the ${m} confirmation email.</p></main>`,
        GTAG + FB_PIXEL,
      ),
    };
  })(),
  (() => {
    const m = mark('landing');
    return {
      id: 'landing-with-chat-and-pixels',
      pattern: 'chat widget, pixels, heatmaps',
      marker: m,
      html: doc(
        'Invoicing for freelancers',
        `<header><a href="/">Ledgerly</a><nav><a href="/pricing">Pricing</a><a href="/login">Log in</a></nav></header><main><h1>Invoicing for freelancers</h1><p>Send ${m} invoices in two minutes, get paid by card or bank transfer, and export everything for your accountant.</p><h2>Why Ledgerly</h2><ul><li>Recurring invoices and reminders</li><li>Multi-currency with live rates</li><li>Receipts scanned from your phone</li></ul><p>Free for up to five clients. The Pro plan costs 9 euros a month.</p></main>`,
        INTERCOM + HOTJAR + FB_PIXEL,
      ),
    };
  })(),
  (() => {
    const m = mark('noscriptpixel');
    return {
      id: 'pricing-with-noscript-pixels',
      pattern: 'noscript pixels (not asking for JavaScript)',
      marker: m,
      html: doc(
        'Plans',
        `${GTM_NOSCRIPT}<main><h1>Plans and pricing</h1><table><tr><th>Plan</th><th>Price</th><th>Seats</th></tr><tr><td>Starter</td><td>0</td><td>1</td></tr><tr><td>${m} Team</td><td>24 per month</td><td>10</td></tr><tr><td>Business</td><td>79 per month</td><td>50</td></tr></table><p>All plans include unlimited projects and email support. Annual billing saves two months.</p></main>`,
        GTM + FB_PIXEL,
      ),
    };
  })(),
  (() => {
    const m = mark('docsnoscript');
    return {
      id: 'docs-noscript-best-with-js',
      pattern: 'noscript notice on a server-rendered page',
      marker: m,
      html: doc(
        'Installing the CLI',
        `<noscript><p class="notice">This site works best with JavaScript enabled.</p></noscript><nav class="sidebar"><a href="/docs">Docs</a><a href="/docs/cli">CLI</a><a href="/docs/api">API</a></nav><main><article><h1>Installing the CLI</h1><p>The ${m} CLI ships as a single binary for Linux, macOS and Windows.</p><h2>Linux</h2><p>Download the archive, extract it and move the binary to a directory on your PATH, such as /usr/local/bin.</p><h2>macOS</h2><p>Use Homebrew: brew install sync-cli. The formula is updated within a day of each release.</p><h2>Verify</h2><p>Run sync --version; it prints the version and the build date.</p></article></main>
<script src="/assets/js/theme.js" defer></script><script>window.docsSearchIndex = '/search-index.json';</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('progressive');
    return {
      id: 'progressive-custom-elements',
      pattern: 'custom elements enhancing present content',
      marker: m,
      html: doc(
        'Shipping calculator',
        `${SHOP_HEADER}<main><h1>Parcel sizes</h1><details-disclosure><details open><summary>Small parcel</summary><p>Up to 2 kg and 35 × 25 × 10 cm; the ${m} rate is 4.50 euros.</p></details></details-disclosure><details-disclosure><details><summary>Large parcel</summary><p>Up to 31.5 kg; 12.90 euros within the country.</p></details></details-disclosure><share-button><button>Share this page</button></share-button></main>${SHOP_FOOTER}
<template id="share-dialog"><div class="dialog"><p>Copy link</p></div></template>
<script type="module">customElements.define('details-disclosure', class extends HTMLElement {}); customElements.define('share-button', class extends HTMLElement { connectedCallback() { this.querySelector('button').addEventListener('click', () => navigator.share && navigator.share({ url: location.href })); } });</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('vuessr');
    return {
      id: 'vue-ssr-app',
      pattern: 'server-rendered framework page (hydration of present content)',
      marker: m,
      html: doc(
        'Train times',
        `<div id="app" data-server-rendered="true"><main><h1>Train times</h1><p>Trains to the ${m} coast leave every hour at 17 minutes past, from platform 4.</p><p>The journey takes 52 minutes; the last train back leaves at 23:05.</p><p>Bicycles travel free outside rush hours.</p></main></div>
<script>window.__INITIAL_STATE__={"route":"coast"}</script><script src="/js/app.js" defer></script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('turbo');
    return {
      id: 'turbo-stimulus',
      pattern: 'server-rendered with Stimulus controllers',
      marker: m,
      html: doc(
        'Issue 418',
        `<header><a href="/">Tracker</a></header><main data-controller="issue"><h1>Sync stops after sleep</h1><p>Reported by Jon: after the laptop wakes up, the ${m} daemon does not reconnect until it is restarted.</p><div data-issue-target="comments"><article><p>Mina: reproduced on 2.3.1, not on 2.2.</p></article><article><p>Jon: the log says "connection reset" every 60 seconds.</p></article></div><form data-action="submit->issue#comment"><textarea></textarea><button>Comment</button></form></main>
<script type="module" src="/assets/application.js"></script>`,
        '<meta name="turbo-cache-control" content="no-preview">',
      ),
    };
  })(),
  (() => {
    const m = mark('loadmore');
    const cards = Array.from(
      { length: 12 },
      (_, index) =>
        `<article class="card"><h2>Trail shoe model ${index + 1}</h2><p class="price">€${89 + index * 5}.00</p></article>`,
    ).join('');
    return {
      id: 'category-load-more',
      pattern: 'script pagination after server-rendered items',
      marker: m,
      html: doc(
        'Trail shoes',
        `${SHOP_HEADER}<main><h1>Trail shoes</h1><p>Grippy ${m} outsoles, waterproof membranes and rock plates: 48 trail shoes for every kind of terrain.</p><div id="grid">${cards}</div><button id="load-more">Load more</button></main>${SHOP_FOOTER}
<script>document.getElementById('load-more').addEventListener('click', function () { fetch('/api/shoes?page=2').then(function (r) { return r.text(); }).then(function (html) { document.getElementById('grid').insertAdjacentHTML('beforeend', html); }); });</script>`,
      ),
    };
  })(),
  (() => {
    const m = mark('copyyear');
    return {
      id: 'document-write-year',
      pattern: 'document.write of a trivial value',
      marker: m,
      html: doc(
        'About the club',
        `<main><h1>About the ${m} rowing club</h1><p>Founded in 1921, the club rows on the river every morning from April to October and trains indoors in winter.</p><p>New members can join a beginners' course of six sessions; boats and oars are provided.</p></main><footer><p>© <script>document.write(new Date().getFullYear())</script> Rowing club</p></footer>`,
        PLAUSIBLE,
      ),
    };
  })(),
  (() => {
    const m = mark('lazyimages');
    return {
      id: 'lazy-images',
      pattern: 'lazy-loaded images',
      marker: m,
      html: doc(
        'Gallery',
        `${NEWS_HEADER}<main><h1>Winter on the coast: a gallery</h1><p>Our photographer spent a week on the ${m} coast as the first storms arrived.</p>${Array.from({ length: 8 }, (_, index) => `<figure><img class="lazyload" data-src="/photos/${index}.jpg" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Photo ${index + 1}"><figcaption>Waves at the breakwater, morning ${index + 1}.</figcaption></figure>`).join('')}</main>${NEWS_FOOTER}
<script src="/js/lazysizes.min.js" async></script>`,
        MATOMO,
      ),
    };
  })(),
  (() => {
    const m = mark('cookiebanner');
    return {
      id: 'article-with-cookie-banner-script',
      pattern: 'cookie banner script',
      marker: m,
      html: doc(
        'Why ferries are late',
        `${COOKIE_BANNER}${NEWS_HEADER}<main><article><h1>Why ferries are late</h1>${prose('ferry schedule', 3, m)}</article></main>${NEWS_FOOTER}
<script>document.getElementById('accept-cookies').addEventListener('click', function () { document.cookie = 'consent=all; max-age=31536000'; document.getElementById('cookie-notice').remove(); });
if (document.cookie.indexOf('consent=') >= 0) document.getElementById('cookie-notice').remove();</script>`,
      ),
    };
  })(),
];
