import { z } from 'zod';

import { JOB_KINDS, JOB_STATUSES } from '../messaging/job-messages.schema';

/**
 * The team's own records for the console and any client (docs/console.md): who the key belongs to,
 * every job of the team across kinds (monitor checks included), one job with its documents, and
 * usage per day and endpoint. All routes are scoped to the caller's team.
 */

/** Kinds listed by `GET /v2/team/jobs`: every job kind, and the checks of monitors. */
export const TEAM_JOB_KINDS = [...JOB_KINDS, 'monitor_check'] as const;
export type TeamJobKind = (typeof TEAM_JOB_KINDS)[number];

const csvOf = <const T extends readonly string[]>(values: T, name: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const items = (value ?? '')
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
      const unknown = items.filter((item) => !values.includes(item));
      if (unknown.length) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be one or more of ${values.join(', ')} (comma-separated)`,
        });
        return z.NEVER;
      }
      return items as T[number][];
    });

/** `?kind=crawl,batch_scrape&status=failed&limit=25&cursor=…` */
export const teamJobsQuerySchema = z.object({
  kind: csvOf(TEAM_JOB_KINDS, 'kind'),
  status: csvOf(JOB_STATUSES, 'status'),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  /** Opaque position returned as `cursor` in `next`: items older than it. */
  cursor: z
    .string()
    .regex(/^\d{1,15}\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
      message: 'cursor must be the value given in `next`',
    })
    .optional(),
});
export type TeamJobsQuery = z.output<typeof teamJobsQuerySchema>;

const jobErrorSchema = z.object({ code: z.string(), message: z.string() });

export const teamJobSchema = z.object({
  id: z.string(),
  kind: z.enum(TEAM_JOB_KINDS),
  status: z.enum(JOB_STATUSES),
  /** The kind's own status where it says more (monitor checks: partial, skipped_overlap…). */
  detail: z.string().nullable(),
  /** What the job was about: its URL, query or prompt (monitor checks: the monitor's name); null under zero data retention. */
  target: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** finishedAt − (startedAt or createdAt) of finished jobs. */
  durationMs: z.number().int().nullable(),
  creditsUsed: z.number().int(),
  error: jobErrorSchema.nullable(),
  /** The API key that started it (id), when known. */
  apiKeyId: z.string().nullable(),
  /** Monitor checks: their monitor. */
  monitorId: z.string().nullable(),
});
export type TeamJob = z.output<typeof teamJobSchema>;

export const teamJobsResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(teamJobSchema),
  /** Absolute URL of the next (older) page, while there is one. */
  next: z.string().optional(),
});
export type TeamJobsResponse = z.output<typeof teamJobsResponseSchema>;

export const teamJobDocumentSummarySchema = z.object({
  id: z.string(),
  url: z.string(),
  title: z.string().nullable(),
  statusCode: z.number().int(),
  createdAt: z.string(),
});
export type TeamJobDocumentSummary = z.output<typeof teamJobDocumentSummarySchema>;

export const teamJobDocumentsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  skip: z.coerce.number().int().min(0).default(0),
});

export const teamJobDetailResponseSchema = z.object({
  success: z.literal(true),
  data: teamJobSchema.extend({
    /** The validated request options (null under zero data retention). */
    input: z.unknown(),
    /** The job's small stored result, when it has one. */
    result: z.unknown(),
    expiresAt: z.string().nullable(),
    /** Stored documents of the job (a scrape answered from the cache: the cached document), oldest first. */
    documents: z.array(teamJobDocumentSummarySchema),
    documentCount: z.number().int(),
  }),
});
export type TeamJobDetailResponse = z.output<typeof teamJobDetailResponseSchema>;

export const teamJobDocumentResponseSchema = z.object({
  success: z.literal(true),
  /** The document exactly as the scrape, crawl or parse answered it. */
  data: z.record(z.string(), z.unknown()),
});

/** `GET /v2/team`: the calling key's team, its balance and limits. */
export const teamInfoResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    id: z.string(),
    name: z.string(),
    credits: z.number().int(),
    /** Requests per minute per endpoint class; 0 = unlimited. */
    rateLimitPerMinute: z.number().int(),
    /** Concurrent browser scrapes. */
    maxConcurrency: z.number().int(),
    zeroDataRetention: z.boolean(),
    apiKey: z
      .object({
        id: z.string(),
        prefix: z.string(),
        name: z.string().nullable(),
        scopes: z.array(z.string()),
      })
      .nullable(),
  }),
});
export type TeamInfoResponse = z.output<typeof teamInfoResponseSchema>;

export const dailyUsageQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(366).default(30),
});

export const dailyUsageResponseSchema = z.object({
  success: z.literal(true),
  /** One entry per UTC day, oldest first, zeros included; endpoints are job kinds (`other` when unknown). */
  days: z.array(
    z.object({
      date: z.string(),
      credits: z.number().int(),
      tokens: z.number().int(),
      creditsByEndpoint: z.record(z.string(), z.number().int()),
      tokensByEndpoint: z.record(z.string(), z.number().int()),
    }),
  ),
  totals: z.object({
    credits: z.number().int(),
    tokens: z.number().int(),
    creditsByEndpoint: z.record(z.string(), z.number().int()),
    tokensByEndpoint: z.record(z.string(), z.number().int()),
  }),
});
export type DailyUsageResponse = z.output<typeof dailyUsageResponseSchema>;
