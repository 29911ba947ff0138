import type {
  AgentModel,
  AgentRunOutcome,
  AgentStatusResponse,
  AgentWebhookEvent,
  WebhookSettings,
} from '@quarry/contracts';

import type { WebhookEventRow } from './extract-job';
import { publicStatus, type RunState } from './run-state';
import { chatMessage } from './thread';

/** What the status of an agent run is made of (`GET /v2/agent/:id`, the `agent.completed` webhook). */
export interface AgentStatusInput {
  state: RunState;
  model: string;
  expiresAt: Date;
  creditsSpent: number;
  effort?: 'low' | 'medium' | 'high';
  errorMessage: string | null;
  data: unknown;
  threadId?: string | null;
  threadTurn?: number | null;
  mode?: 'extract' | 'chat';
  /** Whether the run asked for a schema (a chat run with one still answers `data`). */
  hasSchema?: boolean;
  /** How the result was produced when no model was used (the extraction's fallback warning). */
  warning?: string | null;
}

/** The status body (docs/agent.md#api): failed runs report no data and 0 credits (docs/agent.md#lifecycle). */
export function agentStatusBody(run: AgentStatusInput): AgentStatusResponse {
  const status = publicStatus(run.state);
  const body: AgentStatusResponse = {
    success: true,
    status,
    model: run.model as AgentModel,
    expiresAt: run.expiresAt.toISOString(),
    creditsUsed: status === 'failed' ? 0 : run.creditsSpent,
  };
  if (run.effort) body.effort = run.effort;
  if (run.threadId) body.threadId = run.threadId;
  if (run.threadTurn) body.threadTurn = run.threadTurn;
  if (run.mode) body.mode = run.mode;
  if (status === 'failed') body.error = run.errorMessage ?? 'The agent run failed.';
  if (status === 'completed') {
    // Chat runs answer in `message` (derived from the result); their data only when a schema asked
    // for structured output.
    if (run.mode === 'chat') {
      body.message = chatMessage(run.data);
      if (run.hasSchema) body.data = run.data;
    } else body.data = run.data;
    if (run.warning) body.warning = run.warning;
  }
  return body;
}

export type AgentWebhookDetail =
  | { event: 'started' }
  | {
      event: 'action';
      action: { url: string; ok: boolean; statusCode?: number; title?: string; error?: string };
    }
  | { event: 'completed'; status: AgentStatusResponse }
  | { event: 'failed'; error: string }
  | { event: 'cancelled'; error: string };

/**
 * `agent.started|action|completed|failed|cancelled` (docs/crawl.md#webhooks: an agent webhook's `events`),
 * filtered by the caller's subscription. `action` is one page a sub-agent read; `completed` carries
 * the run's final status body as `data[0]`; a cancelled run sends `agent.cancelled`, not `agent.failed`.
 */
export function agentWebhookEvents(
  webhook: WebhookSettings<AgentWebhookEvent> | undefined,
  detail: AgentWebhookDetail,
): WebhookEventRow[] {
  if (!webhook || !webhook.events.includes(detail.event)) return [];
  const type = `agent.${detail.event}`;
  switch (detail.event) {
    case 'started':
      return [{ type, payload: { success: true } }];
    case 'action':
      return [{ type, payload: { success: detail.action.ok, document: detail.action } }];
    case 'completed':
      return [{ type, payload: { success: true, document: detail.status } }];
    case 'failed':
    case 'cancelled':
      return [{ type, payload: { success: false, error: detail.error } }];
  }
}

/** The webhook event that ends a run of this outcome. */
export function agentEndEvent(outcome: AgentRunOutcome, status: AgentStatusResponse): AgentWebhookDetail {
  if (outcome === 'succeeded') return { event: 'completed', status };
  const error = status.error ?? 'The agent run failed.';
  return outcome === 'cancelled' ? { event: 'cancelled', error } : { event: 'failed', error };
}
