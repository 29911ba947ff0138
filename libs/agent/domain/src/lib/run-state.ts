import type { AgentErrorCode, AgentRunOutcome, AgentTraceError } from '@quarry/contracts';

/**
 * The agent run state machine (docs/agent.md#lifecycle):
 *
 *   queued ─start→ running ─finish(succeeded)→ completed
 *     │               │──finish(failed | refused | credit_limit_reached)→ failed
 *     └──cancel──→ cancelling ─finish(*)→ failed (outcome cancelled)
 *
 * Every transition is a pure function here; the orchestrator applies them with conditional writes,
 * so two processes can race on a run and only one transition wins.
 */
export const RUN_STATES = ['queued', 'running', 'cancelling', 'completed', 'failed'] as const;
export type RunState = (typeof RUN_STATES)[number];

export const TERMINAL_STATES: readonly RunState[] = ['completed', 'failed'];

export function isTerminalState(state: RunState): boolean {
  return TERMINAL_STATES.includes(state);
}

/** The status a poll reports (docs/agent.md#api: processing | completed | failed). */
export function publicStatus(state: RunState): 'processing' | 'completed' | 'failed' {
  if (state === 'completed') return 'completed';
  if (state === 'failed') return 'failed';
  return 'processing';
}

export type CancelDecision =
  { ok: true; next: 'cancelling' } | { ok: false; reason: 'already_finished' | 'already_cancelling' };

/** Cancel: running or queued runs start cancelling; a cancelling run answers 409 "already cancelled", a finished one 409 "already finished". */
export function requestCancel(state: RunState): CancelDecision {
  if (isTerminalState(state)) return { ok: false, reason: 'already_finished' };
  if (state === 'cancelling') return { ok: false, reason: 'already_cancelling' };
  return { ok: true, next: 'cancelling' };
}

export function canStart(state: RunState): boolean {
  return state === 'queued';
}

export interface Termination {
  state: 'completed' | 'failed';
  outcome: AgentRunOutcome;
  error: AgentTraceError | null;
}

/**
 * How a run ends when it wants to end with `outcome`: a run being cancelled always ends cancelled
 * (a result that arrives after the cancel request is discarded), and only `succeeded` completes.
 */
export function terminate(
  state: RunState,
  outcome: AgentRunOutcome,
  detail?: { message?: string; maxCredits?: number },
): Termination | undefined {
  if (isTerminalState(state)) return undefined;
  const effective: AgentRunOutcome = state === 'cancelling' ? 'cancelled' : outcome;
  if (effective === 'succeeded') return { state: 'completed', outcome: 'succeeded', error: null };
  return {
    state: 'failed',
    outcome: effective,
    error: traceError(effective === 'failed' ? 'internal' : effective, detail),
  };
}

const SOURCES: Record<AgentErrorCode, AgentTraceError['source']> = {
  cancelled: 'agent',
  credit_limit_reached: 'billing',
  parent_finished: 'system',
  refused: 'agent',
  internal: 'system',
};

/** The structured error of terminal and error.occurred events (docs/agent.md#trace-and-snapshots); `retryable` as in docs/compatibility.md#errors. */
export function traceError(
  code: AgentErrorCode,
  detail: { message?: string; maxCredits?: number } = {},
): AgentTraceError {
  return {
    code,
    source: SOURCES[code],
    retryable: code === 'internal',
    message: detail.message ?? defaultMessage(code, detail.maxCredits),
  };
}

function defaultMessage(code: AgentErrorCode, maxCredits?: number): string {
  switch (code) {
    case 'cancelled':
      return 'The agent run was cancelled.';
    case 'credit_limit_reached':
      return `The agent run reached its credit limit${maxCredits === undefined ? '' : ` (maxCredits: ${maxCredits})`} and was stopped; nothing was billed. Raise maxCredits or narrow the prompt.`;
    case 'parent_finished':
      return 'This sub-agent stopped because the agent that started it finished first; see the run.finished event for the cause.';
    case 'refused':
      return 'The agent declined the task.';
    case 'internal':
      return 'The agent run failed unexpectedly; retry, and contact support with the job ID if it persists.';
  }
}
