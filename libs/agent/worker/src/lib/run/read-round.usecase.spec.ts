import {
  type AgentRunRecord,
  initialMemory,
  type RunUpdate,
  scrapeJobId,
  taskId,
} from '@quarry/agent/domain';
import type { AgentWorkMessage } from '@quarry/contracts';
import { testConfig } from '@quarry/testing';

import type { AgentRunnerDeps } from './agent-runner.deps';
import { ReadRoundUseCase } from './read-round.usecase';
import { RunPolicy } from './run-policy.util';

const RUN_ID = '6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f';

function agentRun(): AgentRunRecord {
  return {
    id: RUN_ID,
    teamId: 'team-1',
    kind: 'agent',
    state: 'running',
    step: 3,
    memory: initialMemory(['https://a.test/one', 'https://a.test/two'], 'deterministic'),
    request: {},
  } as unknown as AgentRunRecord;
}

/** The run's repository and the bus, as far as the read step uses them. */
function fakes(applied: boolean) {
  const updates: RunUpdate[] = [];
  const published: { topic: string; value: AgentWorkMessage; key?: string }[] = [];
  const deps = {
    runs: {
      update: async (_runId: string, change: RunUpdate) => {
        updates.push(change);
        return applied;
      },
    },
    bus: {
      publish: async (topic: string, value: AgentWorkMessage, options?: { key?: string }) => {
        published.push({ topic, value, key: options?.key });
      },
    },
    config: testConfig(),
  } as unknown as AgentRunnerDeps;
  return { deps, updates, published };
}

describe('ReadRoundUseCase', () => {
  const decision = {
    kind: 'read' as const,
    reasoning: 'read both pages',
    urls: [
      { url: 'https://a.test/one', reason: 'given' as const, score: 1 },
      { url: 'https://a.test/two', reason: 'given' as const, score: 1 },
    ],
  };

  it('records the round with one task per page (ids derived from the run) and announces each task', async () => {
    const { deps, updates, published } = fakes(true);
    const sut = new ReadRoundUseCase(deps, new RunPolicy(deps));

    await sut.execute(agentRun(), decision);

    expect(updates).toHaveLength(1);
    const [change] = updates;
    expect(change).toMatchObject({ whenState: ['running'], whenStep: 3, step: 4 });
    const first = taskId(RUN_ID, 1, 'https://a.test/one');
    const second = taskId(RUN_ID, 1, 'https://a.test/two');
    expect(change.tasks).toEqual([
      {
        id: first,
        round: 1,
        input: { url: 'https://a.test/one', name: 'reader-1.1', scrapeJobId: scrapeJobId(first) },
      },
      {
        id: second,
        round: 1,
        input: { url: 'https://a.test/two', name: 'reader-1.2', scrapeJobId: scrapeJobId(second) },
      },
    ]);
    expect(change.memory?.round).toBe(1);
    expect(change.events?.map((event) => event.key)).toEqual(['round:1:reasoning', 'round:1:progress']);
    expect(published).toEqual([
      {
        topic: 'agentWork',
        value: { type: 'task', runId: RUN_ID, teamId: 'team-1', taskId: first },
        key: first,
      },
      {
        topic: 'agentWork',
        value: { type: 'task', runId: RUN_ID, teamId: 'team-1', taskId: second },
        key: second,
      },
    ]);
  });

  it('announces nothing when the step was recorded by someone else', async () => {
    const { deps, updates, published } = fakes(false);
    const sut = new ReadRoundUseCase(deps, new RunPolicy(deps));

    await sut.execute(agentRun(), decision);

    expect(updates).toHaveLength(1);
    expect(published).toEqual([]);
  });
});
