import { type FixtureServer, html, startFixtureServer } from './fixture-server';

/** Marker words of the scrape-engine fixture pages. */
export const SCRAPE_SITE = {
  jsMarker: 'renderedbyjavascriptword',
  staticMarker: 'staticarticleword',
  bannerMarker: 'cookiebannerword',
  adMarker: 'adframeword',
  secretMarker: 'privatesecretword',
  clickMarker: 'revealedbyclickword',
  scrollMarker: 'loadedbyscrollword',
  base64Alt: 'Inline pixel diagram',
} as const;

const ONE_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** A marker as a JavaScript expression that does not contain it literally (so the raw HTML does not either). */
const js = (marker: string) => `'${marker.slice(0, 4)}' + '${marker.slice(4)}'`;

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

const LONG_TEXT = Array.from(
  { length: 6 },
  (_, index) =>
    `<p>Paragraph ${index + 1} of a static article with enough words to count as real content for the extractor and the JavaScript detector.</p>`,
).join('');

export interface ScrapeSite extends FixtureServer {
  /** The "private" server (127.0.0.2 by default): any hit on it means the guard let a request through. */
  privateSite: FixtureServer;
  /** Content of `/changing`, editable between scrapes. */
  changing: { body: string; status: number };
}

/**
 * Fixture pages of the scrape-engine tests: JavaScript-rendered content, emulation probes, cookies
 * and storage, consent banners and ad frames, products, menus, a page that changes, redirects and
 * sub-resources towards a private address, action targets, hostile pages.
 */
export async function startScrapeSite(options: { privateHost?: string } = {}): Promise<ScrapeSite> {
  const privateSite = await startFixtureServer(
    {
      '*': html(page('Private', `<h1>${SCRAPE_SITE.secretMarker}</h1>`)),
    },
    options.privateHost ?? '127.0.0.2',
  );
  const p = privateSite.url;
  const changing = {
    body: '<h1>Version one</h1><p>The first version of this page says hello to the readers.</p>',
    status: 200,
  };
  const site = await startFixtureServer({
    '/static': html(
      page(
        'Static article',
        `<main><article><h1>Static ${SCRAPE_SITE.staticMarker}</h1>${LONG_TEXT}</article></main>`,
      ),
    ),
    '/js': html(
      page(
        'Loading…',
        `<div id="root"></div><script>setTimeout(() => {
          document.getElementById('root').innerHTML = '<main><h1>Client side</h1><p>' + ${js(SCRAPE_SITE.jsMarker)} + ' appears only after scripts ran.</p></main>';
          document.title = 'Rendered title';
        }, 50);</script>`,
      ),
    ),
    '/env': (request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        page(
          'Environment',
          `<main><h1>Environment probe</h1><p id="server">accept-language=${request.headers['accept-language'] ?? 'none'}; x-probe=${request.headers['x-probe'] ?? 'none'}</p><p id="client"></p></main>
          <script>document.getElementById('client').textContent = [
            'ua=' + navigator.userAgent,
            'width=' + innerWidth,
            'touch=' + matchMedia('(pointer: coarse)').matches,
            'tz=' + Intl.DateTimeFormat().resolvedOptions().timeZone,
            'locale=' + Intl.DateTimeFormat().resolvedOptions().locale,
            'languages=' + navigator.languages.join('|'),
          ].join('; ');</script>`,
          '<meta name="viewport" content="width=device-width, initial-scale=1">',
        ),
      );
    },
    '/cookies/set': (_request, response) => {
      response
        .writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'set-cookie': 'session=profile-cookie-value; Path=/; Max-Age=3600',
        })
        .end(
          page(
            'Set',
            `<main><h1>Cookie set</h1><script>localStorage.setItem('favourite', 'stored-in-local-storage');</script></main>`,
          ),
        );
    },
    '/cookies/show': (request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        page(
          'Show',
          `<main><h1>Cookie show</h1><p>cookie=${request.headers['cookie'] ?? 'none'}</p><p id="storage"></p></main>
          <script>document.getElementById('storage').textContent = 'storage=' + (localStorage.getItem('favourite') || 'none');</script>`,
        ),
      );
    },
    '/banner': html(
      page(
        'Banner page',
        `<main><h1>Article behind a banner</h1>${LONG_TEXT}<iframe src="/ads/banner.html" width="300" height="250"></iframe></main>
        <script>const b = document.createElement('div'); b.id = 'cookie-consent-banner'; b.className = 'cookie-banner';
        b.innerHTML = '<p>' + ${js(SCRAPE_SITE.bannerMarker)} + ': we use cookies</p><button>Accept all</button>';
        document.body.appendChild(b); document.body.style.overflow = 'hidden';</script>`,
      ),
    ),
    '/ads/banner.html': html(page('Ad', `<p>${SCRAPE_SITE.adMarker}</p>`)),
    '/changing': (_request, response) => {
      response
        .writeHead(changing.status, { 'content-type': 'text/html; charset=utf-8' })
        .end(page('Changing', `<main><article>${changing.body}</article></main>`));
    },
    '/redirect-private': (_request, response) => response.writeHead(302, { location: `${p}/secret` }).end(),
    '/redirect-metadata': (_request, response) =>
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    '/js-redirect-private': html(
      page('Moving', `<p>Moving…</p><script>location.href = '${p}/secret';</script>`),
    ),
    // Navigations refused after the document loaded: meta refresh, a script after `load`, window.open into the tab.
    '/meta-refresh-private': html(
      page(
        'Refreshing',
        `<main><h1>Refreshing</h1>${LONG_TEXT}</main>`,
        `<meta http-equiv="refresh" content="0; url=${p}/secret">`,
      ),
    ),
    '/meta-refresh-metadata': html(
      page(
        'Refreshing',
        `<main><h1>Refreshing</h1>${LONG_TEXT}</main>`,
        '<meta http-equiv="refresh" content="0; url=http://169.254.169.254/latest/meta-data/">',
      ),
    ),
    '/late-redirect-private': html(
      page(
        'Late move',
        `<main><h1>Late move</h1>${LONG_TEXT}</main><script>addEventListener('load', () => setTimeout(() => { location.href = '${p}/secret'; }, 50));</script>`,
      ),
    ),
    '/open-self-private': html(
      page(
        'Opening',
        `<main><h1>Opening</h1>${LONG_TEXT}</main><script>window.open('${p}/secret', '_self');</script>`,
      ),
    ),
    // `?to=<url>`: the page moves itself there once loaded (e.g. to a port where nothing listens).
    '/navigate-to': (request, response) => {
      const to = new URL(request.url ?? '/', 'http://fixture').searchParams.get('to') ?? '/';
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          page(
            'Moving on',
            `<main><h1>Moving on</h1>${LONG_TEXT}</main><script>location.href = ${JSON.stringify(to)};</script>`,
          ),
        );
    },
    '/subresource-private': html(
      page(
        'Sub-resources',
        `<main><h1>Page with private sub-resources</h1>${LONG_TEXT}
        <img src="${p}/pixel.png" alt="private pixel"><script src="${p}/script.js"></script>
        <iframe src="${p}/frame"></iframe><link rel="stylesheet" href="${p}/style.css">
        <ul id="probes"></ul></main>
        <script>
          ['${p}/fetch', 'http://10.255.255.1/', 'http://169.254.169.254/latest/meta-data/'].forEach((url, index) => {
            const report = (outcome) => document.getElementById('probes').insertAdjacentHTML('beforeend', '<li>probe-' + index + ': ' + outcome + '</li>');
            fetch(url, { mode: 'no-cors' }).then(() => report('reached'), () => report('refused'));
          });
        </script>`,
      ),
    ),
    '/actions': html(
      page(
        'Actions',
        `<main><h1>Action target</h1>${LONG_TEXT}
        <button id="reveal" onclick="document.getElementById('hidden').textContent=${js(SCRAPE_SITE.clickMarker)}">Reveal</button>
        <p id="hidden"></p>
        <button class="count" onclick="window.clicks=(window.clicks||0)+1">One</button><button class="count" onclick="window.clicks=(window.clicks||0)+1">Two</button>
        <input id="search" type="text"><p id="echo"></p>
        <div id="box" style="height:100px;overflow:auto"><div style="height:1000px">tall</div></div>
        <div id="feed"></div><div style="height:3000px"></div>
        <a id="next" href="/static">Next page</a>
        </main>
        <script>
          document.getElementById('search').addEventListener('keydown', (e) => {
            if (e.key === 'Enter') document.getElementById('echo').textContent = 'typed:' + e.target.value;
          });
          window.addEventListener('scroll', () => {
            if (window.scrollY > 100 && !document.getElementById('more')) document.getElementById('feed').insertAdjacentHTML('beforeend', '<p id="more">' + ${js(SCRAPE_SITE.scrollMarker)} + '</p>');
          });
          document.getElementById('box').addEventListener('scroll', (e) => { window.boxScrolled = e.target.scrollTop; });
        </script>`,
      ),
    ),
    '/base64': html(
      page(
        'Base64',
        `<main><h1>Inline image</h1>${LONG_TEXT}<img src="data:image/png;base64,${ONE_PIXEL_PNG}" alt="${SCRAPE_SITE.base64Alt}"></main>`,
      ),
    ),
    '/hang': html(page('Hang', `<h1>Busy</h1><script>for(;;){}</script>`)),
    '/slow': (_request, response) => {
      const timer = setTimeout(() => response.end(page('Late', '<h1>late</h1>')), 20_000);
      response.on('close', () => clearTimeout(timer));
    },
    '/huge-subresource': html(
      page('Heavy', `<main><h1>Heavy page</h1>${LONG_TEXT}<img src="/blob.bin"></main>`),
    ),
    '/blob.bin': (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(1024 * 1024, 7);
      let sent = 0;
      const write = () => {
        while (sent < 64 && response.write(chunk)) sent += 1;
        if (sent >= 64) response.end();
        else response.once('drain', () => ((sent += 1), write()));
      };
      write();
    },
    '/branding': html(
      page(
        'Brand page',
        `<header><img class="site-logo" src="/images/logo.svg" alt="Acme logo"><nav><a href="/">Home</a></nav></header>
        <main class="container"><h1>Acme rockets</h1><h2>Fast</h2><p>${'Brand copy for the branding test. '.repeat(10)}</p>
        <p class="muted">Secondary text</p><a href="/more">Read more</a>
        <button class="btn btn-primary">Buy now</button><button class="btn btn-secondary">Learn more</button>
        <input type="text" placeholder="Email"><code>npm install acme</code></main>`,
        `<link rel="icon" href="/favicon.ico"><meta property="og:image" content="/images/og.png">
        <style>
          :root { --primary-color: #ff5a1f; --secondary-color: #1f2937; --accent: #10b981; --error: #dc2626; --success: #16a34a; --warning: #f59e0b; }
          body { background: #ffffff; color: #111827; font-family: "Inter", Arial, sans-serif; font-size: 16px; line-height: 24px; margin: 0; }
          h1 { font-family: "Poppins", sans-serif; font-size: 48px; font-weight: 700; line-height: 56px; }
          h2 { font-size: 32px; font-weight: 600; }
          .muted { color: #6b7280; } a { color: #2563eb; } code { font-family: "Fira Code", monospace; }
          .container { max-width: 1200px; padding: 16px 32px; }
          .btn { padding: 8px 16px; border-radius: 8px; border: 1px solid transparent; transition: background 0.2s; }
          .btn-primary { background: #ff5a1f; color: #ffffff; }
          .btn-secondary { background: transparent; color: #1f2937; border-color: #1f2937; }
          input { border: 1px solid #d1d5db; border-radius: 6px; }
        </style>`,
      ),
    ),
    '/product': html(
      page(
        'Trail shoe',
        `<main><h1>Trail Runner 2</h1><p>A light trail shoe.</p><button>Add to cart</button></main>
        <script type="application/ld+json">${JSON.stringify({
          '@context': 'https://schema.org',
          '@type': 'ProductGroup',
          name: 'Trail Runner 2',
          brand: { '@type': 'Brand', name: 'Peakfoot' },
          description: 'A light trail shoe.',
          productGroupID: 'TR2',
          variesBy: ['https://schema.org/color', 'https://schema.org/size'],
          hasVariant: [
            {
              '@type': 'Product',
              sku: 'TR2-RED-42',
              name: 'Trail Runner 2 red 42',
              color: 'Red',
              size: '42',
              image: '/img/red.jpg',
              offers: {
                '@type': 'Offer',
                price: '89.90',
                priceCurrency: 'EUR',
                availability: 'https://schema.org/InStock',
                priceSpecification: [
                  {
                    '@type': 'UnitPriceSpecification',
                    priceType: 'https://schema.org/StrikethroughPrice',
                    price: '119.90',
                    priceCurrency: 'EUR',
                  },
                ],
              },
            },
            {
              '@type': 'Product',
              sku: 'TR2-BLU-43',
              name: 'Trail Runner 2 blue 43',
              color: 'Blue',
              size: '43',
              offers: {
                '@type': 'Offer',
                price: 99.9,
                priceCurrency: 'EUR',
                availability: 'https://schema.org/OutOfStock',
              },
            },
          ],
        })}</script>
        <script type="application/ld+json">${JSON.stringify({
          '@context': 'https://schema.org',
          '@type': 'BreadcrumbList',
          itemListElement: [
            { '@type': 'ListItem', position: 1, name: 'Shoes' },
            { '@type': 'ListItem', position: 2, name: 'Trail' },
          ],
        })}</script>`,
        '<link rel="canonical" href="/product">',
      ),
    ),
    '/menu': html(
      page(
        'Trattoria',
        `<main><h1>Trattoria Roma</h1><p>Our menu</p></main>
        <script type="application/ld+json">${JSON.stringify({
          '@context': 'https://schema.org',
          '@type': 'Restaurant',
          name: 'Trattoria Roma',
          hasMenu: {
            '@type': 'Menu',
            name: 'Dinner',
            hasMenuSection: [
              {
                '@type': 'MenuSection',
                name: 'Antipasti',
                hasMenuItem: [
                  {
                    '@type': 'MenuItem',
                    name: 'Bruschetta',
                    description: 'Tomato and basil',
                    offers: { '@type': 'Offer', price: '7.50', priceCurrency: 'EUR' },
                    suitableForDiet: 'https://schema.org/VeganDiet',
                  },
                  {
                    '@type': 'MenuItem',
                    name: 'Burrata',
                    offers: { '@type': 'Offer', price: '11', priceCurrency: 'EUR' },
                    nutrition: { '@type': 'NutritionInformation', calories: '420 calories' },
                  },
                ],
              },
              {
                '@type': 'MenuSection',
                name: 'Pasta',
                hasMenuItem: [
                  {
                    '@type': 'MenuItem',
                    name: 'Carbonara',
                    offers: { '@type': 'Offer', price: '14.00', priceCurrency: 'EUR' },
                  },
                ],
              },
            ],
          },
        })}</script>`,
      ),
    ),
    '/menu-dom': html(
      page(
        'Cafe',
        `<main><h1>Corner Cafe</h1>
        <h2>Breakfast</h2><ul><li><strong>Pancakes</strong> with maple syrup (V) <span>£6.50</span></li><li><strong>Full breakfast</strong> eggs, bacon, beans <span>£9.00</span></li></ul>
        <h2>Drinks</h2><ul><li><strong>Flat white</strong> <span>£3.20</span></li><li><strong>Orange juice</strong> freshly squeezed (VG) <span>£2.80</span></li></ul></main>`,
      ),
    ),
    '/dialog': html(
      page(
        'Dialog',
        `<main><h1>Dialogs</h1>${LONG_TEXT}<script>alert('hello'); confirm('sure?');</script></main>`,
      ),
    ),
  });
  const closeSite = site.close;
  return Object.assign(site, {
    privateSite,
    changing,
    close: async () => {
      await Promise.all([closeSite(), privateSite.close()]);
    },
  });
}
