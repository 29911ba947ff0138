import type { TopicKey, TopicMessage, TopicPayload } from '@quarry/contracts';
import type { ConsumerLag } from '@quarry/platform/observability';

export interface BusMessage<T = unknown> {
  topic: TopicKey;
  key?: string;
  value: T;
  headers: Record<string, string>;
  /** 1 for the first delivery attempt in this process; redeliveries after a crash start again at 1. */
  attempt: number;
}

export type MessageHandler<T = unknown> = (message: BusMessage<T>) => Promise<void>;

/** A payload validator (a zod schema fits): the handler only sees values it accepted. */
export interface MessageSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: unknown };
}

export interface SubscribeOptions<T = unknown> {
  /** Consumer group: each message is handled once per group. */
  group: string;
  /** Messages handled at the same time by this subscription. */
  concurrency: number;
  /** The payload's contract; a message it refuses is skipped like an undecodable one. */
  schema?: MessageSchema<T>;
  /** Called when a message cannot be decoded or its payload breaks the schema; it is then skipped. */
  onInvalid?: (error: unknown, raw: string) => void;
}

export interface PublishOptions {
  key?: string;
  headers?: Record<string, string>;
  /**
   * How long the broker may take to acknowledge (Kafka; default the bus's own bound). A caller with a
   * deadline of its own passes what is left of it, so a broker failover within that time is waited out.
   */
  timeoutMs?: number;
}

/** A publish may use a job's time but leaves its worker this much of it, and never gets less than the floor. */
const PUBLISH_DEADLINE_MARGIN_MS = 5_000;
const PUBLISH_MIN_TIMEOUT_MS = 10_000;

/**
 * The acknowledgement wait for publishing a job due at `deadline` (epoch ms): what is left of its
 * time (minus a margin for the worker), at least 10 s — so a broker failover is waited out.
 */
export function publishTimeoutFor(deadline: number, now = Date.now()): number {
  return Math.max(PUBLISH_MIN_TIMEOUT_MS, deadline - now - PUBLISH_DEADLINE_MARGIN_MS);
}

/**
 * A transport of the bus (Kafka, in-memory): moves JSON payloads, knows nothing of their contracts.
 * Delivery is at least once: a message counts as handled only when its handler resolves, and a
 * handler that throws sees the message again (with backoff) — so handlers record their outcome
 * durably before returning and are idempotent by job id.
 */
export interface MessageTransport {
  readonly driver: 'kafka' | 'memory';
  start(): Promise<void>;
  publish(topic: TopicKey, value: unknown, options?: PublishOptions): Promise<void>;
  subscribe<T>(topic: TopicKey, options: SubscribeOptions<T>, handler: MessageHandler<T>): Promise<void>;
  /** Resolves when every subscription has been assigned its share of the topic. */
  subscriptionsReady(): Promise<void>;
  healthy(): Promise<void>;
  /** Messages not yet handled by the consumer groups of this process, per topic and group. */
  consumerLag(): Promise<ConsumerLag[]>;
  stop(): Promise<void>;
}

/** Subscription options of a typed topic: its schema is the topic's own unless a narrower one is given. */
export type TopicSubscribeOptions<K extends TopicKey> = SubscribeOptions<TopicMessage<K>>;

/**
 * The platform's message bus, typed by topic (`TOPICS` in @quarry/contracts): a publisher can only
 * hand a topic its payload, checked against the topic's schema before it is sent, and a consumer
 * receives the schema's output. Delivery semantics are the transport's (see MessageTransport).
 */
export interface MessageBus {
  readonly driver: 'kafka' | 'memory';
  start(): Promise<void>;
  publish<K extends TopicKey>(topic: K, value: TopicPayload<K>, options?: PublishOptions): Promise<void>;
  subscribe<K extends TopicKey>(
    topic: K,
    options: TopicSubscribeOptions<K>,
    handler: MessageHandler<TopicMessage<K>>,
  ): Promise<void>;
  /** Resolves when every subscription has been assigned its share of the topic. */
  subscriptionsReady(): Promise<void>;
  healthy(): Promise<void>;
  /** Messages not yet handled by the consumer groups of this process, per topic and group. */
  consumerLag(): Promise<ConsumerLag[]>;
  stop(): Promise<void>;
}

/**
 * The bus could not take a message (broker unreachable, no leader, timed out). Publishers that
 * answer a request report it as 503 Service Unavailable; it is never a job's own failure.
 */
export class BusUnavailableError extends Error {
  constructor(
    readonly topic: string,
    cause?: unknown,
  ) {
    super(
      `The message bus could not accept a message on ${topic}${cause instanceof Error ? `: ${cause.message}` : ''}`,
      { cause },
    );
    this.name = 'BusUnavailableError';
  }
}

export function isBusUnavailable(error: unknown): error is BusUnavailableError {
  return error instanceof BusUnavailableError;
}

/**
 * A delivered message's payload: JSON, then the subscription's schema when it has one. Both adapters
 * decode with this, so an invalid message is counted and reported the same way everywhere.
 */
export function decodePayload<T>(
  raw: string,
  schema: MessageSchema<T> | undefined,
): { ok: true; value: T } | { ok: false; error: unknown } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, error };
  }
  if (!schema) return { ok: true, value: value as T };
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: parsed.error };
}

/** Injection token of the MessageBus. */
export const MESSAGE_BUS = Symbol('MESSAGE_BUS');

/** Retry delay for a failing handler: doubling from 250 ms, capped, with jitter. */
export function retryDelayMs(attempt: number, capMs = 15_000): number {
  const base = Math.min(capMs, 250 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base / 2 + Math.random() * (base / 2));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
