import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/**
 * The crawl fixture site (issue 4): several hundred pages on `localhost`, a subdomain on
 * `sub.localhost` (loopback by RFC 6761) and an "external" site on `127.0.0.1`, all served by one
 * server on one port and told apart by the Host header. It has a robots.txt with disallows (one only
 * for `SpecialBot`), a sitemap index listing a plain and two gzip sitemaps (one with pages no link
 * reaches), link traps (an endless calendar and an endless query-string pagination), redirects
 * (one to a page already in the crawl, one off-site), a 404 link and links the crawler must not follow.
 * The host name `moved.localhost` is the site's former address: every path there redirects to the
 * same path on `localhost`.
 */
export const CRAWL_SITE = {
  docs: 300,
  posts: 50,
  orphans: 20,
  subPages: 5,
  /** Words found on exactly one page, for search tests. */
  uniqueWord: (page: number) => `zephyrquill${page}`,
  searchMarkerPage: 42,
  searchMarker: 'obsidianlattice',
} as const;

export interface CrawlSite {
  /** `http://localhost:<port>` */
  url: string;
  subUrl: string;
  externalUrl: string;
  /** `http://moved.localhost:<port>`: the site's old host name, every path redirecting (301) to `url`. */
  movedUrl: string;
  port: number;
  /** Requests seen, by `host path?query`. */
  hits: Map<string, number>;
  /** Every request in arrival order. */
  log: { at: number; host: string; path: string }[];
  /** Paths on localhost a full crawl (no subdomains, no external links) stores, traps excluded. */
  mainPages(): string[];
  /** Holds every answer until `resume()`: the fetches in flight stay in flight (a fault test's freeze frame). */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

const page = (title: string, body: string, description = `Fixture page ${title}`) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="description" content="${description}">
<style>body{font-family:sans-serif}</style><script>window.analytics = {page: "${title}"};</script></head>
<body><header><nav><a href="/">Home</a> <a href="/docs/">Docs</a> <a href="/blog/">Blog</a> <a href="/about">About</a></nav></header>
<main><article><h1>${title}</h1>${body}</article></main>
<footer><p>Fixture footer</p><a href="mailto:team@example.com">Mail</a> <a href="#top">Top</a></footer></body></html>`;

const prose = (seed: number) =>
  Array.from(
    { length: 4 },
    (_, index) =>
      `<p>Paragraph ${index + 1} of item ${seed}: crawlers keep a frontier, respect robots.txt and read sitemaps. ${'Lorem ipsum dolor sit amet. '.repeat(6)}</p>`,
  ).join('\n');

export interface CrawlSiteOptions {
  /** Delay before each page (not robots.txt or sitemaps) is answered. */
  latencyMs?: number;
}

export async function startCrawlSite(options: CrawlSiteOptions = {}): Promise<CrawlSite> {
  const hits = new Map<string, number>();
  const log: { at: number; host: string; path: string }[] = [];
  let port = 0;
  let held: (() => void)[] | undefined;
  const main = () => `http://localhost:${port}`;
  const sub = () => `http://sub.localhost:${port}`;
  const external = () => `http://127.0.0.1:${port}`;

  const docLinks = (n: number) =>
    [n - 1, n + 1, ((n * 7) % CRAWL_SITE.docs) + 1, ((n * 13) % CRAWL_SITE.docs) + 1]
      .filter((target) => target >= 1 && target <= CRAWL_SITE.docs && target !== n)
      .map((target) => `<a href="/docs/page-${target}">Doc ${target}</a>`)
      .join(' ');

  const mainRoutes = (
    path: string,
    query: URLSearchParams,
  ):
    { status: number; type: string; body: string | Buffer; headers?: Record<string, string> } | undefined => {
    const html = (body: string) => ({ status: 200, type: 'text/html; charset=utf-8', body });
    if (path === '/') {
      return html(
        page(
          'Home',
          `<p>Welcome to the crawl fixture.</p><ul>
          <li><a href="/docs/">Documentation</a></li><li><a href="/blog/">Blog</a></li><li><a href="/about">About us</a></li>
          <li><a href="/private/secret">Private</a></li><li><a href="/calendar/2024/01">Calendar</a></li>
          <li><a href="/search?q=start">Search</a></li><li><a href="/old-page">Old page</a></li><li><a href="/offsite">Moved</a></li>
          <li><a href="/missing-page">Missing</a></li><li><a href="${external()}/external/">Partner site</a></li>
          <li><a href="${sub()}/">Subdomain</a></li><li><a href="/logo.png">Logo</a></li><li><a href="javascript:void(0)">Nothing</a></li>
          </ul>${prose(0)}`,
        ),
      );
    }
    if (path === '/about') return html(page('About', `<p>About the fixture.</p>${prose(1)}`));
    if (path === '/docs/' || path === '/docs') {
      return html(
        page(
          'Docs index',
          `<ul>${Array.from({ length: CRAWL_SITE.docs }, (_, i) => `<li><a href="/docs/page-${i + 1}">Doc ${i + 1}</a></li>`).join('')}</ul>`,
        ),
      );
    }
    const doc = /^\/docs\/page-(\d+)$/.exec(path);
    if (doc && Number(doc[1]) >= 1 && Number(doc[1]) <= CRAWL_SITE.docs) {
      const n = Number(doc[1]);
      const marker =
        n === CRAWL_SITE.searchMarkerPage ? `<p>The ${CRAWL_SITE.searchMarker} appears only here.</p>` : '';
      return html(
        page(
          `Doc ${n}`,
          `<p>Unique word ${CRAWL_SITE.uniqueWord(n)}.</p>${marker}${prose(n)}<p>See also ${docLinks(n)}</p>`,
        ),
      );
    }
    if (path === '/blog/' || path === '/blog') {
      return html(
        page(
          'Blog',
          `<ul>${Array.from({ length: CRAWL_SITE.posts }, (_, i) => `<li><a href="/blog/post-${i + 1}">Post ${i + 1}</a></li>`).join('')}</ul>`,
        ),
      );
    }
    const post = /^\/blog\/post-(\d+)$/.exec(path);
    if (post && Number(post[1]) >= 1 && Number(post[1]) <= CRAWL_SITE.posts)
      return html(page(`Post ${post[1]}`, `<p>Blog post ${post[1]}.</p>${prose(1000 + Number(post[1]))}`));
    const orphan = /^\/orphan\/(\d+)$/.exec(path);
    if (orphan && Number(orphan[1]) >= 1 && Number(orphan[1]) <= CRAWL_SITE.orphans)
      return html(
        page(`Orphan ${orphan[1]}`, `<p>Only the sitemap lists me.</p>${prose(2000 + Number(orphan[1]))}`),
      );
    if (path.startsWith('/private/')) return html(page('Private', '<p>Robots.txt forbids this page.</p>'));
    const calendar = /^\/calendar\/(\d{4})\/(\d{2})$/.exec(path);
    if (calendar) {
      const month = Number(calendar[1]) * 12 + Number(calendar[2]) - 1;
      const link = (m: number) => `/calendar/${Math.floor(m / 12)}/${String((m % 12) + 1).padStart(2, '0')}`;
      return html(
        page(
          `Calendar ${calendar[1]}-${calendar[2]}`,
          `<p>An endless calendar.</p><a href="${link(month - 1)}">Previous</a> <a href="${link(month + 1)}">Next</a>`,
        ),
      );
    }
    if (path === '/search') {
      const n = Number(query.get('page') ?? '1');
      const sid = createHash('sha1').update(String(n)).digest('hex').slice(0, 8);
      return html(
        page(
          `Search ${n}`,
          `<p>Endless results.</p><a href="/search?q=${query.get('q') ?? ''}&page=${n + 1}&sid=${sid}">More results</a>`,
        ),
      );
    }
    if (path === '/old-page')
      return { status: 301, type: 'text/html', body: '', headers: { location: '/docs/page-1' } };
    if (path === '/offsite')
      return {
        status: 302,
        type: 'text/html',
        body: '',
        headers: { location: `${external()}/external/landing` },
      };
    if (path === '/robots.txt') {
      return {
        status: 200,
        type: 'text/plain',
        body: `User-agent: *\nDisallow: /private/\n\nUser-agent: SpecialBot\nDisallow: /docs/page-7\nDisallow: /private/\n\nSitemap: ${main()}/sitemap-index.xml\n`,
      };
    }
    if (path === '/sitemap-index.xml') {
      const entries = ['/sitemaps/docs.xml', '/sitemaps/blog.xml.gz', '/sitemaps/orphans.xml.gz']
        .map((loc) => `<sitemap><loc>${main()}${loc}</loc></sitemap>`)
        .join('');
      return {
        status: 200,
        type: 'application/xml',
        body: `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</sitemapindex>`,
      };
    }
    if (path === '/sitemap.xml') return { status: 404, type: 'text/html', body: 'no such sitemap' };
    const urlset = (paths: string[]) =>
      `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${main()}${p}</loc></url>`).join('')}</urlset>`;
    if (path === '/sitemaps/docs.xml')
      return {
        status: 200,
        type: 'application/xml',
        body: urlset(Array.from({ length: CRAWL_SITE.docs }, (_, i) => `/docs/page-${i + 1}`)),
      };
    if (path === '/sitemaps/blog.xml.gz') {
      return {
        status: 200,
        type: 'application/gzip',
        body: gzipSync(urlset(Array.from({ length: CRAWL_SITE.posts }, (_, i) => `/blog/post-${i + 1}`))),
      };
    }
    if (path === '/sitemaps/orphans.xml.gz') {
      return {
        status: 200,
        type: 'application/octet-stream',
        body: gzipSync(urlset(Array.from({ length: CRAWL_SITE.orphans }, (_, i) => `/orphan/${i + 1}`))),
      };
    }
    return undefined;
  };

  const subRoutes = (path: string) => {
    if (path === '/')
      return page(
        'Subdomain home',
        `<p>The subdomain.</p>${Array.from({ length: CRAWL_SITE.subPages }, (_, i) => `<a href="/sub/${i + 1}">Sub ${i + 1}</a>`).join(' ')}`,
      );
    const match = /^\/sub\/(\d+)$/.exec(path);
    if (match && Number(match[1]) <= CRAWL_SITE.subPages)
      return page(`Sub ${match[1]}`, `<p>Subdomain page ${match[1]}.</p><a href="${main()}/">Main site</a>`);
    return undefined;
  };

  const externalRoutes = (path: string) => {
    if (path === '/external/')
      return page('External', '<p>Another site.</p><a href="/external/landing">Landing</a>');
    if (path === '/external/landing') return page('External landing', '<p>Where moved pages land.</p>');
    return undefined;
  };

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const host = (request.headers.host ?? '').split(':')[0].toLowerCase();
    const url = new URL(request.url ?? '/', 'http://x');
    hits.set(
      `${host} ${url.pathname}${url.search}`,
      (hits.get(`${host} ${url.pathname}${url.search}`) ?? 0) + 1,
    );
    log.push({ at: Date.now(), host, path: `${url.pathname}${url.search}` });
    let result:
      { status: number; type: string; body: string | Buffer; headers?: Record<string, string> } | undefined;
    if (host === 'moved.localhost') {
      result = {
        status: 301,
        type: 'text/html',
        body: '',
        headers: { location: `${main()}${url.pathname}${url.search}` },
      };
    } else if (host === 'sub.localhost') {
      const body = url.pathname === '/robots.txt' ? 'User-agent: *\nAllow: /\n' : subRoutes(url.pathname);
      result =
        body === undefined
          ? undefined
          : {
              status: 200,
              type: url.pathname === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8',
              body,
            };
    } else if (host === '127.0.0.1') {
      const body = externalRoutes(url.pathname);
      result = body === undefined ? undefined : { status: 200, type: 'text/html; charset=utf-8', body };
    } else result = mainRoutes(url.pathname, url.searchParams);
    const send = () => {
      if (!result)
        response
          .writeHead(404, { 'content-type': 'text/html' })
          .end(page('Not found', '<p>Nothing here.</p>'));
      else
        response
          .writeHead(result.status, { 'content-type': result.type, ...result.headers })
          .end(result.body);
    };
    const answer = () => (held ? held.push(send) : send());
    const slow = options.latencyMs && result?.type.startsWith('text/html');
    if (slow) setTimeout(answer, options.latencyMs);
    else answer();
  };

  const server: Server = createServer(handle);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    url: main(),
    subUrl: sub(),
    externalUrl: external(),
    movedUrl: `http://moved.localhost:${port}`,
    port,
    hits,
    log,
    mainPages: () => [
      '/',
      '/about',
      '/docs/',
      ...Array.from({ length: CRAWL_SITE.docs }, (_, i) => `/docs/page-${i + 1}`),
      '/blog/',
      ...Array.from({ length: CRAWL_SITE.posts }, (_, i) => `/blog/post-${i + 1}`),
      ...Array.from({ length: CRAWL_SITE.orphans }, (_, i) => `/orphan/${i + 1}`),
    ],
    pause: () => {
      held ??= [];
    },
    resume: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const send of waiting) send();
    },
    close: () =>
      new Promise<void>((resolve) => {
        held = undefined;
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
