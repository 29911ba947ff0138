import pino from 'pino';

import type { AgentWorkMessage, ScrapeJobMessage } from '@quarry/contracts';

import { ContractBus, InvalidMessageError } from './contract-bus';
import { MemoryBus } from './memory-bus';
import type { MessageBus } from './message-bus';

const RUN = '11111111-1111-4111-8111-111111111111';
const TEAM = '22222222-2222-4222-8222-222222222222';

/**
 * Compile-time contract of the typed bus: `tsc` (the project's typecheck target) fails when any
 * `@ts-expect-error` below stops being an error, i.e. when a topic accepts a payload it must not.
 */
export function typedTopicMisuse(bus: MessageBus): void {
  // @ts-expect-error a payload of another shape does not compile
  void bus.publish('agentWork', { i: 1 });
  // @ts-expect-error the scrape job message lacks its request
  void bus.publish('scrapeJobs', { jobId: RUN, teamId: TEAM, deadline: 1, enqueuedAt: 1 });
  // @ts-expect-error an unknown topic does not compile
  void bus.publish('scrape.jobs', {});
  // @ts-expect-error the message of one topic cannot go to another
  void bus.publish('monitorChecks', { type: 'advance', runId: RUN, teamId: TEAM } satisfies AgentWorkMessage);
  void bus.subscribe('agentWork', { group: 'g', concurrency: 1 }, async (message) => {
    const work: AgentWorkMessage = message.value;
    // @ts-expect-error a consumer receives its topic's message, not another's
    const wrong: ScrapeJobMessage = message.value;
    void work;
    void wrong;
  });
}

describe('ContractBus', () => {
  const logger = pino({ level: 'silent' });

  it('refuses a payload that breaks the topic schema before it reaches the transport', async () => {
    const transport = new MemoryBus(logger);
    const sut = new ContractBus(transport);
    await sut.start();
    const seen: unknown[] = [];
    await transport.subscribe(
      'agentWork',
      { group: 'raw', concurrency: 1 },
      async (message) => void seen.push(message.value),
    );
    const bad = { type: 'advance', runId: 'not-a-uuid', teamId: TEAM } as unknown as AgentWorkMessage;
    await expect(sut.publish('agentWork', bad)).rejects.toBeInstanceOf(InvalidMessageError);
    await sut.publish('agentWork', { type: 'advance', runId: RUN, teamId: TEAM });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual([{ type: 'advance', runId: RUN, teamId: TEAM }]);
    await sut.stop();
  });

  it("decodes deliveries with the topic's schema when the subscriber names none", async () => {
    const transport = new MemoryBus(logger);
    const sut = new ContractBus(transport);
    await sut.start();
    const seen: AgentWorkMessage[] = [];
    const invalid: unknown[] = [];
    await sut.subscribe(
      'agentWork',
      { group: 'g', concurrency: 1, onInvalid: (error) => void invalid.push(error) },
      async (message) => void seen.push(message.value),
    );
    // A raw producer (another version, a hand-written message) bypasses the publish check; the consumer still refuses it.
    await transport.publish('agentWork', { type: 'advance', runId: RUN });
    await sut.publish('agentWork', { type: 'task', runId: RUN, teamId: TEAM, taskId: RUN });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(invalid).toHaveLength(1);
    expect(seen).toEqual([{ type: 'task', runId: RUN, teamId: TEAM, taskId: RUN }]);
    await sut.stop();
  });
  it('logs a refused delivery with its topic and group when the subscriber does not handle it', async () => {
    const transport = new MemoryBus(logger);
    const logged: { fields: Record<string, unknown>; message: string }[] = [];
    const sut = new ContractBus(transport, {
      error: (fields: Record<string, unknown>, message: string) => void logged.push({ fields, message }),
    } as never);
    await sut.start();
    const seen: AgentWorkMessage[] = [];
    await sut.subscribe(
      'agentWork',
      { group: 'g', concurrency: 1 },
      async (message) => void seen.push(message.value),
    );
    await transport.publish('agentWork', { type: 'advance', runId: RUN });
    await sut.publish('agentWork', { type: 'advance', runId: RUN, teamId: TEAM });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logged).toHaveLength(1);
    expect(logged[0].message).toBe('invalid message skipped');
    expect(logged[0].fields).toMatchObject({ topic: 'agent.work', group: 'g' });
    expect(seen).toEqual([{ type: 'advance', runId: RUN, teamId: TEAM }]);
    await sut.stop();
  });
});
