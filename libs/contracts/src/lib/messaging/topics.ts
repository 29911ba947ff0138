/**
 * How long Kafka keeps the messages of a transient topic: the topics of synchronous work, whose
 * messages are useless once the request that published them has been answered (a request waits at
 * most a few minutes). They carry zero-data-retention payloads — the request with its URL and
 * headers on `scrape.jobs`, the whole document on `job.events` — which must not outlive delivery,
 * so the broker's default retention (usually 7 days) is overridden at topic creation.
 */
export const TRANSIENT_TOPIC_RETENTION_MS = 60 * 60 * 1000;
/**
 * Segment roll time of a transient topic. Kafka deletes whole segments, and an unrolled segment
 * (default `segment.ms` 7 days) keeps expired messages while newer ones keep arriving: a message is
 * gone at most this long (plus the broker's retention check interval) after its retention expired.
 */
export const TRANSIENT_TOPIC_SEGMENT_MS = 10 * 60 * 1000;

import type { z } from 'zod';

import { agentWorkMessageSchema } from '../agent/agent-messages.schema';
import {
  documentParseJobMessageSchema,
  documentParseResultEventSchema,
} from '../documents/document-parse.messages';
import { interactCallMessageSchema } from '../interact/interact-messages.schema';
import { monitorCheckMessageSchema } from '../monitor/monitor-request.schema';
import { crawlTaskMessageSchema } from './crawl-messages.schema';
import { jobEventSchema, scrapeJobMessageSchema } from './job-messages.schema';

const transient = {
  retentionMs: TRANSIENT_TOPIC_RETENTION_MS,
  segmentMs: TRANSIENT_TOPIC_SEGMENT_MS,
} as const;

export interface TopicSpec {
  name: string;
  partitions: number;
  /** Kafka `retention.ms`/`segment.ms` of a transient topic (and its dead-letter topic); absent: broker defaults. */
  retentionMs?: number;
  segmentMs?: number;
}

/** A topic with the contract of its payload: publishers are typed by it and checked against it, consumers get its output. */
export interface TopicDefinition<S extends z.ZodType = z.ZodType> extends TopicSpec {
  schema: S;
}

/**
 * Kafka topics (without the deployment's prefix, see BUS_TOPIC_PREFIX), each defined once with its
 * payload schema. Partition counts are the defaults created at start; consumers scale up to that
 * many instances per group.
 */
export const TOPICS = {
  /** One message per synchronous scrape (`/v2/scrape`, search results); crawl and batch pages use crawlTasks. */
  scrapeJobs: { name: 'scrape.jobs', partitions: 12, ...transient, schema: scrapeJobMessageSchema },
  /** Small completion/progress events; every gateway replica follows them to wake waiting requests. */
  jobEvents: { name: 'job.events', partitions: 3, ...transient, schema: jobEventSchema },
  /** Documents to parse (PDFs fetched by scrapes, uploads to /v2/parse), consumed by the doc-parser. */
  documentParseJobs: {
    name: 'document.parse.jobs',
    partitions: 6,
    ...transient,
    schema: documentParseJobMessageSchema,
  },
  /** Parsed-content announcements for the scrape workers waiting on a PDF they fetched. */
  documentParseResults: {
    name: 'document.parse.results',
    partitions: 3,
    ...transient,
    schema: documentParseResultEventSchema,
  },
  /** Crawl and batch work: kickoffs and frontier pages (ids only; the frontier in PostgreSQL is the truth). */
  crawlTasks: { name: 'crawl.tasks', partitions: 12, schema: crawlTaskMessageSchema },
  /** Agent runs: `advance` a run by one step, or run one sub-agent task (see agentWorkMessageSchema). */
  agentWork: { name: 'agent.work', partitions: 6, schema: agentWorkMessageSchema },
  /** Monitor checks to run or continue (see monitorCheckMessageSchema), consumed by the agent orchestrators. */
  monitorChecks: { name: 'monitor.checks', partitions: 6, schema: monitorCheckMessageSchema },
  /** Calls on interact sessions (execute, stop), keyed by session id: a session's calls reach one worker. Synchronous, so transient. */
  interactCalls: { name: 'interact.calls', partitions: 6, ...transient, schema: interactCallMessageSchema },
} as const satisfies Record<string, TopicDefinition>;

export type TopicKey = keyof typeof TOPICS;
/** What a publisher may put on a topic: the input of the topic's schema. */
export type TopicPayload<K extends TopicKey> = z.input<(typeof TOPICS)[K]['schema']>;
/** What a consumer of a topic receives: the output of the topic's schema. */
export type TopicMessage<K extends TopicKey> = z.output<(typeof TOPICS)[K]['schema']>;

/** Consumer groups: one group per role, so each message is handled once per role. */
export const CONSUMER_GROUPS = {
  scrapeWorkers: 'scrape-workers',
  docParsers: 'doc-parsers',
  crawlWorkers: 'crawl-workers',
  agentOrchestrators: 'agent-orchestrators',
  monitorRunners: 'monitor-runners',
  interactWorkers: 'interact-workers',
} as const;
