import type { JobStatus, WebhookSettings } from '@quarry/contracts';
import { date, json, num, type Raw } from '@quarry/platform/database';

import type { CollectionKind, CollectionOptions, CollectionRow, PageRow, PageStatus } from './frontier.types';

/** The row helpers of the database lib, re-exported for the frontier's queries. */
export { date, json, num, type Raw };

export const COLLECTION_COLUMNS = `c.job_id, c.team_id, c.kind, c.url, c.options, c.page_limit, c.max_concurrency, c.delay_ms,
  c.frontier_size, c.completed_count, c.webhook, c.kicked_off_at, c.created_at, j.status AS job_status, j.zero_data_retention, j.api_key_id`;

export function toCollection(row: Raw): CollectionRow {
  return {
    id: String(row['job_id']),
    teamId: String(row['team_id']),
    apiKeyId: (row['api_key_id'] as string | null) ?? null,
    kind: row['kind'] as CollectionKind,
    url: (row['url'] as string | null) ?? null,
    options: json<CollectionOptions>(row['options']),
    pageLimit: num(row['page_limit']),
    maxConcurrency: num(row['max_concurrency']),
    delayMs: num(row['delay_ms']),
    frontierSize: num(row['frontier_size']),
    completedCount: num(row['completed_count']),
    webhook: row['webhook'] ? json<WebhookSettings>(row['webhook']) : null,
    kickedOffAt: date(row['kicked_off_at']),
    createdAt: date(row['created_at']) as Date,
    jobStatus: row['job_status'] as JobStatus,
    zeroDataRetention: Boolean(row['zero_data_retention']),
  };
}

export const PAGE_COLUMNS = `p.id, p.crawl_id, p.team_id, p.url, p.url_key, p.host, p.depth, p.trap_run, p.status, p.attempts, p.starts, j.status AS job_status, c.frontier_size`;

export function toPage(row: Raw): PageRow {
  return {
    id: String(row['id']),
    crawlId: String(row['crawl_id']),
    teamId: String(row['team_id']),
    url: String(row['url']),
    urlKey: String(row['url_key']),
    origin: String(row['host']),
    depth: num(row['depth']),
    trapRun: num(row['trap_run']),
    status: row['status'] as PageStatus,
    attempts: num(row['attempts']),
    starts: num(row['starts']),
    jobStatus: row['job_status'] as JobStatus,
    frontierSize: num(row['frontier_size']),
  };
}
