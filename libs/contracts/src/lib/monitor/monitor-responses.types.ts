import type {
  MonitorCheckStatus,
  MonitorNotification,
  MonitorPageStatus,
  MonitorWebhook,
} from './monitor-request.schema';

/** Counts of a check's pages by status (compat §15). */
export interface MonitorSummary {
  totalPages: number;
  same: number;
  changed: number;
  new: number;
  removed: number;
  error: number;
}

export interface MonitorEmailRecipientSubscription {
  email: string;
  status: 'pending' | 'confirmed' | 'unsubscribed';
  source: 'team' | 'opt_in' | 'legacy';
  confirmationEmailSent?: boolean;
}

/** A stored target as the API echoes it: what the caller sent, with its `id`. */
export type MonitorTargetView = Record<string, unknown> & { id: string; type: 'scrape' | 'crawl' | 'search' };

export interface MonitorView {
  id: string;
  name: string;
  status: 'active' | 'paused';
  schedule: { cron: string; timezone: string; text?: string };
  nextRunAt: string | null;
  lastRunAt: string | null;
  currentCheckId: string | null;
  targets: MonitorTargetView[];
  webhook: MonitorWebhook | null;
  notification: MonitorNotification | null;
  emailRecipientSubscriptions?: MonitorEmailRecipientSubscription[];
  retentionDays: number;
  estimatedCreditsPerMonth: number;
  lastCheckSummary: MonitorSummary | null;
  goal: string | null;
  judgeEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export type MonitorBillingStatus = 'not_applicable' | 'reserved' | 'confirmed' | 'released' | 'failed';

/** Per target: the work a check started (collections are crawls and batch scrapes of the team). */
export type MonitorTargetResult =
  | {
      targetId: string;
      type: 'scrape';
      batchId?: string;
      expectedJobs?: string[];
      invalidURLs?: string[];
      error?: string;
    }
  | { targetId: string; type: 'crawl'; crawlId?: string; error?: string }
  | {
      targetId: string;
      type: 'search';
      searchCompleted?: boolean;
      resultCount?: number;
      matches?: number;
      summary?: string;
      judgeDegraded?: boolean;
      degradedReason?: string | null;
      searchCredits?: number;
      judgeCredits?: number;
      resultsJudged?: number;
      batchId?: string;
      searchJobIds?: string[];
      resultUrls?: string[];
      invalidURLs?: string[];
      error?: string;
    };

export interface MonitorNotificationStatus {
  webhook: 'not_configured' | 'queued' | 'no_events';
  email:
    | 'not_configured'
    | 'disabled'
    | 'no_confirmed_recipients'
    | 'no_changes'
    | 'smtp_not_configured'
    | 'pending'
    | 'sent'
    | 'failed';
  emailRecipients?: number;
  emailError?: string;
  slack?: 'not_configured' | 'not_supported';
}

export interface MonitorCheckView {
  id: string;
  monitorId: string;
  status: MonitorCheckStatus;
  trigger: 'scheduled' | 'manual';
  scheduledFor: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  estimatedCredits: number | null;
  reservedCredits: number | null;
  actualCredits: number | null;
  billingStatus: MonitorBillingStatus;
  summary: MonitorSummary;
  targetResults: MonitorTargetResult[];
  notificationStatus: MonitorNotificationStatus | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MonitorPageJudgment {
  meaningful: boolean;
  confidence: 'high' | 'medium' | 'low';
  reason: string;
  meaningfulChanges: {
    type: 'added' | 'removed' | 'changed';
    before: string | null;
    after: string | null;
    reason: string;
  }[];
}

/** `diff` of a page: `text` (git-style) and `json` (the parsed diff, or per-field `{previous, current}` for JSON extraction). */
export interface MonitorPageDiff {
  text?: string;
  json?: Record<string, unknown>;
}

export interface MonitorCheckPageView {
  id: string;
  targetId: string;
  url: string;
  status: MonitorPageStatus;
  previousScrapeId: string | null;
  currentScrapeId: string | null;
  statusCode: number | null;
  error: string | null;
  metadata: Record<string, unknown> | null;
  judgment: MonitorPageJudgment | null;
  createdAt: string;
  diff: MonitorPageDiff | null;
  snapshot?: { json?: unknown } | null;
}

export interface MonitorCheckDetailView extends MonitorCheckView {
  pages: MonitorCheckPageView[];
  next: string | null;
}

/** Item of a `monitor.page` webhook (compat §17). */
export interface MonitorPageEvent {
  monitorId: string;
  checkId: string;
  url: string;
  status: MonitorPageStatus;
  previousScrapeId?: string | null;
  currentScrapeId?: string | null;
  error?: string | null;
  isMeaningful: boolean;
  judgment?: MonitorPageJudgment;
  diff?: MonitorPageDiff;
}

/** Item of a `monitor.check.completed` webhook. */
export interface MonitorCheckCompletedEvent {
  monitorId: string;
  checkId: string;
  status: MonitorCheckStatus;
  summary: MonitorSummary;
}
