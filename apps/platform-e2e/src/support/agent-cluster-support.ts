import { type FixtureHandler, type FixtureServer, startFixtureServer } from '@quarry/testing';

import { type Platform, startCluster } from './platform';
import { type ServiceProcess, startService } from './service-process';

// Shared by the agent cluster e2e (agent-cluster.e2e-spec.ts, agent-cluster-errors.e2e-spec.ts).
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const page = (title: string, body: string, head = '') =>
  `<!doctype html><html><head><title>${title}</title>${head}</head><body><main><h1>${title}</h1>${body}</main></body></html>`;
export const product = (name: string, price: number) =>
  `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name, offers: { '@type': 'Offer', price: String(price), priceCurrency: 'USD' } })}</script>`;
export const slow =
  (ms: number, body: string): FixtureHandler =>
  async (_request, response) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  };
export const fast =
  (body: string): FixtureHandler =>
  (_request, response) =>
    void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);

/** A shop whose price sits one link away from its home page. */
export function shop(prefix: string, delayMs: number): Record<string, FixtureHandler> {
  const handler = (body: string) => (delayMs ? slow(delayMs, body) : fast(body));
  return {
    [`${prefix}/`]: handler(
      page(
        'Acme Shop',
        `<p>Welcome to Acme. We make project software.</p><a href="${prefix}/pricing-pro">Pro plan pricing</a> <a href="${prefix}/about-us">About us</a>`,
      ),
    ),
    [`${prefix}/pricing-pro`]: handler(
      page('Acme Pro plan', '<p>The Pro plan costs $49 per month.</p>', product('Acme Pro', 49)),
    ),
    [`${prefix}/about-us`]: handler(page('About Acme', '<p>Founded in 2001.</p>')),
  };
}

export const schema = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' } },
  required: ['name', 'price'],
};
export const prompt = 'What does the Acme Pro pricing plan cost?';

/** The fixture site of the agent cluster e2e: two shops (one slow), three pages, two very slow pages. */
export const agentSiteRoutes = (): Record<string, FixtureHandler> => ({
  ...shop('/shop', 0),
  ...shop('/slowshop', 2_500),
  '/p/1': fast(page('Page one', '<p>First page about widgets.</p>')),
  '/p/2': fast(page('Page two', '<p>Second page about widgets.</p>')),
  '/p/3': fast(page('Page three', '<p>Third page about widgets.</p>')),
  '/very-slow/1': slow(8_000, page('Slow one', '<p>Slow page.</p>')),
  '/very-slow/2': slow(8_000, page('Slow two', '<p>Slow page.</p>')),
});

/** Short leases and sweeps, so that a killed orchestrator's run is taken over quickly. */
export const AGENT_CLUSTER_ENV = {
  AGENT_LEASE_MS: '3000',
  AGENT_SWEEP_INTERVAL_MS: '1000',
  AGENT_SCRAPE_TIMEOUT_MS: '20000',
};

/** The agent cluster of a suite: fixture site, cluster (1 gateway, 1 worker), its orchestrators. */
export interface AgentCluster {
  platform: Platform;
  site: FixtureServer;
  databaseUrl: string;
  gateway: string;
  /** Running orchestrators, oldest first (a test may stop one). */
  orchestrators: ServiceProcess[];
  startOrchestrator(): Promise<ServiceProcess>;
}

/**
 * Registers the suite's beforeAll/afterAll: the shop fixture site, a cluster on Kafka and PostgreSQL
 * with `AGENT_CLUSTER_ENV`, and one agent orchestrator; everything is stopped after the suite.
 * Read the returned object's fields inside hooks and tests (they are set by the beforeAll).
 */
export function useAgentCluster(): AgentCluster {
  const cluster = { orchestrators: [] as ServiceProcess[] } as AgentCluster;
  cluster.startOrchestrator = async () => {
    const service = await startService('agent-orchestrator', cluster.platform.env, {
      label: `orchestrator-${cluster.orchestrators.length + 1}`,
    });
    cluster.orchestrators.push(service);
    return service;
  };
  beforeAll(async () => {
    cluster.site = await startFixtureServer(agentSiteRoutes());
    cluster.platform = await startCluster({ gateways: 1, workers: 1, env: AGENT_CLUSTER_ENV });
    cluster.databaseUrl = cluster.platform.database?.url as string;
    cluster.gateway = cluster.platform.url();
    await cluster.startOrchestrator();
  });
  afterAll(async () => {
    await Promise.allSettled(cluster.orchestrators.map((service) => service.stop()));
    await cluster.platform?.stop();
    await cluster.site?.close();
  });
  return cluster;
}
