import type Firecrawl from '@mendable/firecrawl-js';
import type { MonitorCheckDetail, MonitorCheckPage } from '@mendable/firecrawl-js';

import { type FakeSmtpServer, type FixtureServer, startFixtureServer } from '@quarry/testing';

import { eventually, type WebhookReceiver } from './crawl-support';

/** Shared by the monitor e2e (monitor.e2e-spec.ts): the shop fixture, its schema and the check readers. */
export const SECRET = 'monitor-webhook-secret';
export const PRICE_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' } },
  required: ['name', 'price'],
};
export const UNRECOGNIZED =
  'Unrecognized key in body -- please review the v2 API documentation for request body changes';

/** A shop whose pricing page can be edited between checks (its price is in the text and in JSON-LD). */
export function shop(): {
  routes: Record<string, Parameters<typeof startFixtureServer>[0][string]>;
  setPrice: (price: number) => void;
} {
  let price = 49;
  const page = (title: string, body: string, head = '') =>
    `<!doctype html><html><head><title>${title}</title>${head}</head><body><main><h1>${title}</h1>${body}</main></body></html>`;
  return {
    setPrice: (next) => void (price = next),
    routes: {
      '/pricing': (_request, response) =>
        void response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            page(
              'Acme pricing',
              `<p>The Pro plan costs $${price} per month.</p><p>Every plan includes support.</p>`,
              `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Acme Pro', offers: { '@type': 'Offer', price: String(price), priceCurrency: 'USD' } })}</script>`,
            ),
          ),
      '/about': (_request, response) =>
        void response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(page('About Acme', '<p>Founded in 2001 in Lisbon.</p>')),
    },
  };
}

export interface Context {
  apiUrl: string;
  apiKey: string;
  site: FixtureServer;
  setPrice: (price: number) => void;
  receiver: WebhookReceiver;
  smtp: FakeSmtpServer;
  /** A key of another team. */
  strangerKey: () => Promise<string>;
}

export async function waitForCheck(
  firecrawl: Firecrawl,
  monitorId: string,
  checkId: string,
): Promise<MonitorCheckDetail> {
  return eventually(
    async () => {
      const detail = await firecrawl.getMonitorCheck(monitorId, checkId);
      return detail.status === 'queued' || detail.status === 'running' ? undefined : detail;
    },
    120_000,
    500,
  );
}

export const byUrl = (pages: MonitorCheckPage[], target: string, path: string) =>
  pages.find((page) => page.targetId === target && page.url.endsWith(path));
