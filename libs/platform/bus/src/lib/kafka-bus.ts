import { hostname } from 'node:os';

import {
  type Admin,
  ConfigResourceTypes,
  type Consumer,
  type ISocketFactory,
  Kafka,
  type LogEntry,
  logLevel,
  Partitioners,
  type Producer,
} from 'kafkajs';
import type { Logger } from 'pino';

import { type TopicKey, TOPICS, type TopicSpec } from '@quarry/contracts';
import type { ConsumerLag, PlatformMetrics } from '@quarry/platform/observability';

import { type BusTelemetry, tracedPublish } from './bus-telemetry';
import { runWithRetry, Semaphore } from './handler-runner';
import { kafkaConnectionConfig, type KafkaConnectionOptions } from './kafka-client-config';
import {
  BusUnavailableError,
  decodePayload,
  type MessageHandler,
  type MessageTransport,
  type PublishOptions,
  sleep,
  type SubscribeOptions,
} from './message-bus';

export interface KafkaBusOptions extends KafkaConnectionOptions {
  clientId: string;
  topicPrefix: string;
  replicationFactor: number;
  /** How long a publish may take before it fails with BusUnavailableError (default 10 s). */
  publishTimeoutMs?: number;
  /**
   * How long a silent member keeps its partitions (default 30 s): a killed worker's unfinished
   * messages reach the others after this long.
   */
  sessionTimeoutMs?: number;
  /** Opens the broker connections (kafkajs' own by default; tests cut the network with it). */
  socketFactory?: ISocketFactory;
}

/** Default bound of a publish: kafkajs would retry a dead broker for about a minute. */
const PUBLISH_TIMEOUT_MS = 10_000;
/** How long a failed publish keeps the bus reported unhealthy (readiness), unless a publish succeeds. */
const PUBLISH_FAILURE_MEMORY_MS = 15_000;

interface ConsumerEntry {
  consumer: Consumer;
  assigned: Promise<void>;
  topic: string;
  groupId: string;
}

/** Default consumer session: a dead member's partitions move after this long. */
const DEFAULT_SESSION_TIMEOUT_MS = 30_000;

const DEAD_LETTER_SUFFIX = '.dead-letter';

/** Topic-level overrides of a topic (and of its dead-letter topic, which holds the same payloads). */
export function topicConfigEntries(spec: TopicSpec): { name: string; value: string }[] {
  const entries: { name: string; value: string }[] = [];
  if (spec.retentionMs !== undefined) entries.push({ name: 'retention.ms', value: String(spec.retentionMs) });
  if (spec.segmentMs !== undefined) entries.push({ name: 'segment.ms', value: String(spec.segmentMs) });
  return entries;
}

/**
 * Kafka adapter (kafkajs). Messages of a partition are handled concurrently (bounded by the
 * subscription's concurrency) and its offset is committed only up to the first message whose
 * handler has not finished — so a crash redelivers everything not yet durably handled.
 */
export class KafkaBus implements MessageTransport {
  readonly driver = 'kafka' as const;
  private readonly kafka: Kafka;
  private readonly producer: Producer;
  private readonly admin: Admin;
  private readonly consumers: ConsumerEntry[] = [];
  private running = false;
  private producerConnected = false;
  private lastPublishFailure: { at: number; message: string } | undefined;
  private readonly telemetry: BusTelemetry;

  constructor(
    private readonly options: KafkaBusOptions,
    private readonly logger: Logger,
    metrics?: PlatformMetrics,
  ) {
    this.telemetry = { system: 'kafka', metrics };
    this.kafka = new Kafka({
      ...kafkaConnectionConfig(options),
      clientId: `${options.clientId}-${hostname()}-${process.pid}`,
      connectionTimeout: 3_000,
      requestTimeout: 30_000,
      retry: { initialRetryTime: 300, maxRetryTime: 10_000, retries: 10 },
      logLevel: logLevel.WARN,
      logCreator: () => (entry: LogEntry) => this.logKafka(entry),
      ...(options.socketFactory ? { socketFactory: options.socketFactory } : {}),
    });
    this.producer = this.kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      allowAutoTopicCreation: false,
      retry: { retries: 10, maxRetryTime: 10_000 },
    });
    this.admin = this.kafka.admin();
    this.producer.on(this.producer.events.DISCONNECT, () => (this.producerConnected = false));
    this.producer.on(this.producer.events.CONNECT, () => (this.producerConnected = true));
  }

  topicName(topic: TopicKey): string {
    return `${this.options.topicPrefix}${TOPICS[topic].name}`;
  }

  async start(): Promise<void> {
    this.running = true;
    await this.admin.connect();
    await this.ensureTopics();
    await this.producer.connect();
  }

  /** Throws BusUnavailableError when the broker does not take the message in time (publishTimeoutMs). */
  async publish(topic: TopicKey, value: unknown, options: PublishOptions = {}): Promise<void> {
    const name = this.topicName(topic);
    await tracedPublish(this.telemetry, topic, name, options.key, options.headers, async (headers) => {
      const sent = this.producer.send({
        topic: name,
        acks: -1,
        messages: [{ key: options.key ?? null, value: JSON.stringify(value), headers }],
      });
      let timer: NodeJS.Timeout | undefined;
      const timeoutMs = options.timeoutMs ?? this.options.publishTimeoutMs ?? PUBLISH_TIMEOUT_MS;
      const timedOut = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no acknowledgement within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([sent, timedOut]);
        this.lastPublishFailure = undefined;
      } catch (error) {
        // A send that outlives its timeout settles later; its outcome no longer matters to the caller.
        sent.catch(() => undefined);
        this.lastPublishFailure = {
          at: Date.now(),
          message: error instanceof Error ? error.message : String(error),
        };
        throw new BusUnavailableError(name, error);
      } finally {
        clearTimeout(timer);
      }
    });
  }

  async subscribe<T>(
    topic: TopicKey,
    options: SubscribeOptions<T>,
    handler: MessageHandler<T>,
  ): Promise<void> {
    const name = this.topicName(topic);
    const groupId = `${this.options.topicPrefix}${options.group}`;
    const sessionTimeout = this.options.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
    const consumer = this.kafka.consumer({
      groupId,
      sessionTimeout,
      rebalanceTimeout: 60_000,
      // a third of the session: two lost heartbeats do not cost the membership
      heartbeatInterval: Math.min(3_000, Math.floor(sessionTimeout / 3)),
      maxWaitTimeInMs: 200,
      allowAutoTopicCreation: false,
      retry: { retries: 20, initialRetryTime: 300, maxRetryTime: 10_000, restartOnFailure: async () => true },
    });
    let markAssigned: () => void = () => undefined;
    const assigned = new Promise<void>((resolve) => (markAssigned = resolve));
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      if (Object.keys(event.payload.memberAssignment).length > 0) markAssigned();
    });
    consumer.on(consumer.events.CRASH, (event) =>
      this.logger.error(
        { err: event.payload.error, group: options.group, restart: event.payload.restart },
        'kafka consumer crashed',
      ),
    );
    await consumer.connect();
    await consumer.subscribe({ topic: name, fromBeginning: true });
    const semaphore = new Semaphore(options.concurrency);
    const partitions = TOPICS[topic].partitions;
    await consumer.run({
      autoCommit: true,
      autoCommitInterval: 1_000,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: Math.max(1, Math.min(partitions, options.concurrency)),
      eachBatch: async ({
        batch,
        resolveOffset,
        heartbeat,
        commitOffsetsIfNecessary,
        isRunning,
        isStale,
      }) => {
        const messages = batch.messages;
        const finished = new Array<boolean>(messages.length).fill(false);
        let resolvedUpTo = 0;
        const beat = setInterval(() => void heartbeat().catch(() => undefined), 2_000);
        const live = () => this.running && isRunning() && !isStale();
        try {
          await Promise.all(
            messages.map(async (message, index) => {
              await semaphore.acquire();
              try {
                if (!live()) return;
                const raw = message.value?.toString('utf8') ?? '';
                let outcome: 'done' | 'gave-up' | 'stopped' = 'done';
                const decoded = decodePayload(raw, options.schema);
                if (!decoded.ok) {
                  this.telemetry.metrics?.busConsumed.inc({ topic, outcome: 'invalid' });
                  options.onInvalid?.(decoded.error, raw);
                } else {
                  const value = decoded.value;
                  const headers = Object.fromEntries(
                    Object.entries(message.headers ?? {}).map(([key, header]) => [
                      key,
                      header?.toString() ?? '',
                    ]),
                  );
                  outcome = await runWithRetry(
                    { topic, key: message.key?.toString(), value, headers },
                    handler as MessageHandler<unknown>,
                    {
                      logger: this.logger,
                      isRunning: live,
                      telemetry: { ...this.telemetry, destination: name, group: options.group },
                    },
                  );
                  if (outcome === 'gave-up') {
                    this.telemetry.metrics?.busConsumed.inc({ topic, outcome: 'dead_letter' });
                    await this.deadLetter(name, raw, message.key?.toString());
                  }
                }
                if (outcome === 'stopped') return;
                finished[index] = true;
                while (resolvedUpTo < messages.length && finished[resolvedUpTo]) {
                  resolveOffset(messages[resolvedUpTo].offset);
                  resolvedUpTo += 1;
                }
                await commitOffsetsIfNecessary().catch((error: unknown) =>
                  this.logger.warn({ err: error }, 'offset commit failed'),
                );
              } finally {
                semaphore.release();
              }
            }),
          );
        } finally {
          clearInterval(beat);
        }
      },
    });
    this.consumers.push({ consumer, assigned, topic: name, groupId });
  }

  async subscriptionsReady(): Promise<void> {
    await Promise.all(this.consumers.map((entry) => entry.assigned));
  }

  async healthy(): Promise<void> {
    if (!this.running) throw new Error('bus is not running');
    if (!this.producerConnected) throw new Error('Kafka producer is not connected');
    const failure = this.lastPublishFailure;
    if (failure && Date.now() - failure.at < PUBLISH_FAILURE_MEMORY_MS)
      throw new Error(`Kafka publish failed: ${failure.message}`);
    await this.admin.describeCluster();
  }

  /** Committed offsets against the log end, summed over partitions, for each subscription of this process. */
  async consumerLag(): Promise<ConsumerLag[]> {
    if (!this.running) return [];
    return Promise.all(
      this.consumers.map(async ({ topic, groupId }) => {
        const [ends, committed] = await Promise.all([
          this.admin.fetchTopicOffsets(topic),
          this.admin.fetchOffsets({ groupId, topics: [topic] }),
        ]);
        const done = new Map(
          (committed[0]?.partitions ?? []).map((partition) => [
            partition.partition,
            Number(partition.offset),
          ]),
        );
        const lag = ends.reduce((sum, end) => {
          const position = done.get(end.partition) ?? -1;
          const from = position >= 0 ? position : Number(end.low);
          return sum + Math.max(0, Number(end.high) - from);
        }, 0);
        return { topic, group: groupId.slice(this.options.topicPrefix.length), lag };
      }),
    );
  }

  /** Stops consuming; handlers still running get `gracePeriodMs` to finish (their messages are redelivered otherwise). */
  async stop(gracePeriodMs = 30_000): Promise<void> {
    this.running = false;
    const disconnected = Promise.allSettled(this.consumers.map((entry) => entry.consumer.disconnect()));
    await Promise.race([disconnected, sleep(gracePeriodMs)]);
    await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()]);
  }

  private async ensureTopics(): Promise<void> {
    const existing = new Set(await this.admin.listTopics());
    const wanted = Object.keys(TOPICS).flatMap((key) => {
      const topic = key as TopicKey;
      const configEntries = topicConfigEntries(TOPICS[topic]);
      return [
        { topic: this.topicName(topic), numPartitions: TOPICS[topic].partitions, configEntries },
        { topic: `${this.topicName(topic)}${DEAD_LETTER_SUFFIX}`, numPartitions: 1, configEntries },
      ];
    });
    const missing = wanted.filter((topic) => !existing.has(topic.topic));
    if (missing.length > 0) {
      await this.admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({ ...topic, replicationFactor: this.options.replicationFactor })),
      });
      this.logger.info({ topics: missing.map((topic) => topic.topic) }, 'created Kafka topics');
    }
    // Also the ones just "created": another replica (or an older release) may have created them without the overrides.
    await this.alignTopicConfigs(wanted.filter((topic) => topic.configEntries.length > 0));
  }

  /** Topics created by an older release, or concurrently by another client, have the broker's default retention: set ours. */
  private async alignTopicConfigs(
    topics: { topic: string; configEntries: { name: string; value: string }[] }[],
  ): Promise<void> {
    if (topics.length === 0) return;
    const described = await this.admin.describeConfigs({
      includeSynonyms: false,
      resources: topics.map((topic) => ({
        type: ConfigResourceTypes.TOPIC,
        name: topic.topic,
        configNames: topic.configEntries.map((entry) => entry.name),
      })),
    });
    const current = new Map(
      described.resources.map((resource) => [
        resource.resourceName,
        new Map(resource.configEntries.map((entry) => [entry.configName, entry.configValue])),
      ]),
    );
    const stale = topics.filter((topic) =>
      topic.configEntries.some((entry) => current.get(topic.topic)?.get(entry.name) !== entry.value),
    );
    if (stale.length === 0) return;
    await this.admin.alterConfigs({
      validateOnly: false,
      resources: stale.map((topic) => ({
        type: ConfigResourceTypes.TOPIC,
        name: topic.topic,
        configEntries: topic.configEntries,
      })),
    });
    this.logger.info({ topics: stale.map((topic) => topic.topic) }, 'updated Kafka topic retention');
  }

  private async deadLetter(topic: string, raw: string, key?: string): Promise<void> {
    await this.producer
      .send({
        topic: `${topic}${DEAD_LETTER_SUFFIX}`,
        acks: -1,
        messages: [{ key: key ?? null, value: raw }],
      })
      .catch((error: unknown) =>
        this.logger.error({ err: error, topic }, 'could not park message on the dead-letter topic'),
      );
  }

  private logKafka(entry: LogEntry): void {
    const { message, ...extra } = entry.log;
    const level = entry.level === logLevel.ERROR ? 'error' : entry.level === logLevel.WARN ? 'warn' : 'debug';
    this.logger[level]({ kafka: entry.namespace, ...extra }, message);
  }
}
