import { type TopicKey, type TopicMessage, type TopicPayload, TOPICS } from '@quarry/contracts';
import type { ConsumerLag, Logger } from '@quarry/platform/observability';

import type {
  MessageBus,
  MessageHandler,
  MessageTransport,
  PublishOptions,
  TopicSubscribeOptions,
} from './message-bus';

/** A publisher handed a topic a payload its schema refuses: a programming error, never sent. */
export class InvalidMessageError extends Error {
  constructor(
    readonly topic: TopicKey,
    readonly issues: unknown,
  ) {
    super(`The payload published on ${TOPICS[topic].name} breaks the topic's contract`, { cause: issues });
    this.name = 'InvalidMessageError';
  }
}

/**
 * The typed bus over a transport: every payload is checked against its topic's schema at both ends
 * (before it is sent, and when it is delivered), so a wrong message is refused where it is made.
 * A delivered message the schema refuses is skipped and logged with its topic and group, unless the
 * subscriber handles it itself (`onInvalid`).
 */
export class ContractBus implements MessageBus {
  constructor(
    private readonly transport: MessageTransport,
    private readonly logger?: Pick<Logger, 'error'>,
  ) {}

  get driver(): MessageBus['driver'] {
    return this.transport.driver;
  }

  start(): Promise<void> {
    return this.transport.start();
  }

  async publish<K extends TopicKey>(
    topic: K,
    value: TopicPayload<K>,
    options?: PublishOptions,
  ): Promise<void> {
    const checked = TOPICS[topic].schema.safeParse(value);
    if (!checked.success) throw new InvalidMessageError(topic, checked.error.issues);
    // The payload as given goes out (not the parse output): consumers decode with the same schema.
    await this.transport.publish(topic, value, options);
  }

  subscribe<K extends TopicKey>(
    topic: K,
    options: TopicSubscribeOptions<K>,
    handler: MessageHandler<TopicMessage<K>>,
  ): Promise<void> {
    const schema = options.schema ?? (TOPICS[topic].schema as TopicSubscribeOptions<K>['schema']);
    const logger = this.logger;
    const onInvalid =
      options.onInvalid ??
      (logger
        ? (error: unknown) =>
            logger.error(
              { err: error, topic: TOPICS[topic].name, group: options.group },
              'invalid message skipped',
            )
        : undefined);
    return this.transport.subscribe(topic, { ...options, schema, onInvalid }, handler);
  }

  subscriptionsReady(): Promise<void> {
    return this.transport.subscriptionsReady();
  }

  healthy(): Promise<void> {
    return this.transport.healthy();
  }

  consumerLag(): Promise<ConsumerLag[]> {
    return this.transport.consumerLag();
  }

  stop(): Promise<void> {
    return this.transport.stop();
  }
}
