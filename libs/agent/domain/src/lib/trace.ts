import type { AgentIdentity, AgentTraceEvent, AgentTraceEventBody } from '@quarry/contracts';

import { orchestratorAgentId, uuidFromKey } from './keys';

/** An event to record: `key` is unique within the run, so writing the same step twice records it once. */
export interface PendingEvent {
  key: string;
  agent: AgentIdentity;
  body: AgentTraceEventBody;
  occurredAt?: Date;
}

export function orchestrator(runId: string): AgentIdentity {
  return { id: orchestratorAgentId(runId), role: 'orchestrator', name: 'orchestrator' };
}

export function subagent(runId: string, taskIdValue: string, name: string): AgentIdentity {
  return { id: taskIdValue, role: 'subagent', name, parentId: orchestratorAgentId(runId) };
}

/** The stored and served form of an event (shape: docs/agent.md#trace-and-snapshots). */
export function materialize(
  runId: string,
  event: PendingEvent,
  sequence: number,
  occurredAt: Date,
): AgentTraceEvent {
  return {
    schemaVersion: 1,
    eventId: uuidFromKey(`${runId}:event:${event.key}`),
    runId,
    occurredAt: occurredAt.toISOString(),
    producerSequence: sequence,
    agent: event.agent,
    ...event.body,
  } as AgentTraceEvent;
}
