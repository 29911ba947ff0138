import type { AgentRunOutcome } from '@quarry/contracts';

import { publicStatus, type RunState } from './run-state';

/** One earlier turn of a thread, as a later turn sees it. */
export interface ThreadTurn {
  prompt: string;
  reply: string;
}

/**
 * The text reply of a chat-mode run from its result: the answer of an answer-shaped result (the
 * default output without a schema), else the structured result written out as JSON.
 */
export function chatMessage(data: unknown): string {
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const answer = (data as { answer?: unknown }).answer;
    if (typeof answer === 'string' && Object.keys(data).every((key) => key === 'answer' || key === 'sources'))
      return answer;
  }
  if (typeof data === 'string') return data;
  return JSON.stringify(data ?? null, null, 2);
}

/** A thread lists each run as `processing` or by its outcome (docs/agent.md). */
export function threadRunStatus(
  state: RunState,
  outcome: AgentRunOutcome | null,
): 'processing' | AgentRunOutcome {
  return publicStatus(state) === 'processing' || !outcome ? 'processing' : outcome;
}

const TURN_REPLY_CHARS = 2_000;
const CONVERSATION_TURNS = 10;

/**
 * The earlier turns a follow-up run works with (the last 10, replies cut to 2,000 characters), and
 * their instruction for a language model: later prompts may refer to them ("and their prices?").
 */
export function conversationContext(turns: readonly ThreadTurn[] | undefined): string | undefined {
  if (!turns?.length) return undefined;
  const recent = turns.slice(-CONVERSATION_TURNS);
  const lines = recent.map(
    (turn, index) =>
      `Turn ${index + 1}\nUser: ${turn.prompt}\nAssistant: ${turn.reply.slice(0, TURN_REPLY_CHARS)}`,
  );
  return `This task continues a conversation; the user's new request may refer to these earlier turns:\n\n${lines.join('\n\n')}`;
}
