import { z } from 'zod';

import { webhookDeliverySummarySchema } from '../crawl/webhook.schema';
import {
  MONITOR_CHECK_STATUSES,
  MONITOR_PAGE_STATUSES,
  monitorNotificationSchema,
  monitorWebhookSchema,
} from './monitor-request.schema';

/** Counts of a check's pages by status (docs/monitor.md). */
export const monitorSummarySchema = z.object({
  totalPages: z.int(),
  same: z.int(),
  changed: z.int(),
  new: z.int(),
  removed: z.int(),
  error: z.int(),
});
export type MonitorSummary = z.infer<typeof monitorSummarySchema>;

export const monitorEmailRecipientSubscriptionSchema = z.object({
  email: z.string(),
  status: z.enum(['pending', 'confirmed', 'unsubscribed']),
  source: z.enum(['team', 'opt_in', 'legacy']),
  confirmationEmailSent: z.boolean().optional(),
});
export type MonitorEmailRecipientSubscription = z.infer<typeof monitorEmailRecipientSubscriptionSchema>;

/** A stored target as the API echoes it: what the caller sent, with its `id`. */
export const monitorTargetViewSchema = z.looseObject({
  id: z.string(),
  type: z.enum(['scrape', 'crawl', 'search']),
});
export type MonitorTargetView = Record<string, unknown> & { id: string; type: 'scrape' | 'crawl' | 'search' };

export const monitorViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(['active', 'paused']),
  schedule: z.object({ cron: z.string(), timezone: z.string(), text: z.string().optional() }),
  nextRunAt: z.string().nullable(),
  lastRunAt: z.string().nullable(),
  currentCheckId: z.string().nullable(),
  targets: z.array(monitorTargetViewSchema),
  webhook: monitorWebhookSchema.nullable(),
  notification: monitorNotificationSchema.nullable(),
  emailRecipientSubscriptions: z.array(monitorEmailRecipientSubscriptionSchema).optional(),
  retentionDays: z.int(),
  estimatedCreditsPerMonth: z.number(),
  lastCheckSummary: monitorSummarySchema.nullable(),
  goal: z.string().nullable(),
  judgeEnabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MonitorView = Omit<z.infer<typeof monitorViewSchema>, 'targets'> & {
  targets: MonitorTargetView[];
};

export const MONITOR_BILLING_STATUSES = [
  'not_applicable',
  'reserved',
  'confirmed',
  'released',
  'failed',
] as const;
export type MonitorBillingStatus = (typeof MONITOR_BILLING_STATUSES)[number];

/** Per target: the work a check started (collections are crawls and batch scrapes of the team). */
export const monitorTargetResultSchema = z.discriminatedUnion('type', [
  z.object({
    targetId: z.string(),
    type: z.literal('scrape'),
    batchId: z.string().optional(),
    expectedJobs: z.array(z.string()).optional(),
    invalidURLs: z.array(z.string()).optional(),
    error: z.string().optional(),
  }),
  z.object({
    targetId: z.string(),
    type: z.literal('crawl'),
    crawlId: z.string().optional(),
    error: z.string().optional(),
  }),
  z.object({
    targetId: z.string(),
    type: z.literal('search'),
    searchCompleted: z.boolean().optional(),
    resultCount: z.int().optional(),
    matches: z.int().optional(),
    summary: z.string().optional(),
    judgeDegraded: z.boolean().optional(),
    degradedReason: z.string().nullable().optional(),
    searchCredits: z.number().optional(),
    judgeCredits: z.number().optional(),
    resultsJudged: z.int().optional(),
    batchId: z.string().optional(),
    searchJobIds: z.array(z.string()).optional(),
    resultUrls: z.array(z.string()).optional(),
    invalidURLs: z.array(z.string()).optional(),
    error: z.string().optional(),
  }),
]);
export type MonitorTargetResult = z.infer<typeof monitorTargetResultSchema>;

export const monitorNotificationStatusSchema = z.object({
  webhook: z.enum(['not_configured', 'queued', 'no_events']),
  email: z.enum([
    'not_configured',
    'disabled',
    'no_confirmed_recipients',
    'no_changes',
    'smtp_not_configured',
    'pending',
    'sent',
    'failed',
  ]),
  emailRecipients: z.int().optional(),
  emailError: z.string().optional(),
  slack: z.enum(['not_configured', 'not_supported']).optional(),
});
export type MonitorNotificationStatus = z.infer<typeof monitorNotificationStatusSchema>;

export const monitorCheckViewSchema = z.object({
  id: z.string(),
  monitorId: z.string(),
  status: z.enum(MONITOR_CHECK_STATUSES),
  trigger: z.enum(['scheduled', 'manual']),
  scheduledFor: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  estimatedCredits: z.number().nullable(),
  reservedCredits: z.number().nullable(),
  actualCredits: z.number().nullable(),
  billingStatus: z.enum(MONITOR_BILLING_STATUSES),
  summary: monitorSummarySchema,
  targetResults: z.array(monitorTargetResultSchema),
  notificationStatus: monitorNotificationStatusSchema.nullable(),
  /** With webhook events for this check: how their deliveries fared. */
  webhookDelivery: webhookDeliverySummarySchema.optional(),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MonitorCheckView = z.infer<typeof monitorCheckViewSchema>;

export const monitorPageJudgmentSchema = z.object({
  meaningful: z.boolean(),
  confidence: z.enum(['high', 'medium', 'low']),
  reason: z.string(),
  meaningfulChanges: z.array(
    z.object({
      type: z.enum(['added', 'removed', 'changed']),
      before: z.string().nullable(),
      after: z.string().nullable(),
      reason: z.string(),
    }),
  ),
});
export type MonitorPageJudgment = z.infer<typeof monitorPageJudgmentSchema>;

/** `diff` of a page: `text` (git-style) and `json` (the parsed diff, or per-field `{previous, current}` for JSON extraction). */
export const monitorPageDiffSchema = z.object({
  text: z.string().optional(),
  json: z.record(z.string(), z.unknown()).optional(),
});
export type MonitorPageDiff = z.infer<typeof monitorPageDiffSchema>;

export const monitorCheckPageViewSchema = z.object({
  id: z.string(),
  targetId: z.string(),
  url: z.string(),
  status: z.enum(MONITOR_PAGE_STATUSES),
  previousScrapeId: z.string().nullable(),
  currentScrapeId: z.string().nullable(),
  statusCode: z.int().nullable(),
  error: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  judgment: monitorPageJudgmentSchema.nullable(),
  createdAt: z.string(),
  diff: monitorPageDiffSchema.nullable(),
  snapshot: z.object({ json: z.unknown().optional() }).nullable().optional(),
});
export type MonitorCheckPageView = z.infer<typeof monitorCheckPageViewSchema>;

export const monitorCheckDetailViewSchema = monitorCheckViewSchema.extend({
  pages: z.array(monitorCheckPageViewSchema),
  next: z.string().nullable(),
});
export type MonitorCheckDetailView = z.infer<typeof monitorCheckDetailViewSchema>;

/** Item of a `monitor.page` webhook (docs/crawl.md#webhooks). */
export const monitorPageEventSchema = z.object({
  monitorId: z.string(),
  checkId: z.string(),
  url: z.string(),
  status: z.enum(MONITOR_PAGE_STATUSES),
  previousScrapeId: z.string().nullable().optional(),
  currentScrapeId: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  isMeaningful: z.boolean(),
  judgment: monitorPageJudgmentSchema.optional(),
  diff: monitorPageDiffSchema.optional(),
});
export type MonitorPageEvent = z.infer<typeof monitorPageEventSchema>;

/** Item of a `monitor.check.completed` webhook. */
export const monitorCheckCompletedEventSchema = z.object({
  monitorId: z.string(),
  checkId: z.string(),
  status: z.enum(MONITOR_CHECK_STATUSES),
  summary: monitorSummarySchema,
});
export type MonitorCheckCompletedEvent = z.infer<typeof monitorCheckCompletedEventSchema>;

/** Answers of the monitor routes (docs/monitor.md). */
export const monitorResponseSchema = z.object({ success: z.literal(true), data: monitorViewSchema });
export const monitorListResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(monitorViewSchema),
});
export const monitorDeleteResponseSchema = z.object({ success: z.literal(true) });
export const monitorRunResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  data: monitorCheckViewSchema,
});
export const monitorChecksResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(monitorCheckViewSchema),
});
export const monitorCheckDetailResponseSchema = z.object({
  success: z.literal(true),
  next: z.string().optional(),
  data: monitorCheckDetailViewSchema,
});
export const monitorEmailResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ monitorId: z.string(), email: z.string(), status: z.string() }),
});
