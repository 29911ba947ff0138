import { createHmac } from 'node:crypto';
import Firecrawl, {
  type MonitorCheck,
  type MonitorCheckDetail,
  type MonitorCheckPage,
} from '@mendable/firecrawl-js';
import {
  startFakeSmtpServer,
  startFixtureServer,
  uniqueName,
  type FakeSmtpServer,
  type FixtureServer,
} from '@quarry/testing';
import { newTeamKey } from './support/agent-support';
import { call } from './support/api-client';
import {
  eventually,
  freePort,
  query,
  startCrawlCluster,
  startFakeSearxng,
  startWebhookReceiver,
  type CrawlCluster,
  type FakeSearxng,
  type WebhookReceiver,
} from './support/crawl-support';
import { startStandalone, type Platform } from './support/platform';
import { startService, type ServiceProcess } from './support/service-process';
import { createTeamKey } from './support/teams';

jest.setTimeout(300_000);

const SECRET = 'monitor-webhook-secret';
const PRICE_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' } },
  required: ['name', 'price'],
};
const UNRECOGNIZED =
  'Unrecognized key in body -- please review the v2 API documentation for request body changes';

/** A shop whose pricing page can be edited between checks (its price is in the text and in JSON-LD). */
function shop(): {
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

interface Context {
  apiUrl: string;
  apiKey: string;
  site: FixtureServer;
  setPrice: (price: number) => void;
  receiver: WebhookReceiver;
  smtp: FakeSmtpServer;
  /** A key of another team. */
  strangerKey: () => Promise<string>;
}

async function waitForCheck(
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

const byUrl = (pages: MonitorCheckPage[], target: string, path: string) =>
  pages.find((page) => page.targetId === target && page.url.endsWith(path));

/** Create → run (new) → edit the page → run (changed, diffs, judgments) → webhooks, email, PATCH, pause, delete, validation. */
function monitorLifecycle(context: () => Context, options: { email: boolean }): void {
  let firecrawl: Firecrawl;
  let monitorId: string;
  let targetIds: string[];
  let firstCheck: MonitorCheckDetail;

  beforeAll(() => {
    firecrawl = new Firecrawl({ apiKey: context().apiKey, apiUrl: context().apiUrl });
  });

  it('creates a monitor with the unmodified SDK (origin accepted, cron and targets echoed with ids)', async () => {
    const { site, receiver } = context();
    const monitor = await firecrawl.createMonitor({
      name: 'Acme pricing',
      schedule: { cron: '0 */6 * * *', timezone: 'Europe/Lisbon' },
      webhook: {
        url: receiver.url,
        headers: { 'x-monitor-test': 'yes' },
        metadata: { suite: 'monitor' },
        events: ['monitor.page', 'monitor.check.completed'],
      },
      ...(options.email
        ? { notification: { email: { enabled: true, recipients: ['ops@acme.example'], includeDiffs: true } } }
        : {}),
      targets: [
        { type: 'scrape', urls: [`${site.url}/pricing`, `${site.url}/about`] },
        {
          type: 'scrape',
          urls: [`${site.url}/pricing`],
          scrapeOptions: { formats: [{ type: 'json', schema: PRICE_SCHEMA }] },
        },
        {
          type: 'scrape',
          urls: [`${site.url}/pricing`],
          scrapeOptions: {
            formats: [
              'markdown',
              // deterministicJson is not in the SDK's format types; the SDK sends it as given.
              { type: 'deterministicJson', schema: PRICE_SCHEMA } as never,
              { type: 'changeTracking', modes: ['git-diff'] },
            ],
          },
        },
      ],
      goal: 'Tell me when the price of the Pro plan changes',
      retentionDays: 7,
    });
    monitorId = monitor.id;
    targetIds = monitor.targets.map((target) => target.id as string);
    expect(monitor).toMatchObject({
      name: 'Acme pricing',
      status: 'active',
      schedule: { cron: '0 */6 * * *', timezone: 'Europe/Lisbon' },
      retentionDays: 7,
      judgeEnabled: true,
      lastRunAt: null,
      currentCheckId: null,
      // (2 pages + 1 page × json 5 + 1 page × deterministicJson 3) per check, 4 checks a day, 30 days.
      estimatedCreditsPerMonth: 10 * 4 * 30,
    });
    expect(new Set(targetIds).size).toBe(3);
    expect(monitor.targets[0]).toEqual({
      type: 'scrape',
      urls: [`${site.url}/pricing`, `${site.url}/about`],
      id: targetIds[0],
    });
    if (options.email)
      expect(monitor.emailRecipientSubscriptions).toEqual([
        { email: 'ops@acme.example', status: 'pending', source: 'opt_in', confirmationEmailSent: true },
      ]);
    const listed = await firecrawl.listMonitors({ limit: 10 });
    expect(listed.map((item) => item.id)).toContain(monitorId);
  });

  (options.email ? it : it.skip)(
    'email recipients confirm with the token from their confirmation email (no API key)',
    async () => {
      const { smtp, apiUrl } = context();
      const mail = await eventually(async () =>
        smtp.received.find(
          (message) => message.to.includes('ops@acme.example') && /Confirmation token/.test(message.text),
        ),
      );
      const token = /Confirmation token: (\S+)/.exec(mail.text)?.[1];
      const wrong = await call(apiUrl, 'POST', '/v2/monitor/email/confirm', {
        body: { token: 'a'.repeat(43) },
      });
      expect(wrong).toMatchObject({
        status: 400,
        body: { success: false, error: 'Invalid or expired token' },
      });
      const confirmed = await call(apiUrl, 'POST', '/v2/monitor/email/confirm', {
        body: { token, origin: 'email' },
      });
      expect(confirmed).toMatchObject({
        status: 200,
        body: { success: true, data: { monitorId, email: 'ops@acme.example', status: 'confirmed' } },
      });
      expect((await firecrawl.getMonitor(monitorId)).emailRecipientSubscriptions?.[0].status).toBe(
        'confirmed',
      );
    },
  );

  it('a manual run reports every page as new, with credits from the ledger', async () => {
    const { site } = context();
    const started = await firecrawl.runMonitor(monitorId);
    expect(started).toMatchObject({
      monitorId,
      trigger: 'manual',
      status: 'queued',
      scheduledFor: null,
      estimatedCredits: 10,
    });
    await expect(firecrawl.runMonitor(monitorId)).rejects.toMatchObject({ status: 409 });
    firstCheck = await waitForCheck(firecrawl, monitorId, started.id);
    expect(firstCheck).toMatchObject({
      id: started.id,
      status: 'completed',
      summary: { totalPages: 4, new: 4, same: 0, changed: 0, removed: 0, error: 0 },
      actualCredits: 10,
      reservedCredits: 10,
      billingStatus: 'confirmed',
      error: null,
    });
    expect(firstCheck.pages).toHaveLength(4);
    for (const page of firstCheck.pages)
      expect(page).toMatchObject({
        status: 'new',
        previousScrapeId: null,
        currentScrapeId: expect.any(String),
        statusCode: 200,
        diff: null,
      });
    expect(byUrl(firstCheck.pages, targetIds[1], '/pricing')?.snapshot).toEqual({
      json: { name: 'Acme Pro', price: 49 },
    });
    expect(byUrl(firstCheck.pages, targetIds[0], '/pricing')?.url).toBe(`${site.url}/pricing`);
    expect(firstCheck.targetResults).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          targetId: targetIds[0],
          type: 'scrape',
          expectedJobs: [expect.any(String)],
        }),
      ]),
    );
    const monitor = await firecrawl.getMonitor(monitorId);
    expect(monitor).toMatchObject({
      currentCheckId: null,
      lastRunAt: expect.any(String),
      lastCheckSummary: firstCheck.summary,
    });
  });

  it('after the page changed: changed pages with git diff, field diff and judgment; unchanged pages are same', async () => {
    context().setPrice(59);
    const started = await firecrawl.runMonitor(monitorId);
    const check = await waitForCheck(firecrawl, monitorId, started.id);
    expect(check).toMatchObject({
      status: 'completed',
      summary: { totalPages: 4, changed: 3, same: 1, new: 0, removed: 0, error: 0 },
      actualCredits: 10,
    });
    const markdown = byUrl(check.pages, targetIds[0], '/pricing') as MonitorCheckPage;
    const first = byUrl(firstCheck.pages, targetIds[0], '/pricing') as MonitorCheckPage;
    expect(markdown).toMatchObject({ status: 'changed', previousScrapeId: first.currentScrapeId });
    expect(markdown.diff?.text).toMatch(/^diff --git a\/page\.md b\/page\.md/);
    expect(markdown.diff?.text).toContain('-The Pro plan costs $49 per month.');
    expect(markdown.diff?.text).toContain('+The Pro plan costs $59 per month.');
    expect(markdown.diff?.json).toEqual({
      files: [expect.objectContaining({ additions: 1, deletions: 1, chunks: expect.any(Array) })],
    });
    expect(markdown.judgment).toMatchObject({
      meaningful: true,
      confidence: 'low',
      reason: expect.stringMatching(/^Deterministic judge/),
    });
    expect(byUrl(check.pages, targetIds[0], '/about')).toMatchObject({
      status: 'same',
      diff: null,
      judgment: null,
    });
    const json = byUrl(check.pages, targetIds[1], '/pricing') as MonitorCheckPage;
    expect(json).toMatchObject({
      status: 'changed',
      diff: {
        json: { name: { previous: 'Acme Pro', current: 'Acme Pro' }, price: { previous: 49, current: 59 } },
      },
      snapshot: { json: { name: 'Acme Pro', price: 59 } },
    });
    expect(json.diff?.text).toBeUndefined();
    const mixed = byUrl(check.pages, targetIds[2], '/pricing') as MonitorCheckPage;
    expect(mixed.diff).toMatchObject({
      json: { price: { previous: 49, current: 59 } },
      text: expect.stringContaining('+The Pro plan costs $59 per month.'),
    });

    // Paging: the SDK follows `next` (limit 1) and returns every page; a status filter narrows them.
    const paged = await firecrawl.getMonitorCheck(monitorId, started.id, { limit: 1 });
    expect(paged.pages.map((page) => page.id).sort()).toEqual(check.pages.map((page) => page.id).sort());
    const onlySame = await firecrawl.getMonitorCheck(monitorId, started.id, {
      status: 'same',
      autoPaginate: false,
    });
    expect(onlySame.pages.map((page) => page.url)).toEqual([`${context().site.url}/about`]);
    const checks = await firecrawl.listMonitorChecks(monitorId, { limit: 10 });
    expect(checks.map((item: MonitorCheck) => item.id)).toEqual([started.id, firstCheck.id]);
    expect(
      (await firecrawl.listMonitorChecks(monitorId, { limit: 1, offset: 1 })).map((item) => item.id),
    ).toEqual([firstCheck.id]);
  });

  it('the webhook receives signed monitor.page events and monitor.check.completed, in order', async () => {
    const { receiver } = context();
    const ofMonitor = () =>
      receiver.received.filter(
        (hook) => (hook.body.data[0] as { monitorId?: string } | undefined)?.monitorId === monitorId,
      );
    const hooks = await eventually(async () => {
      const got = ofMonitor();
      return got.filter((hook) => hook.body.type === 'monitor.check.completed').length >= 2 ? got : undefined;
    });
    const checkIds = [...new Set(hooks.map((hook) => hook.body.id))];
    expect(checkIds).toHaveLength(2);
    for (const hook of hooks) {
      expect(hook.headers['x-firecrawl-signature']).toBe(
        `sha256=${createHmac('sha256', SECRET).update(hook.raw).digest('hex')}`,
      );
      expect(hook.headers['x-monitor-test']).toBe('yes');
      expect(hook.body.metadata).toEqual({ suite: 'monitor' });
    }
    const [first, second] = checkIds.map((id) => hooks.filter((hook) => hook.body.id === id));
    expect(first.map((hook) => hook.body.type)).toEqual([
      'monitor.page',
      'monitor.page',
      'monitor.page',
      'monitor.page',
      'monitor.check.completed',
    ]);
    expect(second.map((hook) => hook.body.type)).toEqual([
      'monitor.page',
      'monitor.page',
      'monitor.page',
      'monitor.check.completed',
    ]);
    const changed = second.find(
      (hook) => (hook.body.data[0] as { diff?: { text?: string } }).diff?.text,
    ) as (typeof hooks)[number];
    expect(changed.body).toMatchObject({
      success: true,
      data: [
        {
          monitorId,
          checkId: changed.body.id,
          status: 'changed',
          isMeaningful: true,
          judgment: { meaningful: true },
          diff: { text: expect.stringContaining('$59') },
        },
      ],
    });
    expect(second.at(-1)?.body).toMatchObject({
      success: true,
      type: 'monitor.check.completed',
      data: [
        { monitorId, checkId: second[0].body.id, status: 'completed', summary: { changed: 3, same: 1 } },
      ],
    });
  });

  (options.email ? it : it.skip)(
    'confirmed recipients get the change email and can unsubscribe with its token',
    async () => {
      const { smtp, apiUrl } = context();
      const mail = await eventually(async () =>
        smtp.received.find(
          (message) => message.to.includes('ops@acme.example') && /3 changed/.test(message.subject),
        ),
      );
      expect(mail.subject).toBe('[Monitor] Acme pricing: 3 changed');
      expect(mail.text).toContain('+The Pro plan costs $59 per month.');
      const checks = await firecrawl.listMonitorChecks(monitorId, { limit: 1 });
      expect(checks[0].notificationStatus).toMatchObject({
        webhook: 'queued',
        email: 'sent',
        emailRecipients: 1,
      });
      const token = /Unsubscribe token: (\S+)/.exec(mail.text)?.[1];
      const unsubscribed = await call(apiUrl, 'POST', '/v2/monitor/email/unsubscribe', { body: { token } });
      expect(unsubscribed).toMatchObject({
        status: 200,
        body: { success: true, data: { status: 'unsubscribed' } },
      });
      expect((await firecrawl.getMonitor(monitorId)).emailRecipientSubscriptions?.[0].status).toBe(
        'unsubscribed',
      );
    },
  );

  it('updates, pauses (runs refused), resumes and deletes', async () => {
    const updated = await firecrawl.updateMonitor(monitorId, {
      name: 'Acme pricing (daily)',
      schedule: { text: 'daily at 9am', timezone: 'UTC' },
      webhook: null,
    });
    expect(updated).toMatchObject({
      name: 'Acme pricing (daily)',
      schedule: { cron: '0 9 * * *', timezone: 'UTC', text: 'daily at 9am' },
      webhook: null,
      estimatedCreditsPerMonth: 10 * 30,
    });
    expect(updated.targets.map((target) => target.id)).toEqual(targetIds);
    const paused = await firecrawl.updateMonitor(monitorId, { status: 'paused' });
    expect(paused).toMatchObject({ status: 'paused', nextRunAt: null });
    await expect(firecrawl.runMonitor(monitorId)).rejects.toMatchObject({ status: 409 });
    const resumed = await firecrawl.updateMonitor(monitorId, { status: 'active' });
    expect(new Date(resumed.nextRunAt as string).getUTCHours()).toBe(9);
    await expect(firecrawl.deleteMonitor(monitorId)).resolves.toBe(true);
    await expect(firecrawl.getMonitor(monitorId)).rejects.toMatchObject({ status: 404 });
    await expect(firecrawl.deleteMonitor(monitorId)).rejects.toMatchObject({ status: 404 });
  });

  it('validates: unknown keys, cron under 15 minutes, bad targets, and another team sees nothing', async () => {
    const { apiUrl, apiKey, site } = context();
    const valid = {
      name: 'x',
      schedule: { cron: '0 * * * *' },
      targets: [{ type: 'scrape', urls: [`${site.url}/about`] }],
    };
    const unknown = await call(apiUrl, 'POST', '/v2/monitor', { apiKey, body: { ...valid, bogus: true } });
    expect(unknown).toMatchObject({
      status: 400,
      body: { success: false, code: 'BAD_REQUEST', error: UNRECOGNIZED },
    });
    const nested = await call(apiUrl, 'POST', '/v2/monitor', {
      apiKey,
      body: { ...valid, targets: [{ type: 'scrape', urls: [`${site.url}/about`], bogus: 1 }] },
    });
    expect(nested).toMatchObject({
      status: 400,
      body: {
        success: false,
        details: [expect.objectContaining({ code: 'unrecognized_keys', keys: ['bogus'] })],
      },
    });
    await expect(
      firecrawl.createMonitor({ ...valid, schedule: { cron: '*/10 * * * *' } } as never),
    ).rejects.toMatchObject({
      status: 400,
      message: 'The schedule runs every 10 minutes; the minimum interval between checks is 15 minutes',
    });
    const both = await call(apiUrl, 'POST', '/v2/monitor', {
      apiKey,
      body: { ...valid, schedule: { cron: '0 * * * *', text: 'hourly' } },
    });
    expect(both).toMatchObject({
      status: 400,
      body: { error: 'schedule needs exactly one of cron or text' },
    });
    const search = await call(apiUrl, 'POST', '/v2/monitor', {
      apiKey,
      body: { ...valid, targets: [{ type: 'search', queries: ['acme'] }] },
    });
    expect(search).toMatchObject({
      status: 400,
      body: { error: 'goal is required for search targets unless judgeEnabled is false' },
    });
    const empty = await call(apiUrl, 'POST', '/v2/monitor', { apiKey, body: { ...valid, targets: [] } });
    expect(empty.status).toBe(400);

    const mine = await firecrawl.createMonitor(valid as never);
    const stranger = new Firecrawl({ apiKey: await context().strangerKey(), apiUrl });
    await expect(stranger.getMonitor(mine.id)).rejects.toMatchObject({ status: 404 });
    await expect(stranger.runMonitor(mine.id)).rejects.toMatchObject({ status: 404 });
    expect((await stranger.listMonitors()).map((monitor) => monitor.id)).not.toContain(mine.id);
    await firecrawl.deleteMonitor(mine.id);
  });
}

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
