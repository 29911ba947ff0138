import type { JobEvent } from '@quarry/contracts';
import type { MessageBus } from '@quarry/platform/bus';

/**
 * Consumes `job.events` in a consumer group of its own (one per gateway replica or orchestrator
 * process, so every process sees every event) and hands each event to its JobWaiter.
 */
export class JobEventsConsumer {
  constructor(
    private readonly bus: MessageBus,
    private readonly group: string,
    private readonly deliver: (event: JobEvent) => void,
  ) {}

  async start(): Promise<void> {
    await this.bus.subscribe('jobEvents', { group: this.group, concurrency: 64 }, async (message) =>
      this.deliver(message.value as JobEvent),
    );
  }
}
