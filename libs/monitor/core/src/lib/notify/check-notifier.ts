import type { Logger } from 'pino';

import type {
  MonitorCheckCompletedEvent,
  MonitorCheckStatus,
  MonitorNotificationStatus,
  MonitorPageEvent,
  MonitorSummary,
} from '@quarry/contracts';

import type { Mailer } from '../email/smtp-mailer';
import type { MonitorRecord, PageResult } from '../monitor.types';
import type {
  EmailSubscriptionRepository,
  SubscriptionRecord,
} from '../persistence/email-subscription.repository';
import type { WebhookEventRow } from '../persistence/monitor.repository';

export interface FinishedCheck {
  monitor: MonitorRecord;
  checkId: string;
  status: MonitorCheckStatus;
  summary: MonitorSummary;
  pages: PageResult[];
  error: string | null;
}

const MAX_DIFF_CHARS = 4_000;
const MAX_PAGES_LISTED = 50;

/**
 * A check's notifications (docs/monitor.md#notifications): `monitor.page` events for every page that is not
 * `same` and one `monitor.check.completed`, written to the webhook outbox with the check's result
 * (signed and retried by the webhook sender); emails to confirmed recipients when pages changed,
 * sent only when SMTP is configured; Slack is not supported (recorded as such).
 */
export class CheckNotifier {
  constructor(
    private readonly deps: {
      subscriptions: EmailSubscriptionRepository;
      mailer: Mailer;
      publicUrl: string;
      logger: Logger;
    },
  ) {}

  /** The outbox rows of a finished check, filtered by the webhook's `events`. */
  webhookEvents(check: FinishedCheck): WebhookEventRow[] {
    const webhook = check.monitor.webhook;
    if (!webhook) return [];
    const events = new Set(webhook.events);
    const wantsPages = events.has('monitor.page') || events.has('page');
    const wantsCompleted =
      events.has('monitor.check.completed') ||
      events.has('completed') ||
      (check.status === 'failed' && events.has('failed'));
    const rows: WebhookEventRow[] = [];
    if (wantsPages) {
      for (const page of check.pages) {
        if (page.status === 'same') continue;
        const item: MonitorPageEvent = {
          monitorId: check.monitor.id,
          checkId: check.checkId,
          url: page.url,
          status: page.status,
          previousScrapeId: page.previousScrapeId,
          currentScrapeId: page.currentScrapeId,
          error: page.error,
          isMeaningful: page.judgment ? page.judgment.meaningful : page.status !== 'error',
          ...(page.judgment ? { judgment: page.judgment } : {}),
          ...(page.diff ? { diff: page.diff } : {}),
        };
        rows.push({
          type: 'monitor.page',
          payload: {
            success: page.status !== 'error',
            ...(page.error ? { error: page.error } : {}),
            document: item,
          },
        });
      }
    }
    if (wantsCompleted) {
      const item: MonitorCheckCompletedEvent = {
        monitorId: check.monitor.id,
        checkId: check.checkId,
        status: check.status,
        summary: check.summary,
      };
      rows.push({
        type: 'monitor.check.completed',
        payload: {
          success: check.status !== 'failed',
          ...(check.error && check.status === 'failed' ? { error: check.error } : {}),
          document: item,
        },
      });
    }
    return rows;
  }

  /** What the check's notifications will do, recorded with its result (email is then updated once sent). */
  initialStatus(check: FinishedCheck, webhookEvents: number): MonitorNotificationStatus {
    const { monitor, summary } = check;
    const email = monitor.notification?.email;
    const changes = summary.changed + summary.new + summary.removed;
    let emailStatus: MonitorNotificationStatus['email'] = 'pending';
    if (!email || email.recipients.length === 0) emailStatus = 'not_configured';
    else if (!email.enabled) emailStatus = 'disabled';
    else if (changes === 0) emailStatus = 'no_changes';
    else if (!this.deps.mailer.configured) emailStatus = 'smtp_not_configured';
    return {
      webhook: !monitor.webhook ? 'not_configured' : webhookEvents > 0 ? 'queued' : 'no_events',
      email: emailStatus,
      ...(monitor.notification?.slack ? { slack: 'not_supported' as const } : {}),
    };
  }

  /** Sends the change email to every confirmed recipient (one message each, with its own unsubscribe token). */
  async sendCheckEmails(
    check: FinishedCheck,
    status: MonitorNotificationStatus,
  ): Promise<MonitorNotificationStatus> {
    if (status.email !== 'pending') return status;
    const recipients = await this.deps.subscriptions.confirmed(check.monitor.id);
    if (recipients.length === 0) return { ...status, email: 'no_confirmed_recipients', emailRecipients: 0 };
    const errors: string[] = [];
    let sent = 0;
    for (const recipient of recipients) {
      try {
        const unsubscribe = await this.deps.subscriptions.issueToken(recipient.id, 'unsubscribe');
        await this.deps.mailer.send({
          to: [recipient.email],
          subject: this.subject(check),
          text: this.checkBody(check, unsubscribe),
        });
        sent += 1;
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error));
        this.deps.logger.warn(
          { err: error, monitorId: check.monitor.id, checkId: check.checkId },
          'monitor email not sent',
        );
      }
    }
    return {
      ...status,
      email: errors.length === 0 ? 'sent' : 'failed',
      emailRecipients: sent,
      ...(errors.length ? { emailError: errors[0].slice(0, 500) } : {}),
    };
  }

  /** The opt-in email of a new recipient; false when SMTP is not configured or sending failed. */
  async sendConfirmation(
    monitor: Pick<MonitorRecord, 'id' | 'name'>,
    subscription: SubscriptionRecord,
  ): Promise<boolean> {
    if (!this.deps.mailer.configured) return false;
    try {
      const confirm = await this.deps.subscriptions.issueToken(subscription.id, 'confirm');
      const unsubscribe = await this.deps.subscriptions.issueToken(subscription.id, 'unsubscribe');
      const base = this.deps.publicUrl;
      await this.deps.mailer.send({
        to: [subscription.email],
        subject: `Confirm notifications of the monitor "${monitor.name}"`,
        text: [
          `You were added as a recipient of change notifications of the monitor "${monitor.name}".`,
          'No notification is sent to you until you confirm.',
          '',
          `To confirm, POST {"token":"<token>"} to ${base}/v2/monitor/email/confirm with this token:`,
          `Confirmation token: ${confirm}`,
          '',
          `  curl -X POST -H 'content-type: application/json' -d '{"token":"${confirm}"}' ${base}/v2/monitor/email/confirm`,
          '',
          `If you did not expect this, ignore it, or opt out for good by POSTing this token to ${base}/v2/monitor/email/unsubscribe:`,
          `Unsubscribe token: ${unsubscribe}`,
        ].join('\n'),
      });
      return true;
    } catch (error) {
      this.deps.logger.warn({ err: error, monitorId: monitor.id }, 'monitor confirmation email not sent');
      return false;
    }
  }

  private subject(check: FinishedCheck): string {
    const { summary } = check;
    const parts = [
      summary.changed && `${summary.changed} changed`,
      summary.new && `${summary.new} new`,
      summary.removed && `${summary.removed} removed`,
    ].filter(Boolean);
    return `[Monitor] ${check.monitor.name}: ${parts.join(', ') || 'no changes'}`;
  }

  private checkBody(check: FinishedCheck, unsubscribeToken: string): string {
    const { monitor, summary } = check;
    const base = this.deps.publicUrl;
    const includeDiffs = monitor.notification?.email?.includeDiffs ?? false;
    const lines = [
      `The monitor "${monitor.name}" finished a check (${check.status}).`,
      `Pages: ${summary.totalPages} total, ${summary.changed} changed, ${summary.new} new, ${summary.removed} removed, ${summary.error} errors, ${summary.same} unchanged.`,
      '',
    ];
    const notable = check.pages.filter((page) => page.status !== 'same');
    for (const page of notable.slice(0, MAX_PAGES_LISTED)) {
      lines.push(`${page.status.toUpperCase()}: ${page.url}`);
      if (page.error) lines.push(`  ${page.error}`);
      if (page.judgment)
        lines.push(
          `  ${page.judgment.meaningful ? 'Meaningful' : 'Not meaningful'}: ${page.judgment.reason}`,
        );
      if (includeDiffs && page.diff?.text) lines.push('', truncate(page.diff.text), '');
      else if (includeDiffs && page.diff?.json)
        lines.push('', truncate(JSON.stringify(page.diff.json, null, 2)), '');
    }
    if (notable.length > MAX_PAGES_LISTED) lines.push(`… and ${notable.length - MAX_PAGES_LISTED} more.`);
    lines.push(
      '',
      `Details: GET ${base}/v2/monitor/${monitor.id}/checks/${check.checkId}`,
      '',
      `To stop these emails, POST {"token":"<token>"} to ${base}/v2/monitor/email/unsubscribe with this token:`,
      `Unsubscribe token: ${unsubscribeToken}`,
    );
    return lines.join('\n');
  }
}

function truncate(text: string): string {
  return text.length > MAX_DIFF_CHARS
    ? `${text.slice(0, MAX_DIFF_CHARS)}\n[diff cut at ${MAX_DIFF_CHARS} characters]`
    : text;
}
