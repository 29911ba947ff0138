import { Prisma } from '@quarry/platform/database';

import type { RunKind } from '../extract-job';
import type { RunState } from '../run-state';
import { materialize, type PendingEvent } from '../trace';

export type Tx = Prisma.TransactionClient;
export const json = (value: unknown) => value as Prisma.InputJsonValue;
/** Writes of one run queue on its row lock: wait for a connection and the lock rather than fail under a burst of sub-agents. */
export const TX = { maxWait: 15_000, timeout: 20_000 } as const;

/** Locks the run row for the rest of the transaction; what the writes of a run check first. */
export async function lockRun(
  tx: Tx,
  runId: string,
): Promise<
  { state: RunState; step: number; teamId: string; creditsSpent: number; kind: RunKind } | undefined
> {
  const rows = await tx.$queryRawUnsafe<
    { state: string; step: number; team_id: string; credits_spent: number; kind: string }[]
  >('SELECT state, step, team_id, credits_spent, kind FROM agent_runs WHERE id = $1::uuid FOR UPDATE', runId);
  const row = rows[0];
  return row
    ? {
        state: row.state as RunState,
        step: Number(row.step),
        teamId: row.team_id,
        creditsSpent: Number(row.credits_spent),
        kind: row.kind as RunKind,
      }
    : undefined;
}

/** Inserts events whose key the run has not recorded yet, numbered after the last one. Caller holds the run lock. */
export async function appendEvents(tx: Tx, runId: string, events: readonly PendingEvent[]): Promise<void> {
  if (events.length === 0) return;
  const keys = [...new Set(events.map((event) => event.key))];
  const existing = await tx.agentTraceEvent.findMany({
    where: { runId, eventKey: { in: keys } },
    select: { eventKey: true },
  });
  const seen = new Set(existing.map((row) => row.eventKey));
  const fresh = events.filter((event) => {
    if (seen.has(event.key)) return false;
    seen.add(event.key);
    return true;
  });
  if (fresh.length === 0) return;
  const run = await tx.agentRun.update({
    where: { id: runId },
    data: { nextSequence: { increment: fresh.length } },
    select: { nextSequence: true },
  });
  let sequence = run.nextSequence - fresh.length;
  const rows = fresh.map((event) => {
    const occurredAt = event.occurredAt ?? new Date();
    const materialized = materialize(runId, event, sequence, occurredAt);
    return {
      runId,
      sequence: sequence++,
      eventKey: event.key,
      eventId: materialized.eventId,
      type: event.body.type,
      event: json(materialized),
      occurredAt,
    };
  });
  await tx.agentTraceEvent.createMany({ data: rows });
}
