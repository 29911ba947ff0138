import { z } from 'zod';

/**
 * Work items of the agent orchestrators, published to `agent.work`: `advance` asks an orchestrator
 * to take the run's next step; `task` runs one sub-agent task. Both are idempotent (the run's
 * recorded state decides what remains to do), so redelivery and re-publication are harmless.
 */
export const agentWorkMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('advance'), runId: z.uuid(), teamId: z.uuid() }),
  z.object({ type: z.literal('task'), runId: z.uuid(), teamId: z.uuid(), taskId: z.uuid() }),
]);
export type AgentWorkMessage = z.output<typeof agentWorkMessageSchema>;
