import Firecrawl from '@mendable/firecrawl-js';
// The SDK converts Zod 3 schemas (its own dependency) to JSON Schema; Zod 4 objects it cannot convert.
import { z } from 'zod/v3';

import { type FixtureHandler, uniqueName } from '@quarry/testing';

import { newTeamKey } from './agent-support';
import { eventually } from './crawl-support';
import { startService } from './service-process';

export const html =
  (body: string, delayMs = 0): FixtureHandler =>
  async (_request, response) => {
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  };
export const product = (name: string, price: string, text: string) =>
  `<!doctype html><html><head><title>${name} | Shop</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"${name}","offers":{"@type":"Offer","price":"${price}","priceCurrency":"USD"}}</script></head>
<body><main><h1>${name}</h1><p>${text}</p><p>Name: ${name}</p><p>Price: ${price}</p></main></body></html>`;
export const SHOE = product(
  'Trail Runner 3',
  '129.00',
  'A lightweight trail shoe with a rock plate and a grippy outsole.',
);
export const PRODUCT_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' } },
};
/** A Zod schema as the SDK user passes it (typed loosely: the SDK's Zod types are another copy of Zod 3). */
export const ZOD_PRODUCT = z.object({ name: z.string(), price: z.number() }) as unknown as Record<
  string,
  unknown
>;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Polls an agent run through the SDK until it is no longer processing. */
export const agentFinished = (firecrawl: Firecrawl, id: string) =>
  eventually(async () => {
    const current = await firecrawl.getAgentStatus(id);
    return current.status === 'processing' ? undefined : current;
  }, 90_000);

export const fixtures = () => ({
  '/shoe': html(SHOE),
  '/slow-shoe': html(SHOE, 2_500),
  '/shop': html(
    '<html><head><title>Shop</title></head><body><main><h1>Our shop</h1><p>Furniture and lamps for reading corners.</p>' +
      '<a href="/shop/lamp">Arc Floor Lamp</a> <a href="/shop/chair">Oak Chair</a></main></body></html>',
  ),
  '/shop/lamp': html(product('Arc Floor Lamp', '199', 'A floor lamp that bends over your sofa.')),
  '/shop/chair': html(product('Oak Chair', '89', 'A solid oak chair for the reading corner.')),
  '/catalog/aurora': html(product('Aurora Desk Lamp', '59', 'A small desk lamp with warm light.')),
});

export type ExtractStatus = Awaited<ReturnType<Firecrawl['getExtractStatus']>> & { tokensUsed?: number };

/** What the fake search provider answers: the catalog page of the fixture site. */
export const catalogSearchResults = (siteUrl: string) => ({
  general: [
    {
      url: `${siteUrl}/catalog/aurora`,
      title: 'Aurora Desk Lamp',
      content: 'A small desk lamp with warm light, 59 USD.',
    },
  ],
  news: [],
  images: [],
});

/** The cluster's environment: searches to the fake provider, fast sweeps and webhook retries. */
export const extractClusterEnv = (searchUrl: string) => ({
  SEARCH_PROVIDER_URL: searchUrl,
  MAP_CRAWL_PAGES: '5',
  AGENT_SWEEP_INTERVAL_MS: '1000',
  WEBHOOK_RETRY_BASE_MS: '200',
});

/** An SDK client for a new team with `credits` (its key alongside), on the gateway of `cluster()`. */
export const teamClients =
  (cluster: () => { apiUrl: string; databaseUrl: string }) =>
  async (credits = 1_000) => {
    const apiKey = await newTeamKey(cluster().databaseUrl, uniqueName('extract'), { credits });
    return { apiKey, firecrawl: new Firecrawl({ apiKey, apiUrl: cluster().apiUrl }) };
  };

/** The agent orchestrator on the cluster's environment, on a free port. */
export const startOrchestrator = (env: Record<string, string>) =>
  startService('agent-orchestrator', { ...env, PORT: '0' }, { label: 'orchestrator' });
