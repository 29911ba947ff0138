import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The benchmark site: PAGES static HTML pages on loopback, 30–60 KB each (navigation chrome, an
 * article with headings, paragraphs, lists, a table and a code block, a footer), every page reachable
 * from `/` within about ten hops (pages link to 2i and 2i+1) plus a dozen pseudo-random links per page.
 * Pages are generated once at start so serving costs almost nothing.
 */
export const PAGES = Number(process.env['BENCH_PAGES'] ?? 1_000);

const WORDS =
  'crawler frontier robots sitemap politeness queue worker partition markdown document index search link depth host delay limit budget cache engine browser render parse extract table heading paragraph'.split(
    ' ',
  );

function rng(seed: number): () => number {
  let state = seed * 2654435761;
  return () => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

function sentence(next: () => number, words: number): string {
  const out: string[] = [];
  for (let index = 0; index < words; index += 1) out.push(WORDS[Math.floor(next() * WORDS.length)]);
  out[0] = out[0][0].toUpperCase() + out[0].slice(1);
  return `${out.join(' ')}.`;
}

function pageHtml(id: number): string {
  const next = rng(id + 1);
  const target = 26_000 + Math.floor(next() * 28_000);
  const link = (to: number, text: string) => `<a href="/page/${to}">${text}</a>`;
  const nav = Array.from(
    { length: 40 },
    (_, index) => `<li>${link(index + 1, `Section ${index + 1}`)}</li>`,
  ).join('');
  const children = [2 * id, 2 * id + 1].filter((to) => to >= 1 && to <= PAGES);
  const random = Array.from({ length: 12 }, () => 1 + Math.floor(next() * PAGES));
  let article = `<h1>Page ${id}: ${sentence(next, 5)}</h1><p>Children: ${children.map((to) => link(to, `child ${to}`)).join(', ')}</p>`;
  let section = 0;
  while (article.length < target) {
    section += 1;
    article += `<h2>Section ${section}</h2>`;
    for (let paragraph = 0; paragraph < 4; paragraph += 1) {
      const linked = random[(section + paragraph) % random.length];
      article += `<p>${sentence(next, 18)} ${sentence(next, 22)} See ${link(linked, `page ${linked}`)} for more. ${sentence(next, 15)}</p>`;
    }
    article += `<ul>${Array.from({ length: 5 }, () => `<li>${sentence(next, 6)}</li>`).join('')}</ul>`;
    if (section % 3 === 0) {
      article += `<table><thead><tr><th>Metric</th><th>Value</th><th>Note</th></tr></thead><tbody>${Array.from({ length: 6 }, (_, row) => `<tr><td>m${row}</td><td>${Math.floor(next() * 1000)}</td><td>${sentence(next, 4)}</td></tr>`).join('')}</tbody></table>`;
    }
    if (section % 4 === 0)
      article += `<pre><code class="language-ts">function page${id}_${section}(depth: number) {\n  return depth * ${section};\n}</code></pre>`;
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${id}</title>
<meta name="description" content="Benchmark page ${id}"><link rel="stylesheet" href="/style.css"><script>window.dataLayer=[];</script></head>
<body><header><nav><ul>${nav}</ul></nav></header><aside class="sidebar"><h3>Related</h3><ul>${random
    .slice(0, 6)
    .map((to) => `<li>${link(to, `Related ${to}`)}</li>`)
    .join('')}</ul></aside>
<main><article>${article}</article></main><footer><p>Benchmark footer ${id}</p><a href="/">Home</a></footer></body></html>`;
}

export interface BenchSite {
  url: string;
  served: () => number;
  close(): Promise<void>;
}

export async function startBenchSite(port = 0): Promise<BenchSite> {
  const pages = new Map<string, Buffer>();
  pages.set('/', Buffer.from(pageHtml(0)));
  for (let id = 1; id <= PAGES - 1; id += 1) pages.set(`/page/${id}`, Buffer.from(pageHtml(id)));
  let served = 0;
  const server: Server = createServer((request, response) => {
    const body = pages.get((request.url ?? '/').split('?')[0]);
    if (!body) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>');
      return;
    }
    served += 1;
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length })
      .end(body);
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served: () => served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Run on its own: `node -r @swc-node/register bench/crawl/site.ts` prints the URL and serves until killed. */
if (require.main === module) {
  startBenchSite(Number(process.argv[2] ?? 0)).then((site) => {
    const sizes = [...Array(5).keys()].map((id) => pageHtml(id).length);
    process.stdout.write(`${JSON.stringify({ url: site.url, pages: PAGES, sampleBytes: sizes })}\n`);
  });
}
