import { createHmac } from 'node:crypto';

import Firecrawl, {
  type MonitorCheck,
  type MonitorCheckDetail,
  type MonitorCheckPage,
} from '@mendable/firecrawl-js';

import { call } from './api-client';
import { eventually } from './crawl-support';
import { byUrl, type Context, PRICE_SCHEMA, SECRET, UNRECOGNIZED, waitForCheck } from './monitor-support';

// The monitor lifecycle tests monitor.e2e-spec.ts runs in each mode (cluster and one process).
/** Create → run (new) → edit the page → run (changed, diffs, judgments) → webhooks, email, PATCH, pause, delete, validation. */
export function monitorLifecycle(context: () => Context, options: { email: boolean }): void {
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
