import { z } from 'zod';

import { httpUrlSchema } from '../common/url.schema';
import { crawlerOptionsShape } from '../crawl/crawl-request.schema';
import { webhookObjectSchemaFor } from '../crawl/webhook.schema';
import { scrapeOptionsSchema } from '../scrape/scrape-options.schema';

/** Limits of monitors (docs/monitor.md; the per-target URL cap and the crawl default are ours). */
export const MONITOR_LIMITS = {
  name: { min: 1, max: 256 },
  maxTargets: 50,
  /** URLs of one scrape target. */
  maxUrlsPerTarget: 100,
  search: { maxQueries: 12, maxResults: 50, defaultMaxResults: 10 },
  retentionDays: { min: 1, max: 365, default: 30 },
  maxRecipients: 25,
  /** Shortest interval between two scheduled checks. */
  minIntervalMinutes: 15,
  /** `crawlOptions.limit` of a crawl target when none is given. */
  defaultCrawlLimit: 100,
  list: { defaultLimit: 25, maxLimit: 100 },
  checkPages: { defaultLimit: 100, maxLimit: 1_000 },
  goalMaxLength: 10_000,
} as const;

export const MONITOR_SEARCH_WINDOWS = ['5m', '15m', '1h', '6h', '24h', '7d'] as const;
export type MonitorSearchWindow = (typeof MONITOR_SEARCH_WINDOWS)[number];

/** Webhook event names of monitors (docs/crawl.md#webhooks); `page`/`completed`/`failed` are accepted as their short forms. */
export const MONITOR_WEBHOOK_EVENTS = [
  'monitor.page',
  'monitor.check.completed',
  'page',
  'completed',
  'failed',
] as const;
export type MonitorWebhookEvent = (typeof MONITOR_WEBHOOK_EVENTS)[number];

export const MONITOR_PAGE_STATUSES = ['same', 'new', 'changed', 'removed', 'error'] as const;
export type MonitorPageStatus = (typeof MONITOR_PAGE_STATUSES)[number];

export const MONITOR_CHECK_STATUSES = [
  'queued',
  'running',
  'completed',
  'failed',
  'partial',
  'skipped_overlap',
  'skipped_no_credits',
] as const;
export type MonitorCheckStatus = (typeof MONITOR_CHECK_STATUSES)[number];

/** `schedule`: exactly one of `cron` (5 fields) or `text` ("every hour", "daily at 9am"), and an IANA time zone. */
export const monitorScheduleSchema = z
  .strictObject({
    cron: z.string().trim().min(1).max(256).optional(),
    text: z.string().trim().min(1).max(256).optional(),
    timezone: z.string().trim().min(1).max(64).default('UTC'),
  })
  .superRefine((schedule, ctx) => {
    if ((schedule.cron === undefined) === (schedule.text === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'schedule needs exactly one of cron or text', path: [] });
    }
  });
export type MonitorScheduleInput = z.output<typeof monitorScheduleSchema>;

const domainSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(/^(\*\.)?[a-z0-9.-]+(:\d+)?$/i, { error: 'Domains must be host names, e.g. example.com' });

const targetId = z.string().min(1).max(64).optional();

export const monitorScrapeTargetSchema = z.strictObject({
  id: targetId,
  type: z.literal('scrape'),
  urls: z.array(httpUrlSchema).min(1).max(MONITOR_LIMITS.maxUrlsPerTarget),
  scrapeOptions: scrapeOptionsSchema.optional(),
});

/** `crawlOptions` of a crawl target: the crawler options of `POST /v2/crawl`, every one optional. */
export const monitorCrawlOptionsSchema = z.strictObject(crawlerOptionsShape).partial();

export const monitorCrawlTargetSchema = z.strictObject({
  id: targetId,
  type: z.literal('crawl'),
  url: httpUrlSchema,
  crawlOptions: monitorCrawlOptionsSchema.optional(),
  scrapeOptions: scrapeOptionsSchema.optional(),
});

export const monitorSearchTargetSchema = z.strictObject({
  id: targetId,
  type: z.literal('search'),
  queries: z.array(z.string().trim().min(1).max(2_000)).min(1).max(MONITOR_LIMITS.search.maxQueries),
  searchWindow: z.enum(MONITOR_SEARCH_WINDOWS).default('24h'),
  includeDomains: z.array(domainSchema).max(100).optional(),
  excludeDomains: z.array(domainSchema).max(100).optional(),
  maxResults: z
    .int()
    .min(1)
    .max(MONITOR_LIMITS.search.maxResults)
    .default(MONITOR_LIMITS.search.defaultMaxResults),
});

export const monitorTargetSchema = z.discriminatedUnion('type', [
  monitorScrapeTargetSchema,
  monitorCrawlTargetSchema,
  monitorSearchTargetSchema,
]);
export type MonitorTargetInput = z.input<typeof monitorTargetSchema>;
export type MonitorTarget = z.output<typeof monitorTargetSchema>;

/** `webhook` of a monitor (docs/monitor.md): an object only. */
export const monitorWebhookSchema = webhookObjectSchemaFor(MONITOR_WEBHOOK_EVENTS);
export type MonitorWebhook = z.output<typeof monitorWebhookSchema>;

export const monitorNotificationSchema = z.strictObject({
  email: z
    .strictObject({
      enabled: z.boolean().default(true),
      recipients: z.array(z.email().max(320)).max(MONITOR_LIMITS.maxRecipients).default([]),
      includeDiffs: z.boolean().default(false),
    })
    .optional(),
  slack: z
    .strictObject({
      enabled: z.boolean().default(true),
      channelId: z.string().min(1).max(256),
      channelName: z.string().max(256).optional(),
    })
    .optional(),
});
export type MonitorNotification = z.output<typeof monitorNotificationSchema>;

const nameSchema = z.string().trim().min(MONITOR_LIMITS.name.min).max(MONITOR_LIMITS.name.max);
const retentionDaysSchema = z
  .int()
  .min(MONITOR_LIMITS.retentionDays.min)
  .max(MONITOR_LIMITS.retentionDays.max);
const goalSchema = z.string().trim().min(1).max(MONITOR_LIMITS.goalMaxLength);
const targetsSchema = z.array(monitorTargetSchema).min(1).max(MONITOR_LIMITS.maxTargets);

/** A search target is judged against the goal: it needs one unless the judge is turned off (docs/monitor.md). */
function checkGoal(
  request: { targets?: MonitorTarget[]; goal?: string | null; judgeEnabled?: boolean },
  ctx: z.RefinementCtx,
): void {
  if (
    request.targets?.some((target) => target.type === 'search') &&
    !request.goal &&
    request.judgeEnabled !== false
  ) {
    ctx.addIssue({
      code: 'custom',
      message: 'goal is required for search targets unless judgeEnabled is false',
      path: ['goal'],
    });
  }
}

/** Body of `POST /v2/monitor` (docs/monitor.md). Unknown keys are rejected. */
export const createMonitorSchema = z
  .strictObject({
    name: nameSchema,
    schedule: monitorScheduleSchema,
    webhook: monitorWebhookSchema.optional(),
    notification: monitorNotificationSchema.optional(),
    targets: targetsSchema,
    retentionDays: retentionDaysSchema.default(MONITOR_LIMITS.retentionDays.default),
    goal: goalSchema.optional(),
    judgeEnabled: z.boolean().optional(),
    origin: z.string().max(256).default('api'),
    integration: z.string().max(256).optional(),
  })
  .superRefine(checkGoal);
export type CreateMonitorRequest = z.output<typeof createMonitorSchema>;

/**
 * Body of `PATCH /v2/monitor/:monitorId`: any field of create, `null` clears webhook/notification/goal,
 * plus `status`. The goal rule is checked on the merged monitor by the service.
 */
export const updateMonitorSchema = z.strictObject({
  name: nameSchema.optional(),
  status: z.enum(['active', 'paused']).optional(),
  schedule: monitorScheduleSchema.optional(),
  webhook: monitorWebhookSchema.nullable().optional(),
  notification: monitorNotificationSchema.nullable().optional(),
  targets: targetsSchema.optional(),
  retentionDays: retentionDaysSchema.optional(),
  goal: goalSchema.nullable().optional(),
  judgeEnabled: z.boolean().optional(),
  origin: z.string().max(256).default('api'),
  integration: z.string().max(256).optional(),
});
export type UpdateMonitorRequest = z.output<typeof updateMonitorSchema>;

/** Body of `POST /v2/monitor/:monitorId/run` (the SDK sends just `{origin}`). */
export const runMonitorSchema = z.strictObject({
  origin: z.string().max(256).default('api'),
  integration: z.string().max(256).optional(),
});

const queryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** `GET /v2/monitor?limit&offset` and `GET /v2/monitor/:id/checks?limit&offset&status`. */
export const monitorListQuerySchema = z.object({
  limit: queryInt(1, MONITOR_LIMITS.list.maxLimit).default(MONITOR_LIMITS.list.defaultLimit),
  offset: queryInt(0, 1_000_000).default(0),
});
export const monitorChecksQuerySchema = monitorListQuerySchema.extend({
  status: z.enum(MONITOR_CHECK_STATUSES).optional(),
});

/** `GET /v2/monitor/:id/checks/:checkId?limit&skip&status`. */
export const monitorCheckDetailQuerySchema = z.object({
  limit: queryInt(1, MONITOR_LIMITS.checkPages.maxLimit).default(MONITOR_LIMITS.checkPages.defaultLimit),
  skip: queryInt(0, 10_000_000).default(0),
  status: z.enum(MONITOR_PAGE_STATUSES).optional(),
});
export type MonitorCheckDetailQuery = z.output<typeof monitorCheckDetailQuerySchema>;

/** Body of `POST /v2/monitor/email/confirm` and `/email/unsubscribe` (no API key: the token is the credential). */
export const monitorEmailTokenSchema = z.strictObject({
  token: z.string().trim().min(16).max(256),
  origin: z.string().max(256).optional(),
  integration: z.string().max(256).optional(),
});
export type MonitorEmailTokenRequest = z.output<typeof monitorEmailTokenSchema>;

/** Message of `monitor.checks`: run (or continue) one check. Idempotent: the check's stored state decides what remains. */
export const monitorCheckMessageSchema = z.object({
  checkId: z.uuid(),
  monitorId: z.uuid(),
  teamId: z.uuid(),
});
export type MonitorCheckMessage = z.output<typeof monitorCheckMessageSchema>;
