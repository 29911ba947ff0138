import { z } from 'zod';

/**
 * The admin API (`/admin/v1`, docs/console.md): teams, keys, credit grants and limits of the whole
 * deployment, and system health. Authenticated by the deployment's ADMIN_API_KEY, never by a team key.
 */

const limit = z.number().int().min(0).max(1_000_000_000).nullable();

export const adminTeamSchema = z.object({
  id: z.string(),
  name: z.string(),
  credits: z.number().int(),
  /** Team overrides; null uses the server default (shown in `defaults`). */
  rateLimitPerMinute: z.number().int().nullable(),
  concurrencyLimit: z.number().int().nullable(),
  zeroDataRetention: z.boolean(),
  createdAt: z.string(),
  activeKeys: z.number().int(),
  lastUsedAt: z.string().nullable(),
});
export type AdminTeam = z.output<typeof adminTeamSchema>;

export const adminTeamsResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(adminTeamSchema),
  defaults: z.object({ rateLimitPerMinute: z.number().int(), concurrencyLimit: z.number().int() }),
});
export type AdminTeamsResponse = z.output<typeof adminTeamsResponseSchema>;

export const adminCreateTeamSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .regex(/^[\w.@-]+$/, { message: 'name may contain letters, digits, _ . @ and -' }),
  credits: z.number().int().min(0).max(1_000_000_000).optional(),
  rateLimitPerMinute: limit.optional(),
  concurrencyLimit: z.number().int().min(1).max(10_000).nullable().optional(),
});
export type AdminCreateTeamRequest = z.output<typeof adminCreateTeamSchema>;

export const adminUpdateTeamSchema = z
  .strictObject({
    rateLimitPerMinute: limit.optional(),
    concurrencyLimit: z.number().int().min(1).max(10_000).nullable().optional(),
    zeroDataRetention: z.boolean().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'nothing to update' });
export type AdminUpdateTeamRequest = z.output<typeof adminUpdateTeamSchema>;

export const adminTeamResponseSchema = z.object({ success: z.literal(true), data: adminTeamSchema });

export const adminGrantCreditsSchema = z.strictObject({
  amount: z
    .number()
    .int()
    .min(-1_000_000_000)
    .max(1_000_000_000)
    .refine((amount) => amount !== 0, { message: 'amount must not be 0' }),
  description: z.string().trim().min(1).max(200).optional(),
});
export type AdminGrantCreditsRequest = z.output<typeof adminGrantCreditsSchema>;

export const adminKeySchema = z.object({
  id: z.string(),
  prefix: z.string(),
  name: z.string().nullable(),
  scopes: z.array(z.string()),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type AdminKey = z.output<typeof adminKeySchema>;

export const adminKeyResponseSchema = z.object({ success: z.literal(true), data: adminKeySchema });

export const adminKeysResponseSchema = z.object({ success: z.literal(true), data: z.array(adminKeySchema) });

export const adminCreateKeySchema = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  /** Permissions (route scopes such as scrape, crawl, account); absent or empty: all. */
  scopes: z
    .array(z.string().regex(/^[a-z*][a-z_-]*$/))
    .max(32)
    .optional(),
});
export type AdminCreateKeyRequest = z.output<typeof adminCreateKeySchema>;

export const adminCreatedKeyResponseSchema = z.object({
  success: z.literal(true),
  /** The full key: shown once, only its hash is stored. */
  key: z.string(),
  data: adminKeySchema,
});

export const adminHealthCheckSchema = z.object({
  ok: z.boolean(),
  error: z.string().optional(),
  ms: z.number(),
});

export const adminSystemResponseSchema = z.object({
  success: z.literal(true),
  /** Readiness of every service: this process's own checks, then each ADMIN_HEALTH_URLS target. */
  services: z.array(
    z.object({
      name: z.string(),
      ready: z.boolean(),
      checks: z.record(z.string(), adminHealthCheckSchema),
      error: z.string().optional(),
    }),
  ),
  /** Unfinished jobs of the deployment by kind and status (kinds with none left out). */
  backlog: z.array(z.object({ kind: z.string(), status: z.string(), count: z.number().int() })),
  /** Dashboards in Grafana, when GRAFANA_URL is set. */
  dashboards: z.array(z.object({ title: z.string(), url: z.string() })),
  defaults: z.object({ rateLimitPerMinute: z.number().int(), concurrencyLimit: z.number().int() }),
});
export type AdminSystemResponse = z.output<typeof adminSystemResponseSchema>;

/** The Grafana dashboards the chart ships, by uid (deploy/grafana/dashboard-panels.ts links them from this list). */
export const GRAFANA_DASHBOARDS = [
  { title: 'Overview', uid: 'quarry-overview' },
  { title: 'Gateway', uid: 'quarry-gateway' },
  { title: 'Workers', uid: 'quarry-workers' },
  { title: 'Crawl', uid: 'quarry-crawl' },
  { title: 'Agent', uid: 'quarry-agent' },
] as const;
