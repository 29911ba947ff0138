import { type FixtureHandler, type FixtureServer, startFixtureServer } from '../fixture-server';
import type { CorpusPage, CorpusRoute } from './corpus-parts';

export interface JsCorpusSite extends FixtureServer {
  /** URL of a corpus page by id. */
  pageUrl(id: string): string;
}

const serve =
  (route: CorpusRoute): FixtureHandler =>
  async (_request, response) => {
    if (route.delayMs) await new Promise((resolve) => setTimeout(resolve, route.delayMs));
    response
      .writeHead(200, { 'content-type': route.contentType, 'cache-control': 'no-store' })
      .end(route.body);
  };

/**
 * Serves corpus pages on 127.0.0.1: each page at `/page/<id>`, the resources it loads at their own
 * absolute paths (a path two pages would serve differently is refused at start).
 */
export async function startJsCorpusSite(pages: readonly CorpusPage[]): Promise<JsCorpusSite> {
  const routes: Record<string, FixtureHandler> = {};
  const owners = new Map<string, string>();
  for (const page of pages) {
    routes[`/page/${page.id}`] = serve({ body: page.html, contentType: 'text/html; charset=utf-8' });
    for (const [path, route] of Object.entries(page.routes ?? {})) {
      const owner = owners.get(path);
      if (owner && owner !== page.id)
        throw new Error(`corpus pages ${owner} and ${page.id} both serve ${path}`);
      owners.set(path, page.id);
      routes[path] = serve(route);
    }
  }
  const server = await startFixtureServer(routes);
  return { ...server, pageUrl: (id: string) => `${server.url}/page/${id}` };
}
