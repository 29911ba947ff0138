import type { MonitorCheckView, MonitorEmailRecipientSubscription, MonitorView } from '@quarry/contracts';

import type { CheckRecord, MonitorRecord } from './monitor.types';
import type { SubscriptionRecord } from './persistence/email-subscription.repository';

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/** The API's Monitor object (docs/monitor.md). */
export function monitorView(monitor: MonitorRecord, subscriptions?: SubscriptionRecord[]): MonitorView {
  const view: MonitorView = {
    id: monitor.id,
    name: monitor.name,
    status: monitor.status,
    schedule: {
      cron: monitor.cron,
      timezone: monitor.timezone,
      ...(monitor.scheduleText ? { text: monitor.scheduleText } : {}),
    },
    nextRunAt: iso(monitor.nextRunAt),
    lastRunAt: iso(monitor.lastRunAt),
    currentCheckId: monitor.currentCheckId,
    targets: monitor.targets,
    webhook: monitor.webhook,
    notification: monitor.notification,
    retentionDays: monitor.retentionDays,
    estimatedCreditsPerMonth: monitor.estimatedCreditsPerMonth,
    lastCheckSummary: monitor.lastCheckSummary,
    goal: monitor.goal,
    judgeEnabled: monitor.judgeEnabled,
    createdAt: monitor.createdAt.toISOString(),
    updatedAt: monitor.updatedAt.toISOString(),
  };
  if (subscriptions && (monitor.notification?.email?.recipients.length ?? 0) > 0) {
    view.emailRecipientSubscriptions = subscriptions.map(
      (subscription): MonitorEmailRecipientSubscription => ({
        email: subscription.email,
        status: subscription.status,
        source: subscription.source,
        confirmationEmailSent: subscription.confirmationEmailSent,
      }),
    );
  }
  return view;
}

/** The API's MonitorCheck object (docs/monitor.md). */
export function checkView(check: CheckRecord): MonitorCheckView {
  return {
    id: check.id,
    monitorId: check.monitorId,
    status: check.status,
    trigger: check.trigger,
    scheduledFor: iso(check.scheduledFor),
    startedAt: iso(check.startedAt),
    finishedAt: iso(check.finishedAt),
    estimatedCredits: check.estimatedCredits,
    reservedCredits: check.reservedCredits,
    actualCredits: check.actualCredits,
    billingStatus: check.billingStatus,
    summary: check.summary,
    targetResults: check.targetResults,
    notificationStatus: check.notificationStatus,
    error: check.error,
    createdAt: check.createdAt.toISOString(),
    updatedAt: check.updatedAt.toISOString(),
  };
}
