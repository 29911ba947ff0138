import { z } from 'zod';

import { LIMITS } from '../common/limits';
import { httpUrlSchema } from '../common/url.schema';
import { webhookSchemaFor } from '../crawl/webhook.schema';

/** Agent model names (docs/agent.md). New runs use `spark-2`; only `spark-2` runs serve traces and snapshots (docs/agent.md#trace-and-snapshots). */
export const AGENT_MODELS = ['spark-1-pro', 'spark-1-mini', 'spark-2'] as const;
export type AgentModel = (typeof AGENT_MODELS)[number];
export const TRACED_AGENT_MODEL: AgentModel = 'spark-2';

export const AGENT_LIMITS = {
  /** URLs a caller may name. */
  maxUrls: 100,
  /** Minimum balance before a run starts (docs/agent.md#api: credits ≥ 20). */
  minimumCredits: 20,
  /** Runs per page of `GET /v2/agent`. */
  listPageSize: 50,
  /** Run and trace retention after creation. */
  retentionHours: 24,
} as const;

/** Events an agent run's webhook may subscribe to (docs/crawl.md#webhooks); all of them by default. */
export const AGENT_WEBHOOK_EVENTS = ['started', 'action', 'completed', 'failed', 'cancelled'] as const;
export type AgentWebhookEvent = (typeof AGENT_WEBHOOK_EVENTS)[number];

export const agentWebhookSchema = webhookSchemaFor(AGENT_WEBHOOK_EVENTS);

/** Body of `POST /v2/agent` (docs/agent.md#api). Strict: unknown keys are rejected. */
export const agentRequestSchema = z.strictObject({
  prompt: z.string().trim().min(1).max(LIMITS.promptMaxLength),
  urls: z.array(httpUrlSchema).max(AGENT_LIMITS.maxUrls).optional(),
  schema: z.record(z.string(), z.unknown()).optional(),
  /** Credit cap: reaching it fails the run with nothing billed (docs/agent.md#lifecycle). */
  maxCredits: z.int().min(1).max(10_000_000).optional(),
  strictConstrainToURLs: z.boolean().optional(),
  webhook: agentWebhookSchema.optional(),
  model: z.enum(AGENT_MODELS).default('spark-2'),
  effort: z.enum(['low', 'medium', 'high']).optional(),
  threadId: z.string().max(256).optional(),
  mode: z.enum(['extract', 'chat']).optional(),
  exchange: z.record(z.string(), z.unknown()).optional(),
  overrideWhitelist: z.string().max(10_000).optional(),
  threatProtection: z.record(z.string(), z.unknown()).optional(),
  auditMetadata: z.record(z.string(), z.unknown()).optional(),
  origin: z.string().max(256).default('api'),
  integration: z.string().max(256).optional(),
});

export type AgentRequestInput = z.input<typeof agentRequestSchema>;
export type AgentRequest = z.output<typeof agentRequestSchema>;

/** `GET /v2/agent?before=<unix ms>`. */
export const agentListQuerySchema = z.object({
  /** Unix ms; at most the latest instant a date can hold (8.64e15), so it is always a valid time. */
  before: z.coerce.number().int().min(0).max(8_640_000_000_000_000).optional(),
});
