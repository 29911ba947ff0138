import { z } from 'zod';

import { INTERACT_LIMITS } from './interact-request.schema';

/**
 * A call on an interact session, published to `interact.calls` with the session id as key, so the
 * calls of one session reach the worker holding its live page while the consumer group is stable.
 * `callId` is the call's job row (kind `interact`): its outcome, result and charge.
 */
export const interactCallMessageSchema = z.object({
  type: z.enum(['execute', 'stop']),
  callId: z.uuid(),
  sessionId: z.uuid(),
  teamId: z.uuid(),
  apiKeyId: z.string().optional(),
  /** What to run (`execute` only). */
  code: z.string().max(INTERACT_LIMITS.codeMaxLength).optional(),
  prompt: z.string().optional(),
  /** Epoch ms by which the call must answer; user code still running then is killed. */
  deadline: z.number().int(),
  enqueuedAt: z.number().int(),
});
export type InteractCallMessage = z.output<typeof interactCallMessageSchema>;

/** What an `execute` call stores on its job row and answers (fields: docs/interact.md). */
export interface InteractCallResult {
  output?: string;
  stdout?: string;
  result?: string;
  stderr?: string;
  exitCode?: number;
  killed?: boolean;
  truncated?: boolean;
}

/** What a `stop` call stores on its job row. */
export interface InteractStopResult {
  status: 'stopped';
  sessionDurationMs: number;
  creditsBilled: number;
}
