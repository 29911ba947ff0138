import type { Logger } from 'pino';

import { type TopicKey, TOPICS } from '@quarry/contracts';
import type { ConsumerLag, PlatformMetrics } from '@quarry/platform/observability';

import { type BusTelemetry, tracedPublish } from './bus-telemetry';
import { runWithRetry, Semaphore } from './handler-runner';
import {
  type BusMessage,
  decodePayload,
  type MessageHandler,
  type MessageTransport,
  type PublishOptions,
  type SubscribeOptions,
} from './message-bus';

type Envelope = Omit<BusMessage<string>, 'attempt'>;

interface Subscription {
  group: string;
  options: SubscribeOptions;
  handler: MessageHandler<unknown>;
  semaphore: Semaphore;
  /** Delivered to this subscription but not started yet (waiting for its concurrency). */
  waiting: number;
}

/** Bounded backlog kept for a topic that has no subscriber yet (one-process mode starts consumers first anyway). */
const MAX_BACKLOG = 100_000;

/**
 * The bus for one-process mode: same at-least-once semantics as Kafka (retry with backoff until the
 * handler succeeds), messages serialised to JSON so handlers see exactly what Kafka would deliver.
 */
export class MemoryBus implements MessageTransport {
  readonly driver = 'memory' as const;
  private readonly groups = new Map<TopicKey, Map<string, Subscription[]>>();
  private readonly backlog = new Map<TopicKey, Envelope[]>();
  private readonly cursor = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private readonly telemetry: BusTelemetry;

  constructor(
    private readonly logger: Logger,
    metrics?: PlatformMetrics,
  ) {
    this.telemetry = { system: 'memory', metrics };
  }

  async start(): Promise<void> {
    this.running = true;
  }

  async publish(topic: TopicKey, value: unknown, options: PublishOptions = {}): Promise<void> {
    if (!(topic in TOPICS)) throw new Error(`Unknown topic ${topic}`);
    await tracedPublish(
      this.telemetry,
      topic,
      TOPICS[topic].name,
      options.key,
      options.headers,
      async (headers) => {
        const envelope: Envelope = { topic, key: options.key, value: JSON.stringify(value), headers };
        const groups = this.groups.get(topic);
        if (!groups || groups.size === 0) {
          const queue = this.backlog.get(topic) ?? [];
          if (queue.length >= MAX_BACKLOG) throw new Error(`Backlog of ${topic} is full`);
          queue.push(envelope);
          this.backlog.set(topic, queue);
          return;
        }
        for (const [group, members] of groups) this.deliver(this.pick(topic, group, members), envelope);
      },
    );
  }

  async subscribe<T>(
    topic: TopicKey,
    options: SubscribeOptions<T>,
    handler: MessageHandler<T>,
  ): Promise<void> {
    const groups = this.groups.get(topic) ?? new Map<string, Subscription[]>();
    this.groups.set(topic, groups);
    const subscription: Subscription = {
      group: options.group,
      options,
      handler: handler as MessageHandler<unknown>,
      semaphore: new Semaphore(options.concurrency),
      waiting: 0,
    };
    groups.set(options.group, [...(groups.get(options.group) ?? []), subscription]);
    const pending = this.backlog.get(topic);
    if (pending?.length) {
      this.backlog.delete(topic);
      for (const envelope of pending) this.deliver(subscription, envelope);
    }
  }

  /** In-process subscriptions are live as soon as they are registered. */
  subscriptionsReady(): Promise<void> {
    return Promise.resolve();
  }

  async healthy(): Promise<void> {
    if (!this.running) throw new Error('bus is not running');
  }

  /** Messages delivered but not yet started, per subscription group (plus the backlog of topics nobody follows yet). */
  async consumerLag(): Promise<ConsumerLag[]> {
    const lag = new Map<string, ConsumerLag>();
    for (const [topic, groups] of this.groups) {
      for (const [group, members] of groups) {
        lag.set(`${topic}/${group}`, {
          topic: TOPICS[topic].name,
          group,
          lag: members.reduce((sum, member) => sum + member.waiting, 0),
        });
      }
    }
    return [...lag.values()];
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.allSettled([...this.inFlight]);
  }

  private pick(topic: TopicKey, group: string, members: Subscription[]): Subscription {
    const key = `${topic}/${group}`;
    const index = (this.cursor.get(key) ?? 0) % members.length;
    this.cursor.set(key, index + 1);
    return members[index];
  }

  private deliver(subscription: Subscription, envelope: Envelope): void {
    subscription.waiting += 1;
    const task = (async () => {
      await subscription.semaphore.acquire();
      subscription.waiting -= 1;
      try {
        const decoded = decodePayload(envelope.value, subscription.options.schema);
        if (!decoded.ok) {
          this.telemetry.metrics?.busConsumed.inc({ topic: envelope.topic, outcome: 'invalid' });
          subscription.options.onInvalid?.(decoded.error, envelope.value);
          return;
        }
        const outcome = await runWithRetry({ ...envelope, value: decoded.value }, subscription.handler, {
          logger: this.logger,
          isRunning: () => this.running,
          telemetry: {
            ...this.telemetry,
            destination: TOPICS[envelope.topic].name,
            group: subscription.group,
          },
        });
        if (outcome === 'gave-up')
          this.telemetry.metrics?.busConsumed.inc({ topic: envelope.topic, outcome: 'dead_letter' });
      } finally {
        subscription.semaphore.release();
      }
    })();
    this.inFlight.add(task);
    void task.finally(() => this.inFlight.delete(task));
  }
}
