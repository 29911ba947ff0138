import { TRACED_AGENT_MODEL } from '@quarry/contracts';

/** Messages of the agent routes, word for word as docs/agent.md#api lists them. */
export const AGENT_MESSAGES = {
  notFound: 'Agent job not found',
  snapshotNotFound: 'Snapshot not found',
  invalidSnapshotId: 'Invalid snapshot ID',
  alreadyFinished: 'Agent already finished',
  alreadyCancelled: 'Agent is already cancelled',
  passthroughFailed: 'Failed to passthrough agent request.',
  zeroDataRetention:
    'Your team has zero data retention enabled. This is not supported on extract, which includes agent jobs.',
  traceModel: `Traces are only available for agent jobs created with the ${TRACED_AGENT_MODEL} model.`,
  snapshotModel: `Snapshots are only available for agent jobs created with the ${TRACED_AGENT_MODEL} model.`,
  threadNotFound: 'Agent thread not found',
  threadBusy: 'The thread has a run in progress; wait for it to finish (or cancel it) before the next turn',
} as const;
