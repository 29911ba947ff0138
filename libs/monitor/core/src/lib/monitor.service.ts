import { randomUUID } from 'node:crypto';

import type { Logger } from 'pino';
import { ZodError } from 'zod';

import {
  AppError,
  type CreateMonitorRequest,
  describeValidationError,
  type MonitorCheckDetailQuery,
  type MonitorCheckDetailView,
  type MonitorCheckStatus,
  type MonitorCheckView,
  type MonitorNotification,
  type MonitorTargetView,
  type MonitorView,
  type UpdateMonitorRequest,
} from '@quarry/contracts';
import type { MessageBus } from '@quarry/platform/bus';
import type { WebhookTargetPolicy } from '@quarry/platform/net';

import { creditNeeds, newCheck } from './check/check-factory.util';
import type { MonitorCaller, MonitorChanges, MonitorRecord } from './monitor.types';
import { checkView, monitorView } from './monitor-view.util';
import type { CheckNotifier } from './notify/check-notifier';
import type { EmailSubscriptionRepository } from './persistence/email-subscription.repository';
import type { MonitorRepository } from './persistence/monitor.repository';
import {
  nextRunAfter,
  type ResolvedSchedule,
  resolveSchedule,
  runsPerMonth,
} from './schedule/cron-schedule.util';
import { ScheduleError } from './schedule/schedule-error';
import { publishCheck } from './scheduler/monitor-scheduler';

/** Messages of the monitor API. */
export const MONITOR_MESSAGES = {
  notFound: 'Monitor not found',
  checkNotFound: 'Monitor check not found',
  paused: 'The monitor is paused; resume it (status "active") before running it',
  checkRunning: 'A check of this monitor is already running',
  zeroDataRetention:
    'Your team has zero data retention enabled. Monitors store page history and are not available with zero data retention.',
  invalidToken: 'Invalid or expired token',
  duplicateTargetId: 'Target ids must be unique within a monitor',
  goalRequired: 'goal is required for search targets unless judgeEnabled is false',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface MonitorServiceDeps {
  monitors: MonitorRepository;
  subscriptions: EmailSubscriptionRepository;
  notifier: CheckNotifier;
  bus: MessageBus;
  publicUrl: string;
  logger: Logger;
  /** Refuses webhooks the outbound policy would never deliver to. */
  webhookTargets: WebhookTargetPolicy;
}

/** The monitor API (docs/monitor.md): CRUD, manual runs, checks with their pages, email opt-in. */
export class MonitorService {
  constructor(private readonly deps: MonitorServiceDeps) {}

  async create(
    caller: MonitorCaller,
    request: CreateMonitorRequest,
    rawTargets: unknown,
  ): Promise<{ success: true; data: MonitorView }> {
    this.assertAllowed(caller);
    if (request.webhook) await this.deps.webhookTargets.assertAllowed(request.webhook.url);
    const schedule = this.schedule(request.schedule);
    const id = randomUUID();
    const targets = assignTargetIds(request.targets, rawTargets, []);
    this.checkRobots(caller, request.targets);
    const estimates = this.estimates(id, targets, schedule);
    const monitor = await this.deps.monitors.create({
      id,
      teamId: caller.teamId,
      apiKeyId: caller.apiKeyId ?? null,
      name: request.name,
      status: 'active',
      cron: schedule.cron,
      timezone: schedule.timezone,
      scheduleText: schedule.text ?? null,
      targets,
      webhook: request.webhook ?? null,
      notification: request.notification ?? null,
      retentionDays: request.retentionDays,
      goal: request.goal ?? null,
      judgeEnabled: request.judgeEnabled ?? !!request.goal,
      robotsOverride: caller.canOverrideRobots,
      origin: request.origin,
      nextRunAt: nextRunAfter(schedule.cron, schedule.timezone, new Date()),
      estimatedCreditsPerCheck: estimates.perCheck,
      estimatedCreditsPerMonth: estimates.perMonth,
    });
    return { success: true, data: await this.viewWithSubscriptions(monitor, true) };
  }

  async list(
    caller: MonitorCaller,
    limit: number,
    offset: number,
  ): Promise<{ success: true; data: MonitorView[] }> {
    this.assertAllowed(caller);
    const monitors = await this.deps.monitors.list(caller.teamId, limit, offset);
    return { success: true, data: monitors.map((monitor) => monitorView(monitor)) };
  }

  async get(caller: MonitorCaller, id: string): Promise<{ success: true; data: MonitorView }> {
    const monitor = await this.find(caller, id);
    return { success: true, data: await this.viewWithSubscriptions(monitor, false) };
  }

  async update(
    caller: MonitorCaller,
    id: string,
    request: UpdateMonitorRequest,
    rawTargets: unknown,
  ): Promise<{ success: true; data: MonitorView }> {
    const current = await this.find(caller, id);
    if (request.webhook) await this.deps.webhookTargets.assertAllowed(request.webhook.url);
    const changes: MonitorChanges = {};
    if (request.name !== undefined) changes.name = request.name;
    if (request.webhook !== undefined) changes.webhook = request.webhook;
    if (request.notification !== undefined) changes.notification = request.notification;
    if (request.retentionDays !== undefined) changes.retentionDays = request.retentionDays;
    if (request.goal !== undefined) changes.goal = request.goal;
    if (request.judgeEnabled !== undefined) changes.judgeEnabled = request.judgeEnabled;
    else if (request.goal !== undefined && !current.judgeEnabled && request.goal !== null)
      changes.judgeEnabled = true;
    if (request.targets !== undefined) {
      this.checkRobots(caller, request.targets);
      changes.targets = assignTargetIds(request.targets, rawTargets, current.targets);
      changes.robotsOverride = caller.canOverrideRobots;
    }
    const targets = changes.targets ?? current.targets;
    const goal = changes.goal !== undefined ? changes.goal : current.goal;
    const judgeEnabled = changes.judgeEnabled ?? current.judgeEnabled;
    if (targets.some((target) => target.type === 'search') && !goal && judgeEnabled) {
      throw new AppError('BAD_REQUEST', {
        message: MONITOR_MESSAGES.goalRequired,
        details: [{ code: 'custom', path: ['goal'], message: MONITOR_MESSAGES.goalRequired }],
      });
    }
    let schedule: ResolvedSchedule = {
      cron: current.cron,
      timezone: current.timezone,
      ...(current.scheduleText ? { text: current.scheduleText } : {}),
    };
    if (request.schedule !== undefined) {
      schedule = this.schedule(request.schedule);
      changes.cron = schedule.cron;
      changes.timezone = schedule.timezone;
      changes.scheduleText = schedule.text ?? null;
    }
    const status = request.status ?? current.status;
    changes.status = status;
    if (status === 'paused') changes.nextRunAt = null;
    else if (request.schedule !== undefined || current.status === 'paused' || !current.nextRunAt) {
      changes.nextRunAt = nextRunAfter(schedule.cron, schedule.timezone, new Date());
    }
    if (request.targets !== undefined || request.schedule !== undefined) {
      const estimates = this.estimates(current.id, targets, schedule);
      changes.estimatedCreditsPerCheck = estimates.perCheck;
      changes.estimatedCreditsPerMonth = estimates.perMonth;
    }
    // A `nextRunAt` of null must be written as such (pausing): update() skips undefined only.
    const updated = await this.deps.monitors.update(current.id, caller.teamId, changes);
    if (!updated) throw new AppError('NOT_FOUND', { message: MONITOR_MESSAGES.notFound });
    return {
      success: true,
      data: await this.viewWithSubscriptions(updated, request.notification !== undefined),
    };
  }

  async delete(caller: MonitorCaller, id: string): Promise<{ success: true }> {
    this.assertAllowed(caller);
    if (!UUID.test(id) || !(await this.deps.monitors.delete(id, caller.teamId)))
      throw new AppError('NOT_FOUND', { message: MONITOR_MESSAGES.notFound });
    return { success: true };
  }

  /** `POST /v2/monitor/:id/run`: a manual check; 409 when paused or a check runs. */
  async run(
    caller: MonitorCaller,
    id: string,
  ): Promise<{ success: true; id: string; data: MonitorCheckView }> {
    this.assertAllowed(caller);
    if (!UUID.test(id)) throw new AppError('NOT_FOUND', { message: MONITOR_MESSAGES.notFound });
    const outcome = await this.deps.monitors.startManual<'paused' | 'running'>(id, caller.teamId, (due) => {
      if (due.monitor.status === 'paused') return 'paused';
      if (due.checkInProgress) return 'running';
      return newCheck(due.monitor, {
        trigger: 'manual',
        scheduledFor: null,
        checkInProgress: false,
        teamCredits: due.teamCredits,
      });
    });
    if (!outcome) throw new AppError('NOT_FOUND', { message: MONITOR_MESSAGES.notFound });
    if ('refused' in outcome)
      throw new AppError('CONFLICT', {
        message: outcome.refused === 'paused' ? MONITOR_MESSAGES.paused : MONITOR_MESSAGES.checkRunning,
      });
    if (outcome.check.status === 'queued') {
      // A lost message is re-published by the scheduler's sweep.
      await publishCheck(this.deps.bus, outcome.check).catch((error: unknown) =>
        this.deps.logger.warn(
          { err: error, checkId: outcome.check.id },
          'monitor check not published; the sweep will',
        ),
      );
    }
    return { success: true, id: outcome.check.id, data: checkView(outcome.check) };
  }

  async checks(
    caller: MonitorCaller,
    id: string,
    query: { limit: number; offset: number; status?: MonitorCheckStatus },
  ): Promise<{ success: true; data: MonitorCheckView[] }> {
    const monitor = await this.find(caller, id);
    const checks = await this.deps.monitors.listChecks(
      monitor.id,
      caller.teamId,
      query.limit,
      query.offset,
      query.status,
    );
    return { success: true, data: checks.map(checkView) };
  }

  /** A check with its pages, paged by `skip`/`limit`; `next` (absolute) while more pages exist. */
  async check(
    caller: MonitorCaller,
    id: string,
    checkId: string,
    query: MonitorCheckDetailQuery,
  ): Promise<{ success: true; next?: string; data: MonitorCheckDetailView }> {
    const monitor = await this.find(caller, id);
    const check = UUID.test(checkId)
      ? await this.deps.monitors.findCheckForTeam(monitor.id, checkId, caller.teamId)
      : undefined;
    if (!check) throw new AppError('NOT_FOUND', { message: MONITOR_MESSAGES.checkNotFound });
    const { pages, total } = await this.deps.monitors.checkPages(
      check.id,
      query.skip,
      query.limit,
      query.status,
    );
    const returnedUpTo = query.skip + pages.length;
    const next =
      pages.length > 0 && returnedUpTo < total
        ? `${this.deps.publicUrl}/v2/monitor/${monitor.id}/checks/${check.id}?skip=${returnedUpTo}&limit=${query.limit}${query.status ? `&status=${query.status}` : ''}`
        : null;
    const webhookDelivery = await this.deps.monitors.webhookDelivery(check.id);
    const data: MonitorCheckDetailView = {
      ...checkView(check),
      ...(webhookDelivery ? { webhookDelivery } : {}),
      pages: pages.map(({ urlKey: _urlKey, ...page }) => page),
      next,
    };
    return { success: true, ...(next ? { next } : {}), data };
  }

  async confirmEmail(
    token: string,
  ): Promise<{ success: true; data: { monitorId: string; email: string; status: string } }> {
    const subscription = await this.deps.subscriptions.redeem(token, 'confirm');
    if (!subscription) throw new AppError('BAD_REQUEST', { message: MONITOR_MESSAGES.invalidToken });
    return {
      success: true,
      data: { monitorId: subscription.monitorId, email: subscription.email, status: subscription.status },
    };
  }

  async unsubscribeEmail(
    token: string,
  ): Promise<{ success: true; data: { monitorId: string; email: string; status: string } }> {
    const subscription = await this.deps.subscriptions.redeem(token, 'unsubscribe');
    if (!subscription) throw new AppError('BAD_REQUEST', { message: MONITOR_MESSAGES.invalidToken });
    return {
      success: true,
      data: { monitorId: subscription.monitorId, email: subscription.email, status: subscription.status },
    };
  }

  // --- helpers --------------------------------------------------------------------------------

  private async find(caller: MonitorCaller, id: string): Promise<MonitorRecord> {
    this.assertAllowed(caller);
    const monitor = UUID.test(id) ? await this.deps.monitors.findForTeam(id, caller.teamId) : undefined;
    if (!monitor) throw new AppError('NOT_FOUND', { message: MONITOR_MESSAGES.notFound });
    return monitor;
  }

  /**
   * The view with recipients' opt-in state; with `reconcile`, the recipients listed in the
   * notification settings are synchronised first and new ones get their confirmation email.
   */
  private async viewWithSubscriptions(monitor: MonitorRecord, reconcile: boolean): Promise<MonitorView> {
    if (reconcile) {
      const added = await this.deps.subscriptions.reconcile(
        monitor.id,
        monitor.teamId,
        recipientsOf(monitor.notification),
      );
      for (const subscription of added) {
        if (await this.deps.notifier.sendConfirmation(monitor, subscription))
          await this.deps.subscriptions.markConfirmationSent(subscription.id);
      }
    }
    return monitorView(monitor, await this.deps.subscriptions.list(monitor.id));
  }

  private schedule(input: { cron?: string; text?: string; timezone: string }): ResolvedSchedule {
    try {
      return resolveSchedule(input);
    } catch (error) {
      if (error instanceof ScheduleError) {
        throw new AppError('BAD_REQUEST', {
          message: error.message,
          details: [
            {
              code: 'custom',
              path: ['schedule', input.text !== undefined ? 'text' : 'cron'],
              message: error.message,
            },
          ],
        });
      }
      throw error;
    }
  }

  private estimates(
    monitorId: string,
    targets: MonitorTargetView[],
    schedule: ResolvedSchedule,
  ): { perCheck: number; perMonth: number } {
    let perCheck: number;
    try {
      perCheck = creditNeeds(monitorId, targets).estimated;
    } catch (error) {
      if (!(error instanceof ZodError)) throw error;
      // Options that are valid alone but not with the monitor's change tracking (e.g. lockdown).
      const failure = describeValidationError(error);
      const index = targets.findIndex((target) => {
        try {
          creditNeeds(monitorId, [target]);
          return false;
        } catch {
          return true;
        }
      });
      throw new AppError('BAD_REQUEST', {
        message: failure.message,
        details: failure.details.map((detail) => ({ ...detail, path: ['targets', index, ...detail.path] })),
      });
    }
    return { perCheck, perMonth: perCheck * runsPerMonth(schedule.cron, schedule.timezone) };
  }

  private checkRobots(caller: MonitorCaller, targets: CreateMonitorRequest['targets']): void {
    const overrides = targets.some(
      (target) =>
        target.type === 'crawl' &&
        (target.crawlOptions?.ignoreRobotsTxt || target.crawlOptions?.robotsUserAgent),
    );
    if (overrides && !caller.canOverrideRobots) throw new AppError('FORBIDDEN');
  }

  /** Zero-data-retention teams cannot use monitors (docs/monitor.md): they keep page history. */
  private assertAllowed(caller: MonitorCaller): void {
    if (caller.zeroDataRetention)
      throw new AppError('BAD_REQUEST', { message: MONITOR_MESSAGES.zeroDataRetention });
  }
}

function recipientsOf(notification: MonitorNotification | null): string[] {
  const email = notification?.email;
  return email ? email.recipients : [];
}

/**
 * Targets as stored: what the caller sent (already validated), each with an `id` — the caller's,
 * else the id of an existing target with the same type and subject (same URLs, start URL or
 * queries), so its history carries over an edit, else a new one.
 */
function assignTargetIds(
  validated: CreateMonitorRequest['targets'],
  raw: unknown,
  existing: MonitorTargetView[],
): MonitorTargetView[] {
  const rawTargets = Array.isArray(raw) ? raw : [];
  const available = new Map<string, string[]>();
  for (const target of existing)
    available.set(subjectOf(target), [...(available.get(subjectOf(target)) ?? []), target.id]);
  const targets = validated.map((target, index) => {
    const original = (
      rawTargets[index] && typeof rawTargets[index] === 'object' ? rawTargets[index] : target
    ) as Record<string, unknown>;
    const id =
      target.id ?? available.get(subjectOf(target as unknown as MonitorTargetView))?.shift() ?? randomUUID();
    return { ...original, id, type: target.type } as MonitorTargetView;
  });
  if (new Set(targets.map((target) => target.id)).size !== targets.length) {
    throw new AppError('BAD_REQUEST', {
      message: MONITOR_MESSAGES.duplicateTargetId,
      details: [{ code: 'custom', path: ['targets'], message: MONITOR_MESSAGES.duplicateTargetId }],
    });
  }
  return targets;
}

function subjectOf(target: MonitorTargetView): string {
  const list = (value: unknown) =>
    Array.isArray(value) ? [...value].map(String).sort().join('\n') : String(value ?? '');
  if (target.type === 'scrape') return `scrape:${list(target['urls'])}`;
  if (target.type === 'crawl') return `crawl:${String(target['url'])}`;
  return `search:${list(target['queries'])}`;
}
