import type {
  MonitorCheckStatus,
  MonitorNotificationStatus,
  MonitorSummary,
  MonitorTargetResult,
  MonitorWebhook,
} from '@quarry/contracts';
import type { WebhookPayload } from '@quarry/webhooks';

import type { CheckRecord, MonitorRecord, NewCheck, PageResult } from '../monitor.types';

/** What the scheduler sees of a due monitor, inside the claiming transaction. */
export interface DueMonitor {
  monitor: MonitorRecord;
  /** The team's credit balance. */
  teamCredits: number;
  /** The monitor's previous check is still queued or running. */
  checkInProgress: boolean;
}

export interface DueDecision {
  check: NewCheck;
  nextRunAt: Date | null;
}

export interface WebhookEventRow {
  type: string;
  payload: WebhookPayload;
}

export interface CheckCompletion {
  checkId: string;
  owner: string;
  status: MonitorCheckStatus;
  summary: MonitorSummary;
  pages: PageResult[];
  targetResults: MonitorTargetResult[];
  actualCredits: number;
  billingStatus: CheckRecord['billingStatus'];
  notificationStatus: MonitorNotificationStatus;
  error: string | null;
  webhook: MonitorWebhook | null;
  events: WebhookEventRow[];
}
