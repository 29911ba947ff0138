/**
 * Answers of the agent routes (docs/agent.md) as zod contracts for the OpenAPI document. The trace
 * event types in agent-trace.types.ts are what the runner writes; the routes' @Route declarations
 * check at compile time that what they return fits these schemas.
 */
import { z } from 'zod';

import { webhookDeliverySummarySchema } from '../crawl/webhook.schema';
import { AGENT_MODELS } from './agent-request.schema';

const effort = z.enum(['low', 'medium', 'high']);

export const agentTraceErrorSchema = z.object({
  code: z.enum(['cancelled', 'credit_limit_reached', 'parent_finished', 'refused', 'internal']),
  source: z.enum(['agent', 'tool', 'billing', 'system']),
  retryable: z.boolean(),
  message: z.string(),
});

const agentTraceEventBase = {
  schemaVersion: z.literal(1),
  eventId: z.string(),
  runId: z.string(),
  occurredAt: z.string(),
  producerSequence: z.int(),
  agent: z.object({
    id: z.string(),
    role: z.enum(['orchestrator', 'subagent', 'browser', 'system']),
    name: z.string(),
    parentId: z.string().optional(),
  }),
};

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ ...agentTraceEventBase, type: z.literal(type), ...shape });

export const agentTraceEventSchema = z.discriminatedUnion('type', [
  event('run.started', {}),
  event('run.cancel_requested', { reason: z.literal('user') }),
  event('run.finished', {
    outcome: z.enum(['succeeded', 'failed', 'cancelled', 'refused', 'credit_limit_reached']),
    error: agentTraceErrorSchema.nullable(),
  }),
  event('agent.started', {}),
  event('agent.finished', {
    outcome: z.enum(['succeeded', 'failed', 'cancelled', 'refused']),
    durationMs: z.number(),
    error: agentTraceErrorSchema.nullable(),
  }),
  event('progress.reported', { phase: z.enum(['planning', 'working', 'finalizing']), message: z.string() }),
  event('reasoning.summary', { text: z.string() }),
  event('tool_call.started', { toolCallId: z.string(), toolName: z.string(), parameters: z.unknown() }),
  event('tool_call.finished', { toolCallId: z.string(), toolName: z.string(), result: z.unknown() }),
  event('artifact.updated', {
    artifact: z.object({
      kind: z.enum(['json', 'markdown', 'html', 'screenshot', 'text']),
      artifactId: z.string(),
      path: z.string().optional(),
      snapshotId: z.string(),
      change: z.enum(['init', 'partial', 'append', 'modify', 'update']),
      changedFields: z.array(z.string()).optional(),
      itemCount: z.int().optional(),
      sourceToolCallId: z.string().optional(),
    }),
  }),
  event('error.occurred', { error: agentTraceErrorSchema }),
]);

export const agentStartResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  threadId: z.string().optional(),
  threadTurn: z.int().optional(),
});

export const agentStatusResponseSchema = z.object({
  success: z.literal(true),
  status: z.enum(['processing', 'completed', 'failed']),
  error: z.string().optional(),
  data: z.unknown().optional(),
  model: z.enum(AGENT_MODELS),
  effort: effort.optional(),
  expiresAt: z.string(),
  creditsUsed: z.number(),
  threadId: z.string().optional(),
  threadTurn: z.int().optional(),
  mode: z.enum(['extract', 'chat']).optional(),
  message: z.string().optional(),
  warning: z.string().optional(),
  webhookDelivery: webhookDeliverySummarySchema.optional(),
});

export const agentThreadResponseSchema = z.object({
  success: z.literal(true),
  thread: z.object({
    id: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    status: z.enum(['idle', 'running']),
    runs: z.array(
      z.object({
        id: z.string(),
        turn: z.int(),
        mode: z.enum(['extract', 'chat']),
        prompt: z.string(),
        urls: z.array(z.string()).optional(),
        schema: z.unknown().optional(),
        effort: effort.optional(),
        status: z.enum(['processing', 'succeeded', 'failed', 'cancelled', 'refused', 'credit_limit_reached']),
        createdAt: z.string(),
        finishedAt: z.string().nullable(),
        creditsUsed: z.number().nullable(),
        message: z.string().nullable(),
        data: z.unknown().optional(),
      }),
    ),
  }),
});

export const agentTraceResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  events: z.array(agentTraceEventSchema),
  creditsUsed: z.number(),
  activeBrowserSessions: z
    .array(
      z.object({
        id: z.string(),
        liveViewUrl: z.string(),
        viewport: z.object({ width: z.number(), height: z.number() }),
      }),
    )
    .optional(),
});

export const agentSnapshotResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  snapshotId: z.string(),
  snapshot: z.string(),
});

export const agentListResponseSchema = z.object({
  success: z.literal(true),
  agents: z.array(
    z.object({
      id: z.string(),
      createdAt: z.string(),
      targetHint: z.string(),
      origin: z.string(),
      integration: z.string().optional(),
      settings: z.object({ hidden: z.boolean(), starred: z.boolean(), label: z.string().optional() }),
      status: z.enum(['processing', 'completed', 'failed']),
      options: z
        .object({
          urls: z.array(z.string()).optional(),
          prompt: z.string(),
          schema: z.unknown().optional(),
          model: z.enum(AGENT_MODELS),
          effort: effort.optional(),
        })
        .optional(),
    }),
  ),
  next: z.string().optional(),
});
