import type {
  MonitorBillingStatus,
  MonitorCheckPageView,
  MonitorCheckStatus,
  MonitorNotification,
  MonitorNotificationStatus,
  MonitorPageDiff,
  MonitorPageJudgment,
  MonitorPageStatus,
  MonitorSummary,
  MonitorTargetResult,
  MonitorTargetView,
  MonitorWebhook,
} from '@quarry/contracts';

/** Who is asking (the API's AuthContext, narrowed to what monitors need). */
export interface MonitorCaller {
  teamId: string;
  apiKeyId?: string;
  zeroDataRetention: boolean;
  /** The key may set `ignoreRobotsTxt`/`robotsUserAgent` in crawl targets. */
  canOverrideRobots: boolean;
}

export type MonitorStatus = 'active' | 'paused';

export interface MonitorRecord {
  id: string;
  teamId: string;
  apiKeyId: string | null;
  name: string;
  status: MonitorStatus;
  cron: string;
  timezone: string;
  scheduleText: string | null;
  targets: MonitorTargetView[];
  webhook: MonitorWebhook | null;
  notification: MonitorNotification | null;
  retentionDays: number;
  goal: string | null;
  judgeEnabled: boolean;
  robotsOverride: boolean;
  origin: string;
  nextRunAt: Date | null;
  lastRunAt: Date | null;
  currentCheckId: string | null;
  lastCheckSummary: MonitorSummary | null;
  estimatedCreditsPerCheck: number;
  estimatedCreditsPerMonth: number;
  createdAt: Date;
  updatedAt: Date;
}

export type NewMonitor = Omit<
  MonitorRecord,
  'lastRunAt' | 'currentCheckId' | 'lastCheckSummary' | 'createdAt' | 'updatedAt'
>;

export type MonitorChanges = Partial<
  Pick<
    MonitorRecord,
    | 'name'
    | 'status'
    | 'cron'
    | 'timezone'
    | 'scheduleText'
    | 'targets'
    | 'webhook'
    | 'notification'
    | 'retentionDays'
    | 'goal'
    | 'judgeEnabled'
    | 'robotsOverride'
    | 'nextRunAt'
    | 'estimatedCreditsPerCheck'
    | 'estimatedCreditsPerMonth'
  >
>;

export type CheckTrigger = 'scheduled' | 'manual';

export interface CheckRecord {
  id: string;
  monitorId: string;
  teamId: string;
  status: MonitorCheckStatus;
  trigger: CheckTrigger;
  scheduledFor: Date | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  estimatedCredits: number | null;
  reservedCredits: number | null;
  actualCredits: number | null;
  billingStatus: MonitorBillingStatus;
  summary: MonitorSummary;
  targetResults: MonitorTargetResult[];
  notificationStatus: MonitorNotificationStatus | null;
  error: string | null;
  /** Runners that took the check so far (this one included once claimed); WORK_MAX_ATTEMPTS. */
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
}

export type NewCheck = Pick<
  CheckRecord,
  | 'id'
  | 'monitorId'
  | 'teamId'
  | 'status'
  | 'trigger'
  | 'scheduledFor'
  | 'estimatedCredits'
  | 'billingStatus'
  | 'summary'
  | 'targetResults'
  | 'error'
> & { finishedAt?: Date | null };

export const TERMINAL_CHECK_STATUSES: readonly MonitorCheckStatus[] = [
  'completed',
  'failed',
  'partial',
  'skipped_overlap',
  'skipped_no_credits',
];

export function isCheckFinished(status: MonitorCheckStatus): boolean {
  return TERMINAL_CHECK_STATUSES.includes(status);
}

export const EMPTY_SUMMARY: MonitorSummary = {
  totalPages: 0,
  same: 0,
  changed: 0,
  new: 0,
  removed: 0,
  error: 0,
};

/** A page result of a check, before it is stored. */
export interface PageResult {
  targetId: string;
  url: string;
  urlKey: string;
  status: MonitorPageStatus;
  previousScrapeId: string | null;
  currentScrapeId: string | null;
  statusCode: number | null;
  error: string | null;
  metadata: Record<string, unknown> | null;
  judgment: MonitorPageJudgment | null;
  diff: MonitorPageDiff | null;
  snapshot: { json?: unknown } | null;
}

export type StoredPage = MonitorCheckPageView & { urlKey: string };

/** The last usable sighting of a URL by earlier checks of the same monitor target. */
export interface PreviousPage {
  urlKey: string;
  url: string;
  status: MonitorPageStatus;
  currentScrapeId: string | null;
  snapshot: { json?: unknown } | null;
}
