/**
 * Kafka topics (without the deployment's prefix, see BUS_TOPIC_PREFIX). Partition counts are the
 * defaults created at start; consumers scale up to that many instances per group.
 */
export const TOPICS = {
  /** One message per synchronous scrape (`/v2/scrape`, search results); crawl and batch pages use crawlTasks. */
  scrapeJobs: { name: 'scrape.jobs', partitions: 12 },
  /** Small completion/progress events; every gateway replica follows them to wake waiting requests. */
  jobEvents: { name: 'job.events', partitions: 3 },
  /** Documents to parse (PDFs fetched by scrapes, uploads to /v2/parse), consumed by the doc-parser. */
  documentParseJobs: { name: 'document.parse.jobs', partitions: 6 },
  /** Parsed-content announcements for the scrape workers waiting on a PDF they fetched. */
  documentParseResults: { name: 'document.parse.results', partitions: 3 },
  /** Crawl and batch work: kickoffs and frontier pages (ids only; the frontier in PostgreSQL is the truth). */
  crawlTasks: { name: 'crawl.tasks', partitions: 12 },
  /** Agent runs: `advance` a run by one step, or run one sub-agent task (see agentWorkMessageSchema). */
  agentWork: { name: 'agent.work', partitions: 6 },
  /** Monitor checks to run or continue (see monitorCheckMessageSchema), consumed by the agent orchestrators. */
  monitorChecks: { name: 'monitor.checks', partitions: 6 },
  /** Calls on interact sessions (execute, stop), keyed by session id: a session's calls reach one worker. */
  interactCalls: { name: 'interact.calls', partitions: 6 },
} as const;

export type TopicKey = keyof typeof TOPICS;

/** Consumer groups: one group per role, so each message is handled once per role. */
export const CONSUMER_GROUPS = {
  scrapeWorkers: 'scrape-workers',
  docParsers: 'doc-parsers',
  crawlWorkers: 'crawl-workers',
  agentOrchestrators: 'agent-orchestrators',
  monitorRunners: 'monitor-runners',
  interactWorkers: 'interact-workers',
} as const;
