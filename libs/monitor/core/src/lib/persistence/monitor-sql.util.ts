import { randomUUID } from 'node:crypto';

import type { SqlExecutor } from '@quarry/platform/database';

import type { MonitorChanges, PageResult } from '../monitor.types';
import { jsonb } from './sql-rows';

/** Column lists of the monitor queries. */
export const MONITOR_COLUMNS = `m.id, m.team_id, m.api_key_id, m.name, m.status, m.cron, m.timezone, m.schedule_text, m.targets, m.webhook, m.notification,
  m.retention_days, m.goal, m.judge_enabled, m.robots_override, m.origin, m.next_run_at, m.last_run_at, m.current_check_id, m.last_check_summary,
  m.estimated_credits_per_check, m.estimated_credits_per_month, m.created_at, m.updated_at`;

export const CHANGE_COLUMNS: Record<keyof MonitorChanges, string> = {
  name: 'name',
  status: 'status',
  cron: 'cron',
  timezone: 'timezone',
  scheduleText: 'schedule_text',
  targets: 'targets',
  webhook: 'webhook',
  notification: 'notification',
  retentionDays: 'retention_days',
  goal: 'goal',
  judgeEnabled: 'judge_enabled',
  robotsOverride: 'robots_override',
  nextRunAt: 'next_run_at',
  estimatedCreditsPerCheck: 'estimated_credits_per_check',
  estimatedCreditsPerMonth: 'estimated_credits_per_month',
};

export const JSON_CHANGES = new Set<keyof MonitorChanges>(['targets', 'webhook', 'notification']);

/** Inserts a finished check's pages, 200 rows per statement, in the caller's transaction. */
export async function insertCheckPages(
  tx: SqlExecutor,
  checkId: string,
  monitorId: string,
  pages: PageResult[],
): Promise<void> {
  const columns = 16;
  for (let start = 0; start < pages.length; start += 200) {
    const chunk = pages.slice(start, start + 200);
    const params: unknown[] = [];
    const values = chunk.map((page, index) => {
      params.push(
        randomUUID(),
        checkId,
        monitorId,
        page.targetId,
        start + index + 1,
        page.url,
        page.urlKey,
        page.status,
        page.previousScrapeId,
        page.currentScrapeId,
        page.statusCode,
        page.error,
        jsonb(page.metadata),
        jsonb(page.judgment),
        jsonb(page.diff),
        jsonb(page.snapshot),
      );
      const base = index * columns;
      return `(${Array.from({ length: columns }, (_, column) => `$${base + column + 1}`).join(', ')})`;
    });
    await tx.query(
      `INSERT INTO monitor_check_pages (id, check_id, monitor_id, target_id, seq, url, url_key, status, previous_scrape_id, current_scrape_id,
         status_code, error, metadata, judgment, diff, snapshot) VALUES ${values.join(', ')}`,
      params,
    );
  }
}
