import Firecrawl from '@mendable/firecrawl-js';

import { type FixtureServer, startFakeSmtpServer, startFixtureServer, uniqueName } from '@quarry/testing';

import { newTeamKey } from './support/agent-support';
import { call } from './support/api-client';
import {
  type CrawlCluster,
  eventually,
  type FakeSearxng,
  freePort,
  query,
  startCrawlCluster,
  startFakeSearxng,
  startWebhookReceiver,
} from './support/crawl-support';
import { monitorLifecycle } from './support/monitor-lifecycle';
import { type Context, SECRET, shop, waitForCheck } from './support/monitor-support';
import { type Platform, startStandalone } from './support/platform';
import { type ServiceProcess, startService } from './support/service-process';
import { createTeamKey } from './support/teams';

jest.setTimeout(300_000);

describe('monitors on a cluster (gateway, scrape worker, agent orchestrator over Kafka and PostgreSQL)', () => {
  let platform: CrawlCluster;
  let orchestrator: ServiceProcess;
  let ctx: Context;
  const context = () => ctx;
  const shared: Partial<Context> = {};

  beforeAll(async () => {
    const { routes, setPrice } = shop();
    shared.site = await startFixtureServer(routes);
    shared.receiver = await startWebhookReceiver();
    shared.smtp = await startFakeSmtpServer();
    platform = await startCrawlCluster({
      workers: 1,
      env: {
        WEBHOOK_SECRET: SECRET,
        WEBHOOK_RETRY_BASE_MS: '200',
        SMTP_URL: shared.smtp.url,
        SMTP_FROM: 'Quarry <monitors@quarry.test>',
        MONITOR_SCHEDULER_INTERVAL_MS: '500',
      },
    });
    // Its own port: the cluster's env names the gateway's.
    orchestrator = await startService(
      'agent-orchestrator',
      { ...platform.env, PORT: '0' },
      { label: 'orchestrator' },
    );
    ctx = {
      ...(shared as Context),
      apiUrl: platform.publicUrl,
      apiKey: platform.apiKey,
      setPrice,
      strangerKey: () =>
        newTeamKey(platform.database?.url as string, uniqueName('stranger'), { credits: 100 }),
    };
  });
  afterAll(async () => {
    await orchestrator?.stop();
    await platform?.stop();
    await shared.receiver?.close();
    await shared.smtp?.close();
    await shared.site?.close();
  });

  monitorLifecycle(context, { email: true });

  it('the orchestrator scheduler runs a due monitor once per slot (scheduled trigger)', async () => {
    const firecrawl = new Firecrawl({ apiKey: platform.apiKey, apiUrl: platform.publicUrl });
    const monitor = await firecrawl.createMonitor({
      name: 'scheduled',
      schedule: { text: 'every hour' },
      targets: [{ type: 'scrape', urls: [`${ctx.site.url}/about`] }],
    });
    const [slot] = await query<{ slot: Date }>(
      platform,
      `UPDATE monitors SET next_run_at = date_trunc('hour', now()) WHERE id = $1 RETURNING next_run_at AS slot`,
      [monitor.id],
    );
    const check = await eventually(
      async () => (await firecrawl.listMonitorChecks(monitor.id)).find((item) => item.status === 'completed'),
      60_000,
      500,
    );
    expect(check).toMatchObject({
      trigger: 'scheduled',
      scheduledFor: new Date(slot.slot).toISOString(),
      summary: { totalPages: 1, new: 1 },
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await firecrawl.listMonitorChecks(monitor.id)).toHaveLength(1);
    const after = await firecrawl.getMonitor(monitor.id);
    expect(Date.parse(after.nextRunAt as string)).toBeGreaterThan(Date.now());
    await firecrawl.deleteMonitor(monitor.id);
  });

  it('zero-data-retention teams cannot use monitors', async () => {
    const key = await newTeamKey(platform.database?.url as string, uniqueName('zdr'), {
      credits: 100,
      zeroDataRetention: true,
    });
    const response = await call(platform.publicUrl, 'GET', '/v2/monitor', { apiKey: key });
    expect(response).toMatchObject({
      status: 400,
      body: { success: false, error: expect.stringMatching(/zero data retention/) },
    });
  });
});

describe('monitors in the one-process mode (embedded database, in-memory bus)', () => {
  let platform: Platform;
  let searxng: FakeSearxng;
  let ctx: Context;
  const context = () => ctx;
  const shared: Partial<Context> = {};

  beforeAll(async () => {
    const { routes, setPrice } = shop();
    shared.site = await startFixtureServer(routes);
    shared.receiver = await startWebhookReceiver();
    shared.smtp = await startFakeSmtpServer();
    const port = await freePort();
    // A web search provider answering every query with the shop's two pages.
    searxng = await startFakeSearxng({
      general: [
        { url: `${shared.site.url}/pricing`, title: 'Acme pricing', content: 'Pro plan price' },
        { url: `${shared.site.url}/about`, title: 'About Acme', content: 'Founded in 2001' },
      ],
      news: [],
      images: [],
    });
    platform = await startStandalone({
      SEARCH_PROVIDER_URL: searxng.url,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      WEBHOOK_SECRET: SECRET,
      WEBHOOK_RETRY_BASE_MS: '200',
      MONITOR_SCHEDULER_INTERVAL_MS: '500',
    });
    ctx = {
      ...(shared as Context),
      apiUrl: platform.url(),
      apiKey: platform.apiKey,
      setPrice,
      strangerKey: async () => (await createTeamKey(platform, { credits: 100 })).apiKey,
    };
  });
  afterAll(async () => {
    await platform?.stop();
    await searxng?.close();
    await shared.receiver?.close();
    await shared.smtp?.close();
    await shared.site?.close();
  });

  monitorLifecycle(context, { email: false });

  describe('crawl and search targets', () => {
    let docs: FixtureServer;
    let firecrawl: Firecrawl;
    let retired = false;
    const html = (title: string, body: string) =>
      `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

    beforeAll(async () => {
      docs = await startFixtureServer({
        '/docs': (_request, response) =>
          void response
            .writeHead(200, { 'content-type': 'text/html' })
            .end(
              html(
                'Handbook',
                `<p>Start here.</p><a href="/docs/setup">Setup</a>${retired ? '' : ' <a href="/docs/legacy">Legacy</a>'}`,
              ),
            ),
        '/docs/setup': (_request, response) =>
          void response
            .writeHead(200, { 'content-type': 'text/html' })
            .end(html('Setup', '<p>Install the agent.</p>')),
        '/docs/legacy': (_request, response) =>
          void (retired
            ? response.writeHead(404, { 'content-type': 'text/html' }).end(html('Gone', ''))
            : response
                .writeHead(200, { 'content-type': 'text/html' })
                .end(html('Legacy', '<p>Old API.</p>'))),
      });
      firecrawl = new Firecrawl({ apiKey: ctx.apiKey, apiUrl: ctx.apiUrl });
    });
    afterAll(async () => {
      await docs?.close();
    });

    it('a crawl target compares the pages it reaches: a page no longer linked is removed', async () => {
      const monitor = await firecrawl.createMonitor({
        name: 'handbook',
        schedule: { cron: '0 3 * * *' },
        targets: [{ type: 'crawl', url: `${docs.url}/docs`, crawlOptions: { limit: 10, sitemap: 'skip' } }],
      });
      const first = await waitForCheck(firecrawl, monitor.id, (await firecrawl.runMonitor(monitor.id)).id);
      expect(first).toMatchObject({ status: 'completed', summary: { totalPages: 3, new: 3 } });
      expect(first.targetResults).toEqual([
        expect.objectContaining({ type: 'crawl', crawlId: expect.any(String) }),
      ]);
      retired = true;
      const second = await waitForCheck(firecrawl, monitor.id, (await firecrawl.runMonitor(monitor.id)).id);
      expect(second.summary).toEqual({ totalPages: 3, same: 1, changed: 1, new: 0, removed: 1, error: 0 });
      expect(second.pages.find((page) => page.url.endsWith('/docs/legacy'))).toMatchObject({
        status: 'removed',
        previousScrapeId: expect.any(String),
        currentScrapeId: null,
      });
      expect(second.pages.find((page) => page.url.endsWith('/docs'))?.diff?.text).toMatch(/^-.*\[Legacy\]/m);
      await firecrawl.deleteMonitor(monitor.id);
    });

    it('a search target scrapes the results and judges new ones against the goal (offline judge, labelled)', async () => {
      const monitor = await firecrawl.createMonitor({
        name: 'acme news',
        schedule: { text: 'weekdays at 8:30', timezone: 'Europe/Lisbon' },
        goal: 'Pro plan price',
        targets: [{ type: 'search', queries: ['acme pricing'], searchWindow: '7d', maxResults: 5 }],
      });
      expect(monitor.schedule).toEqual({
        cron: '30 8 * * 1-5',
        timezone: 'Europe/Lisbon',
        text: 'weekdays at 8:30',
      });
      const check = await waitForCheck(firecrawl, monitor.id, (await firecrawl.runMonitor(monitor.id)).id);
      expect(searxng.requests.at(-1)?.get('time_range')).toBe('week');
      const pricing = check.pages.find((page) => page.url === `${ctx.site.url}/pricing`);
      expect(pricing).toMatchObject({
        status: 'new',
        judgment: {
          meaningful: true,
          confidence: 'low',
          reason: expect.stringMatching(/^Deterministic judge/),
        },
      });
      const about = check.pages.find((page) => page.url === `${ctx.site.url}/about`);
      expect(about?.judgment?.meaningful).toBe(false);
      expect(check.targetResults).toEqual([
        expect.objectContaining({
          type: 'search',
          searchCompleted: true,
          resultCount: check.pages.length,
          matches: 1,
          judgeDegraded: true,
          degradedReason: 'no language model configured',
          searchCredits: 2,
        }),
      ]);
      // One search (2 credits) and one credit per scraped result.
      expect(check.actualCredits).toBe(2 + check.pages.length);
      await firecrawl.deleteMonitor(monitor.id);
    });
  });
});
