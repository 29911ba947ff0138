import type { MonitorCheckStatus, MonitorPageStatus } from '@quarry/contracts';

import type { CheckRecord, MonitorRecord, MonitorStatus, StoredPage } from '../monitor.types';

/** Raw rows as the drivers return them (PostgreSQL: bigint/count as strings; PGlite: numbers). */
export type Raw = Record<string, unknown>;

export const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
export const numOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);
export const date = (value: unknown): Date | null =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value));
export const json = <T>(value: unknown): T =>
  typeof value === 'string' ? (JSON.parse(value) as T) : (value as T);
export const str = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);
/** A value for a jsonb parameter (null stays SQL NULL). */
export const jsonb = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);

export function toMonitor(row: Raw): MonitorRecord {
  return {
    id: String(row['id']),
    teamId: String(row['team_id']),
    apiKeyId: str(row['api_key_id']),
    name: String(row['name']),
    status: row['status'] as MonitorStatus,
    cron: String(row['cron']),
    timezone: String(row['timezone']),
    scheduleText: str(row['schedule_text']),
    targets: json(row['targets']),
    webhook: row['webhook'] ? json(row['webhook']) : null,
    notification: row['notification'] ? json(row['notification']) : null,
    retentionDays: num(row['retention_days']),
    goal: str(row['goal']),
    judgeEnabled: Boolean(row['judge_enabled']),
    robotsOverride: Boolean(row['robots_override']),
    origin: String(row['origin']),
    nextRunAt: date(row['next_run_at']),
    lastRunAt: date(row['last_run_at']),
    currentCheckId: str(row['current_check_id']),
    lastCheckSummary: row['last_check_summary'] ? json(row['last_check_summary']) : null,
    estimatedCreditsPerCheck: num(row['estimated_credits_per_check']),
    estimatedCreditsPerMonth: num(row['estimated_credits_per_month']),
    createdAt: date(row['created_at']) as Date,
    updatedAt: date(row['updated_at']) as Date,
  };
}

export function toCheck(row: Raw): CheckRecord {
  return {
    id: String(row['id']),
    monitorId: String(row['monitor_id']),
    teamId: String(row['team_id']),
    status: row['status'] as MonitorCheckStatus,
    trigger: row['trigger'] as CheckRecord['trigger'],
    scheduledFor: date(row['scheduled_for']),
    startedAt: date(row['started_at']),
    finishedAt: date(row['finished_at']),
    estimatedCredits: numOrNull(row['estimated_credits']),
    reservedCredits: numOrNull(row['reserved_credits']),
    actualCredits: numOrNull(row['actual_credits']),
    billingStatus: row['billing_status'] as CheckRecord['billingStatus'],
    summary: json(row['summary']),
    targetResults: json(row['target_results']) ?? [],
    notificationStatus: row['notification_status'] ? json(row['notification_status']) : null,
    error: str(row['error']),
    attempts: numOrNull(row['attempts']) ?? 0,
    createdAt: date(row['created_at']) as Date,
    updatedAt: date(row['updated_at']) as Date,
  };
}

export function toStoredPage(row: Raw): StoredPage {
  return {
    id: String(row['id']),
    targetId: String(row['target_id']),
    url: String(row['url']),
    urlKey: String(row['url_key']),
    status: row['status'] as MonitorPageStatus,
    previousScrapeId: str(row['previous_scrape_id']),
    currentScrapeId: str(row['current_scrape_id']),
    statusCode: numOrNull(row['status_code']),
    error: str(row['error']),
    metadata: row['metadata'] ? json(row['metadata']) : null,
    judgment: row['judgment'] ? json(row['judgment']) : null,
    diff: row['diff'] ? json(row['diff']) : null,
    snapshot: row['snapshot'] ? json(row['snapshot']) : null,
    createdAt: (date(row['created_at']) as Date).toISOString(),
  };
}
