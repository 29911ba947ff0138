import { html, startFixtureServer, type FixtureServer } from './fixture-server';

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

const ONE_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

const LONG_TEXT = Array.from({ length: 6 }, (_, index) => `<p>Paragraph ${index + 1} of a static article with enough words to count as real content for the extractor and the JavaScript detector.</p>`).join('');

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
  const changing = { body: '<h1>Version one</h1><p>The first version of this page says hello to the readers.</p>', status: 200 };
  const site = await startFixtureServer({
    '/static': html(page('Static article', `<main><article><h1>Static ${SCRAPE_SITE.staticMarker}</h1>${LONG_TEXT}</article></main>`)),
    '/js': html(
      page(
        'Loading…',
        `<div id="root"></div><script>setTimeout(() => {
          document.getElementById('root').innerHTML = '<main><h1>Client side</h1><p>${SCRAPE_SITE.jsMarker} appears only after scripts ran.</p></main>';
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
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': 'session=profile-cookie-value; Path=/; Max-Age=3600' })
        .end(page('Set', `<main><h1>Cookie set</h1><script>localStorage.setItem('favourite', 'stored-in-local-storage');</script></main>`));
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
        b.innerHTML = '<p>${SCRAPE_SITE.bannerMarker}: we use cookies</p><button>Accept all</button>';
        document.body.appendChild(b); document.body.style.overflow = 'hidden';</script>`,
      ),
    ),
    '/ads/banner.html': html(page('Ad', `<p>${SCRAPE_SITE.adMarker}</p>`)),
    '/changing': (_request, response) => {
      response.writeHead(changing.status, { 'content-type': 'text/html; charset=utf-8' }).end(page('Changing', `<main><article>${changing.body}</article></main>`));
    },
    '/redirect-private': (_request, response) => response.writeHead(302, { location: `${p}/secret` }).end(),
    '/redirect-metadata': (_request, response) => response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    '/js-redirect-private': html(page('Moving', `<p>Moving…</p><script>location.href = '${p}/secret';</script>`)),
    '/subresource-private': html(
      page(
        'Sub-resources',
        `<main><h1>Page with private sub-resources</h1>${LONG_TEXT}
        <img src="${p}/pixel.png" alt="private pixel"><script src="${p}/script.js"></script>
        <iframe src="${p}/frame"></iframe><link rel="stylesheet" href="${p}/style.css">
        <p id="probe">probing</p></main>
        <script>
          Promise.all(['${p}/fetch', 'http://10.255.255.1/', 'http://169.254.169.254/latest/meta-data/'].map((url) =>
            fetch(url).then(() => 'reached', () => 'refused'))).then((results) => {
              document.getElementById('probe').textContent = 'fetch results: ' + results.join(',');
            });
        </script>`,
      ),
    ),
    '/actions': html(
      page(
        'Actions',
        `<main><h1>Action target</h1>${LONG_TEXT}
        <button id="reveal" onclick="document.getElementById('hidden').textContent='${SCRAPE_SITE.clickMarker}'">Reveal</button>
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
            if (window.scrollY > 100 && !document.getElementById('more')) document.getElementById('feed').insertAdjacentHTML('beforeend', '<p id="more">${SCRAPE_SITE.scrollMarker}</p>');
          });
          document.getElementById('box').addEventListener('scroll', (e) => { window.boxScrolled = e.target.scrollTop; });
        </script>`,
      ),
    ),
    '/base64': html(
      page('Base64', `<main><h1>Inline image</h1>${LONG_TEXT}<img src="data:image/png;base64,${ONE_PIXEL_PNG}" alt="${SCRAPE_SITE.base64Alt}"></main>`),
    ),
    '/hang': html(page('Hang', `<h1>Busy</h1><script>for(;;){}</script>`)),
    '/slow': (_request, response) => {
      const timer = setTimeout(() => response.end(page('Late', '<h1>late</h1>')), 20_000);
      response.on('close', () => clearTimeout(timer));
    },
    '/huge-subresource': html(page('Heavy', `<main><h1>Heavy page</h1>${LONG_TEXT}<img src="/blob.bin"></main>`)),
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
    '/dialog': html(page('Dialog', `<main><h1>Dialogs</h1>${LONG_TEXT}<script>alert('hello'); confirm('sure?');</script></main>`)),
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
