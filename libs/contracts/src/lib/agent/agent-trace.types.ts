/** Response shapes of the agent routes and its trace events (docs/agent.md). Plain types: responses are not validated. */
import type { WebhookDeliverySummary } from '../crawl/webhook.schema';
import type { AgentModel } from './agent-request.schema';

export type AgentRunOutcome = 'succeeded' | 'failed' | 'cancelled' | 'refused' | 'credit_limit_reached';
export type AgentErrorCode =
  'cancelled' | 'credit_limit_reached' | 'parent_finished' | 'refused' | 'internal';
export type AgentErrorSource = 'agent' | 'tool' | 'billing' | 'system';
export type AgentRole = 'orchestrator' | 'subagent' | 'browser' | 'system';

export interface AgentTraceError {
  code: AgentErrorCode;
  source: AgentErrorSource;
  retryable: boolean;
  message: string;
}

export interface AgentIdentity {
  id: string;
  role: AgentRole;
  name: string;
  parentId?: string;
}

export interface AgentArtifactChange {
  kind: 'json' | 'markdown' | 'html' | 'screenshot' | 'text';
  artifactId: string;
  path?: string;
  snapshotId: string;
  change: 'init' | 'partial' | 'append' | 'modify' | 'update';
  changedFields?: string[];
  itemCount?: number;
  sourceToolCallId?: string;
}

/** Fields every trace event carries (schemaVersion 1). */
export interface AgentTraceEventBase {
  schemaVersion: 1;
  eventId: string;
  runId: string;
  occurredAt: string;
  producerSequence: number;
  agent: AgentIdentity;
}

/** The type-specific part of a trace event. */
export type AgentTraceEventBody =
  | { type: 'run.started' }
  | { type: 'run.cancel_requested'; reason: 'user' }
  | { type: 'run.finished'; outcome: AgentRunOutcome; error: AgentTraceError | null }
  | { type: 'agent.started' }
  | {
      type: 'agent.finished';
      outcome: 'succeeded' | 'failed' | 'cancelled' | 'refused';
      durationMs: number;
      error: AgentTraceError | null;
    }
  | { type: 'progress.reported'; phase: 'planning' | 'working' | 'finalizing'; message: string }
  | { type: 'reasoning.summary'; text: string }
  | { type: 'tool_call.started'; toolCallId: string; toolName: string; parameters: unknown }
  | { type: 'tool_call.finished'; toolCallId: string; toolName: string; result: unknown }
  | { type: 'artifact.updated'; artifact: AgentArtifactChange }
  | { type: 'error.occurred'; error: AgentTraceError };

export type AgentTraceEventType = AgentTraceEventBody['type'];
export type AgentTraceEvent = AgentTraceEventBase & AgentTraceEventBody;

export interface AgentStartResponse {
  success: true;
  id: string;
  /** The conversation the run is a turn of; passed back as `threadId` to continue it. */
  threadId?: string;
  /** 1-based position of the run in its thread. */
  threadTurn?: number;
}

export interface AgentStatusResponse {
  success: true;
  status: 'processing' | 'completed' | 'failed';
  error?: string;
  data?: unknown;
  model: AgentModel;
  effort?: 'low' | 'medium' | 'high';
  expiresAt: string;
  creditsUsed: number;
  threadId?: string;
  threadTurn?: number;
  mode?: 'extract' | 'chat';
  /** The text reply of a completed chat-mode run (such runs answer here rather than in `data`). */
  message?: string;
  /** Set when the result came from an offline fallback (no language model configured or reachable). */
  warning?: string;
  /** With a webhook: how its deliveries fared. */
  webhookDelivery?: WebhookDeliverySummary;
}

/** Status of one run as a thread lists it: `processing`, or the run's outcome. */
export type AgentThreadRunStatus =
  'processing' | 'succeeded' | 'failed' | 'cancelled' | 'refused' | 'credit_limit_reached';

export interface AgentThreadRun {
  id: string;
  turn: number;
  mode: 'extract' | 'chat';
  prompt: string;
  urls?: string[];
  schema?: unknown;
  effort?: 'low' | 'medium' | 'high';
  status: AgentThreadRunStatus;
  createdAt: string;
  finishedAt: string | null;
  creditsUsed: number | null;
  message: string | null;
  /** With `includeData`, a succeeded run's data. */
  data?: unknown;
}

/** `GET /v2/agent/threads/:threadId` (docs/agent.md): the thread and its runs, oldest turn first. */
export interface AgentThreadResponse {
  success: true;
  thread: {
    id: string;
    createdAt: string;
    updatedAt: string;
    status: 'idle' | 'running';
    runs: AgentThreadRun[];
  };
}

export interface AgentTraceResponse {
  success: true;
  id: string;
  events: AgentTraceEvent[];
  creditsUsed: number;
  activeBrowserSessions?: { id: string; liveViewUrl: string; viewport: { width: number; height: number } }[];
}

export interface AgentSnapshotResponse {
  success: true;
  id: string;
  snapshotId: string;
  snapshot: string;
}

export interface AgentListItem {
  id: string;
  createdAt: string;
  targetHint: string;
  origin: string;
  integration?: string;
  settings: { hidden: boolean; starred: boolean; label?: string };
  status: 'processing' | 'completed' | 'failed';
  options?: {
    urls?: string[];
    prompt: string;
    schema?: unknown;
    model: AgentModel;
    effort?: 'low' | 'medium' | 'high';
  };
}

export interface AgentListResponse {
  success: true;
  agents: AgentListItem[];
  next?: string;
}
