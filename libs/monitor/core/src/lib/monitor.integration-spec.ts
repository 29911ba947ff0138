import pino from 'pino';

import { type CreateMonitorRequest, createMonitorSchema, updateMonitorSchema } from '@quarry/contracts';
import type { CollectionService } from '@quarry/crawl';
import { JobRepository } from '@quarry/jobs';
import { OfflineProvider } from '@quarry/llm';
import { MemoryBus } from '@quarry/platform/bus';
import type { Database } from '@quarry/platform/database';
import { AddressPolicy, GuardedHttpClient, WebhookTargetPolicy } from '@quarry/platform/net';
import { PlatformMetrics } from '@quarry/platform/observability';
import type { SearchService } from '@quarry/search';
import {
  createTestDatabase,
  type FakeSmtpServer,
  startFakeSmtpServer,
  type TestDatabase,
  uniqueName,
} from '@quarry/testing';
import { WebhookOutboxRepository } from '@quarry/webhooks';

import { ChangeJudge } from './check/change-judge';
import { CheckRunner } from './check/check-runner';
import { SmtpMailer } from './email/smtp-mailer';
import { MONITOR_MESSAGES, MonitorService } from './monitor.service';
import type { MonitorCaller } from './monitor.types';
import { CheckNotifier } from './notify/check-notifier';
import { EmailSubscriptionRepository } from './persistence/email-subscription.repository';
import { MonitorRepository } from './persistence/monitor.repository';
import { MonitorScheduler } from './scheduler/monitor-scheduler';

/** The webhook check with DNS at the boundary: every name resolves to a public address (there is no resolver to ask here). */
const publicWebhookTargets = () =>
  new WebhookTargetPolicy(
    new GuardedHttpClient(new AddressPolicy(true), { userAgent: 'test', maxBytes: 1_000 }, async () => [
      { address: '93.184.216.34', family: 4 },
    ]),
  );

jest.setTimeout(120_000);

const logger = pino({ level: 'silent' });

/** One process's view of the platform: its own connection pool, repositories, scheduler and service. */
interface Replica {
  db: Database;
  monitors: MonitorRepository;
  scheduler: MonitorScheduler;
  service: MonitorService;
}

describe('monitors on PostgreSQL: scheduling across replicas, API service, email opt-in', () => {
  let database: TestDatabase;
  let smtp: FakeSmtpServer;
  let bus: MemoryBus;
  const published: string[] = [];
  const replicas: Replica[] = [];

  const openReplica = async (): Promise<Replica> => {
    const db = await database.open();
    const monitors = new MonitorRepository(db, new WebhookOutboxRepository(db));
    const subscriptions = new EmailSubscriptionRepository(db);
    const notifier = new CheckNotifier({
      subscriptions,
      mailer: new SmtpMailer({ url: smtp.url, from: 'Monitors <monitors@quarry.example>' }),
      publicUrl: 'http://quarry.test',
      logger,
    });
    const scheduler = new MonitorScheduler({
      monitors,
      subscriptions,
      bus,
      settings: { intervalMs: 60_000, leaseMs: 30_000 },
      logger,
    });
    const service = new MonitorService({
      monitors,
      subscriptions,
      notifier,
      bus,
      publicUrl: 'http://quarry.test',
      logger,
      webhookTargets: publicWebhookTargets(),
    });
    const replica = { db, monitors, scheduler, service };
    replicas.push(replica);
    return replica;
  };

  const newTeam = async (credits = 1_000): Promise<MonitorCaller> => {
    const [team] = await replicas[0].db.sql.query<{ id: string }>(
      `INSERT INTO teams (id, name, credits) VALUES (gen_random_uuid(), $1, $2) RETURNING id`,
      [uniqueName('team'), credits],
    );
    return { teamId: team.id, zeroDataRetention: false, canOverrideRobots: false };
  };

  const request = (overrides: Record<string, unknown> = {}): CreateMonitorRequest =>
    createMonitorSchema.parse({
      name: 'Pricing page',
      schedule: { cron: '*/15 * * * *' },
      targets: [{ type: 'scrape', urls: ['https://shop.example/pricing', 'https://shop.example/plans'] }],
      origin: 'js-sdk@4.42.0',
      ...overrides,
    });

  const create = async (caller: MonitorCaller, overrides: Record<string, unknown> = {}) => {
    const body = request(overrides);
    return (await replicas[0].service.create(caller, body, body.targets)).data;
  };

  /** Makes the monitors due now (as if their slot had passed). */
  const makeDue = (ids: string[]) =>
    replicas[0].db.sql.query(
      `UPDATE monitors SET next_run_at = now() - interval '1 second' WHERE id = ANY($1::uuid[])`,
      [ids],
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startFakeSmtpServer();
    bus = new MemoryBus(logger);
    await bus.start();
    await bus.subscribe<{ checkId: string }>(
      'monitorChecks',
      { group: 'test', concurrency: 1 },
      async (message) => {
        published.push(message.value.checkId);
      },
    );
    await openReplica();
    await openReplica();
  });
  afterAll(async () => {
    await bus.stop();
    for (const replica of replicas) await replica.db.close();
    await smtp.close();
    await database.drop();
  });

  it('creates a monitor: normalised schedule, target ids, next run, credit estimate', async () => {
    const caller = await newTeam();
    const before = Date.now();
    const monitor = await create(caller, {
      schedule: { text: 'every 30 minutes', timezone: 'Europe/Berlin' },
    });
    expect(monitor).toMatchObject({
      name: 'Pricing page',
      status: 'active',
      schedule: { cron: '*/30 * * * *', timezone: 'Europe/Berlin', text: 'every 30 minutes' },
      lastRunAt: null,
      currentCheckId: null,
      retentionDays: 30,
      goal: null,
      judgeEnabled: false,
      lastCheckSummary: null,
      // 2 pages × 1 credit × 1440 runs in 30 days.
      estimatedCreditsPerMonth: 2 * 1_440,
    });
    expect(monitor.targets[0]).toEqual({
      type: 'scrape',
      urls: ['https://shop.example/pricing', 'https://shop.example/plans'],
      id: expect.any(String),
    });
    const next = Date.parse(monitor.nextRunAt as string);
    expect(next).toBeGreaterThan(before);
    expect(next - before).toBeLessThanOrEqual(30 * 60_000);
    expect(new Date(next).getUTCMinutes() % 30).toBe(0);
  });

  it('refuses schedules under 15 minutes, zero-data-retention teams, and answers other teams like unknown monitors', async () => {
    const caller = await newTeam();
    await expect(create(caller, { schedule: { cron: '*/5 * * * *' } })).rejects.toMatchObject({
      status: 400,
      message: 'The schedule runs every 5 minutes; the minimum interval between checks is 15 minutes',
    });
    await expect(create({ ...caller, zeroDataRetention: true })).rejects.toMatchObject({
      status: 400,
      message: MONITOR_MESSAGES.zeroDataRetention,
    });
    const monitor = await create(caller);
    const stranger = await newTeam();
    await expect(replicas[0].service.get(stranger, monitor.id)).rejects.toMatchObject({
      status: 404,
      message: MONITOR_MESSAGES.notFound,
    });
    await expect(replicas[0].service.run(stranger, monitor.id)).rejects.toMatchObject({ status: 404 });
    await expect(replicas[0].service.delete(stranger, monitor.id)).rejects.toMatchObject({ status: 404 });
    await expect(replicas[0].service.get(caller, 'not-a-uuid')).rejects.toMatchObject({ status: 404 });
    expect((await replicas[0].service.get(caller, monitor.id)).data.id).toBe(monitor.id);
  });

  it('two schedulers ticking at once run each due slot exactly once', async () => {
    const caller = await newTeam(100_000);
    const monitors = await Promise.all(
      Array.from({ length: 30 }, (_, index) => create(caller, { name: `m${index}` })),
    );
    const ids = monitors.map((monitor) => monitor.id);
    published.length = 0;
    for (let round = 0; round < 3; round += 1) {
      await makeDue(ids);
      const results = await Promise.all([
        replicas[0].scheduler.tick(),
        replicas[1].scheduler.tick(),
        replicas[0].scheduler.tick(),
        replicas[1].scheduler.tick(),
      ]);
      expect(results.reduce((sum, result) => sum + result.started, 0)).toBe(round === 0 ? 30 : 0);
      if (round === 0) continue;
      // Later rounds: the first checks are still queued, so every slot is recorded as an overlap.
    }
    const rows = await replicas[0].db.sql.query<{ monitor_id: string; status: string; n: string }>(
      `SELECT monitor_id, status, count(*) AS n FROM monitor_checks WHERE monitor_id = ANY($1::uuid[]) GROUP BY monitor_id, status`,
      [ids],
    );
    const byMonitor = new Map<string, Record<string, number>>();
    for (const row of rows)
      byMonitor.set(row.monitor_id, { ...byMonitor.get(row.monitor_id), [row.status]: Number(row.n) });
    for (const id of ids) expect(byMonitor.get(id)).toEqual({ queued: 1, skipped_overlap: 2 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(published.length).toBe(30);
    expect(new Set(published).size).toBe(30);
    const [monitor] = await replicas[0].db.sql.query<{ next_run_at: Date; current_check_id: string }>(
      `SELECT next_run_at, current_check_id FROM monitors WHERE id = $1`,
      [ids[0]],
    );
    expect(new Date(monitor.next_run_at).getTime()).toBeGreaterThan(Date.now());
    expect(published).toContain(monitor.current_check_id);
  });

  it('skips a slot without credits, and manual runs: 409 while one runs or when paused', async () => {
    const poor = await newTeam(1);
    const monitor = await create(poor);
    await makeDue([monitor.id]);
    await replicas[0].scheduler.tick();
    const [skipped] = (await replicas[0].service.checks(poor, monitor.id, { limit: 10, offset: 0 })).data;
    expect(skipped).toMatchObject({
      status: 'skipped_no_credits',
      trigger: 'scheduled',
      billingStatus: 'not_applicable',
      estimatedCredits: 2,
      finishedAt: expect.any(String),
    });
    expect(skipped.error).toMatch(/needs at least 2, the team has 1/);

    const caller = await newTeam();
    const other = await create(caller);
    const run = await replicas[0].service.run(caller, other.id);
    expect(run).toMatchObject({
      success: true,
      id: run.data.id,
      data: { status: 'queued', trigger: 'manual', scheduledFor: null, monitorId: other.id },
    });
    expect((await replicas[0].service.get(caller, other.id)).data.currentCheckId).toBe(run.id);
    await expect(replicas[1].service.run(caller, other.id)).rejects.toMatchObject({
      status: 409,
      message: MONITOR_MESSAGES.checkRunning,
    });
    const paused = await replicas[0].service.update(
      caller,
      other.id,
      updateMonitorSchema.parse({ status: 'paused' }),
      undefined,
    );
    expect(paused.data).toMatchObject({ status: 'paused', nextRunAt: null });
    await replicas[0].db.sql.query(`UPDATE monitor_checks SET status = 'completed' WHERE id = $1`, [run.id]);
    await expect(replicas[0].service.run(caller, other.id)).rejects.toMatchObject({
      status: 409,
      message: MONITOR_MESSAGES.paused,
    });
    const resumed = await replicas[0].service.update(
      caller,
      other.id,
      updateMonitorSchema.parse({ status: 'active', schedule: { cron: '0 9 * * 1' } }),
      undefined,
    );
    expect(resumed.data).toMatchObject({
      status: 'active',
      schedule: { cron: '0 9 * * 1', timezone: 'UTC' },
    });
    expect(new Date(resumed.data.nextRunAt as string).getUTCDay()).toBe(1);
  });

  it('keeps target ids across an edit of the same subject, and enforces the goal rule on the merged monitor', async () => {
    const caller = await newTeam();
    const monitor = await create(caller, {
      targets: [
        { type: 'scrape', urls: ['https://a.example/x'] },
        { type: 'crawl', url: 'https://a.example/docs' },
      ],
    });
    const [scrapeId, crawlId] = monitor.targets.map((target) => target.id);
    const edited = await replicas[0].service.update(
      caller,
      monitor.id,
      updateMonitorSchema.parse({
        targets: [
          { type: 'crawl', url: 'https://a.example/docs', crawlOptions: { limit: 5 } },
          { type: 'scrape', urls: ['https://a.example/y'] },
        ],
      }),
      [
        { type: 'crawl', url: 'https://a.example/docs', crawlOptions: { limit: 5 } },
        { type: 'scrape', urls: ['https://a.example/y'] },
      ],
    );
    expect(edited.data.targets[0]).toEqual({
      type: 'crawl',
      url: 'https://a.example/docs',
      crawlOptions: { limit: 5 },
      id: crawlId,
    });
    expect(edited.data.targets[1].id).not.toBe(scrapeId);
    // PATCH checks the goal rule on the merged monitor: search targets with the stored goal are fine, clearing it is not.
    const searching = await create(caller, {
      goal: 'Acme price changes',
      targets: [{ type: 'search', queries: ['acme pricing'] }],
    });
    expect(searching).toMatchObject({ goal: 'Acme price changes', judgeEnabled: true });
    const more = [{ type: 'search', queries: ['acme pricing', 'acme plans'] }];
    await expect(
      replicas[0].service.update(caller, searching.id, updateMonitorSchema.parse({ targets: more }), more),
    ).resolves.toMatchObject({ success: true });
    await expect(
      replicas[0].service.update(caller, searching.id, updateMonitorSchema.parse({ goal: null }), undefined),
    ).rejects.toMatchObject({
      status: 400,
      message: MONITOR_MESSAGES.goalRequired,
    });
    await expect(
      replicas[0].service.update(
        caller,
        searching.id,
        updateMonitorSchema.parse({ goal: null, judgeEnabled: false }),
        undefined,
      ),
    ).resolves.toMatchObject({
      data: { goal: null, judgeEnabled: false },
    });
  });

  it('email recipients opt in with a token sent by email (stored hashed) and can unsubscribe', async () => {
    const caller = await newTeam();
    const monitor = await create(caller, {
      notification: { email: { recipients: ['Ops@Acme.example'], includeDiffs: true } },
    });
    expect(monitor.emailRecipientSubscriptions).toEqual([
      { email: 'ops@acme.example', status: 'pending', source: 'opt_in', confirmationEmailSent: true },
    ]);
    const mail = smtp.received.find((message) => message.to.includes('ops@acme.example'));
    const token = /Confirmation token: (\S+)/.exec(mail?.text ?? '')?.[1] as string;
    expect(token).toBeDefined();
    const stored = await replicas[0].db.sql.query<{ token_hash: string }>(
      `SELECT token_hash FROM monitor_email_tokens`,
    );
    expect(stored.some((row) => row.token_hash === token)).toBe(false);
    expect(stored.some((row) => row.token_hash.length === 64)).toBe(true);

    await expect(replicas[0].service.confirmEmail('x'.repeat(43))).rejects.toMatchObject({
      status: 400,
      message: MONITOR_MESSAGES.invalidToken,
    });
    const unsubscribeToken = /Unsubscribe token: (\S+)/.exec(mail?.text ?? '')?.[1] as string;
    await expect(replicas[0].service.unsubscribeEmail(token)).rejects.toMatchObject({ status: 400 });
    expect((await replicas[0].service.confirmEmail(token)).data).toEqual({
      monitorId: monitor.id,
      email: 'ops@acme.example',
      status: 'confirmed',
    });
    expect(
      (await replicas[0].service.get(caller, monitor.id)).data.emailRecipientSubscriptions?.[0].status,
    ).toBe('confirmed');
    expect((await replicas[0].service.unsubscribeEmail(unsubscribeToken)).data.status).toBe('unsubscribed');
    expect(
      (await replicas[0].service.get(caller, monitor.id)).data.emailRecipientSubscriptions?.[0].status,
    ).toBe('unsubscribed');
  });

  it('quarantines a check whose runners died WORK_MAX_ATTEMPTS times: failed with the reason, the monitor keeps its schedule', async () => {
    const caller = await newTeam();
    const monitor = await create(caller);
    await makeDue([monitor.id]);
    published.length = 0;
    await replicas[0].scheduler.tick();
    const [checkId] = published;
    expect(checkId).toEqual(expect.any(String));
    const { monitors } = replicas[0];
    // Two runners took the check and died with it (their leases lapse without a result).
    for (const owner of ['dead-runner-1', 'dead-runner-2']) {
      expect(await monitors.claimCheck(checkId, owner, 200)).toMatchObject({ id: checkId });
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const untouchable = () => {
      throw new Error('a quarantined check must not start any work');
    };
    const sut = new CheckRunner({
      monitors,
      collections: new Proxy({}, { get: untouchable }) as CollectionService,
      search: new Proxy({}, { get: untouchable }) as SearchService,
      jobs: new JobRepository(replicas[0].db),
      judge: new ChangeJudge(new OfflineProvider(4_096, 100_000), logger),
      notifier: new CheckNotifier({
        subscriptions: new EmailSubscriptionRepository(replicas[0].db),
        mailer: new SmtpMailer({ url: smtp.url, from: 'Monitors <monitors@quarry.example>' }),
        publicUrl: 'http://quarry.test',
        logger,
      }),
      settings: { leaseMs: 30_000, timeoutMs: 60_000, pollMs: 100, maxAttempts: 2 },
      metrics: new PlatformMetrics({ service: 'test', defaultMetrics: false }),
      logger,
    });
    const before = (await replicas[0].service.get(caller, monitor.id)).data;
    await sut.run(checkId);
    const check = (await replicas[0].service.check(caller, monitor.id, checkId, { limit: 10, skip: 0 })).data;
    expect(check).toMatchObject({ status: 'failed', billingStatus: 'released' });
    expect(check.error).toBe(
      'The check was quarantined: it was attempted 2 times and no attempt finished (each failed or ended its orchestrator process), so it is not retried. Its unfinished crawls and batches were cancelled.',
    );
    const after = (await replicas[0].service.get(caller, monitor.id)).data;
    expect(after).toMatchObject({ status: 'active', nextRunAt: before.nextRunAt, currentCheckId: null });
    expect(new Date(after.nextRunAt as string).getTime()).toBeGreaterThan(Date.now());
    // Finished: never re-published, and a late delivery does nothing.
    await replicas[0].db.sql.query(
      `UPDATE monitor_checks SET updated_at = now() - interval '1 hour' WHERE id = $1`,
      [checkId],
    );
    published.length = 0;
    await replicas[0].scheduler.tick();
    expect(published).not.toContain(checkId);
    await sut.run(checkId);
    expect((await monitors.findCheck(checkId))?.attempts).toBe(3);
  });

  it('prunes finished checks past the monitor retention', async () => {
    const caller = await newTeam();
    const monitor = await create(caller, { retentionDays: 1 });
    const run = await replicas[0].service.run(caller, monitor.id);
    await replicas[0].db.sql.query(
      `UPDATE monitor_checks SET status = 'completed', created_at = now() - interval '2 days' WHERE id = $1`,
      [run.id],
    );
    expect(await replicas[0].monitors.pruneChecks()).toBeGreaterThanOrEqual(1);
    expect((await replicas[0].service.checks(caller, monitor.id, { limit: 10, offset: 0 })).data).toEqual([]);
  });
});
