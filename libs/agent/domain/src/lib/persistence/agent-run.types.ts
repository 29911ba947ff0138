import type {
  AgentRequest,
  AgentRunOutcome,
  AgentTraceError,
  ExtractRequest,
  WebhookSettings,
} from '@quarry/contracts';
import type { Database } from '@quarry/platform/database';

import type { RunKind, WebhookEventRow } from '../extract-job';
import type { PlannerMemory } from '../planner';
import type { RunState } from '../run-state';
import type { PendingEvent } from '../trace';

export interface AgentRunRecord {
  id: string;
  teamId: string;
  kind: RunKind;
  model: string;
  state: RunState;
  outcome: AgentRunOutcome | null;
  errorCode: string | null;
  errorMessage: string | null;
  prompt: string;
  /** The agent request (for an extract job: the fields both share; the whole request is in `extract`). */
  request: AgentRequest;
  /** The extract request of an extract job. */
  extract?: ExtractRequest;
  maxCredits: number | null;
  creditsSpent: number;
  step: number;
  memory: PlannerMemory;
  data: unknown;
  warning: string | null;
  sources: unknown;
  origin: string;
  integration: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  expiresAt: Date;
  leaseOwner: string | null;
  leaseUntil: Date | null;
  /** Attempts at the current step that did not end cleanly, the current one included (WORK_MAX_ATTEMPTS). */
  stepAttempts: number;
  threadId: string | null;
  threadTurn: number | null;
  mode: 'extract' | 'chat';
}

export type TaskState = 'pending' | 'running' | 'succeeded' | 'failed' | 'stopped';

export interface TaskInput {
  url: string;
  name: string;
  scrapeJobId: string;
  /** Extract jobs: the caller's scrape options and page timeout (agents use the defaults). */
  scrapeOptions?: Record<string, unknown>;
  timeoutMs?: number;
  origin?: string;
}

export interface TaskInput {
  url: string;
  name: string;
  scrapeJobId: string;
  /** Extract jobs: the caller's scrape options and page timeout (agents use the defaults). */
  scrapeOptions?: Record<string, unknown>;
  timeoutMs?: number;
  origin?: string;
}

export interface TaskResult {
  url: string;
  finalUrl?: string;
  title?: string;
  statusCode?: number;
  ok: boolean;
  error?: string;
  links: string[];
}

export interface AgentTaskRecord {
  id: string;
  runId: string;
  round: number;
  state: TaskState;
  input: TaskInput;
  result: TaskResult | null;
  credits: number;
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
  leaseUntil: Date | null;
}

export interface NewSnapshot {
  id: string;
  artifactId: string;
  kind: string;
  content: string;
}

export type RunRow = NonNullable<Awaited<ReturnType<Database['prisma']['agentRun']['findUnique']>>>;

export type TaskRow = NonNullable<Awaited<ReturnType<Database['prisma']['agentTask']['findUnique']>>>;

export function toRun(row: RunRow): AgentRunRecord {
  return {
    id: row.id,
    teamId: row.teamId,
    kind: row.kind as RunKind,
    model: row.model,
    state: row.state as RunState,
    outcome: row.outcome as AgentRunOutcome | null,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    prompt: row.prompt,
    request: row.request as unknown as AgentRequest,
    extract: row.kind === 'extract' ? (row.request as unknown as ExtractRequest) : undefined,
    maxCredits: row.maxCredits,
    creditsSpent: row.creditsSpent,
    step: row.step,
    memory: row.memory as unknown as PlannerMemory,
    data: row.data,
    warning: row.warning,
    sources: row.sources,
    origin: row.origin,
    integration: row.integration,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    finishedAt: row.finishedAt,
    expiresAt: row.expiresAt,
    leaseOwner: row.leaseOwner,
    leaseUntil: row.leaseUntil,
    stepAttempts: row.stepAttempts,
    threadId: row.threadId,
    threadTurn: row.threadTurn,
    mode: row.mode === 'chat' ? 'chat' : 'extract',
  };
}

export function toTask(row: TaskRow): AgentTaskRecord {
  return {
    id: row.id,
    runId: row.runId,
    round: row.round,
    state: row.state as TaskState,
    input: row.input as unknown as TaskInput,
    result: row.result as unknown as TaskResult | null,
    credits: row.credits,
    attempts: row.attempts,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    leaseUntil: row.leaseUntil,
  };
}

/** A change to a run made together with its trace events, in one transaction. */
export interface RunUpdate {
  /** Apply only while the run is in one of these states (a racing cancel or finish wins otherwise). */
  whenState?: readonly RunState[];
  /** Apply only while the run is at this step (a step recorded by someone else is not recorded twice). */
  whenStep?: number;
  state?: RunState;
  step?: number;
  memory?: PlannerMemory;
  creditsSpent?: number;
  events?: PendingEvent[];
  snapshots?: NewSnapshot[];
  tasks?: { id: string; round: number; input: TaskInput }[];
  warning?: string;
  /** Webhook outbox rows written with the change (the job's stream was opened at creation). */
  webhooks?: WebhookEventRow[];
}

/** A new agent run or extract job, with its first trace events. */
export type NewRun = {
  id: string;
  teamId: string;
  apiKeyId?: string;
  memory: PlannerMemory;
  expiresAt: Date;
  events: PendingEvent[];
  /** Agent runs: the thread and turn the run is (unique per thread and turn). */
  thread?: { id: string; turn: number };
} & (
  | { kind?: 'agent'; request: AgentRequest; webhook?: WebhookSettings<string> }
  | { kind: 'extract'; request: ExtractRequest; webhook?: WebhookSettings }
);

/** How a run ends (see AgentRunRepository.finish). */
export interface RunEnding {
  whenState: readonly RunState[];
  state: 'completed' | 'failed';
  outcome: AgentRunOutcome;
  error: AgentTraceError | null;
  data?: unknown;
  credits: number;
  apiKeyId?: string;
  events: PendingEvent[];
  snapshots?: NewSnapshot[];
  stoppedTaskEvents: (taskIdValue: string, name: string) => PendingEvent[];
  /** Replaces the run's warning (extract jobs; agent runs answered by an offline fallback). */
  warning?: string;
  /** Extract jobs with showSources. */
  sources?: unknown;
  webhooks?: WebhookEventRow[];
}
