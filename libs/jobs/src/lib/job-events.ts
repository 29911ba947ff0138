import type { JobEvent } from '@quarry/contracts';
import type { MessageBus } from '@quarry/platform/bus';

/** Publishes a job's outcome to every follower (gateways, webhooks, watchers). */
export async function publishJobEvent(bus: MessageBus, event: JobEvent): Promise<void> {
  await bus.publish('jobEvents', event, { key: event.jobId });
}
