import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

import type { MetricJobKind } from '@quarry/contracts';

/** Lag of one consumer group on one topic (messages published but not yet handled). */
export interface ConsumerLag {
  topic: string;
  group: string;
  lag: number;
}

/** Jobs in a non-terminal state, cluster-wide (counted in the database). */
export interface PendingJobs {
  kind: string;
  status: string;
  count: number;
}

type Source<T> = () => Promise<T[]>;

/**
 * Labels of a job metric: `kind` is one of the contracts' METRIC_JOB_KINDS (the dashboards select
 * on the same list), the other labels are free.
 */
export type JobKindLabels<Other extends string = never> = { kind: MetricJobKind } & Partial<
  Record<Other, string | number>
>;
/** A counter whose `kind` label only takes METRIC_JOB_KINDS. */
export type JobKindCounter<Other extends string = never> = Omit<Counter<'kind' | Other>, 'inc'> & {
  inc(labels: JobKindLabels<Other>, value?: number): void;
};
/** A gauge whose `kind` label only takes METRIC_JOB_KINDS. */
export type JobKindGauge = Omit<Gauge<'kind'>, 'inc' | 'dec' | 'set'> & {
  inc(labels: JobKindLabels, value?: number): void;
  dec(labels: JobKindLabels, value?: number): void;
  set(labels: JobKindLabels, value: number): void;
};
/** A histogram whose `kind` label only takes METRIC_JOB_KINDS. */
export type JobKindHistogram<Other extends string = never> = Omit<Histogram<'kind' | Other>, 'observe'> & {
  observe(labels: JobKindLabels<Other>, value: number): void;
};

/** How long a scrape of /metrics waits for a source (Kafka admin, database) before leaving it out. */
const SOURCE_TIMEOUT_MS = 2_000;
/** Sources are asked at most this often; Prometheus scrapes from several replicas are cheap. */
const SOURCE_CACHE_MS = 5_000;

/**
 * The platform's Prometheus metrics. One instance per process; every metric name starts with
 * `quarry_` and is declared here, so dashboards and alerts have one place to check against.
 */
export class PlatformMetrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'quarry_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status code.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpInFlight = new Gauge({
    name: 'quarry_http_requests_in_flight',
    help: 'HTTP requests being answered right now.',
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'quarry_http_request_duration_seconds',
    help: 'HTTP request latency, by route template, method and status code.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });
  readonly jobsQueued: JobKindCounter = new Counter({
    name: 'quarry_jobs_queued_total',
    help: 'Jobs published to the bus, by job kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly jobsPending = new Gauge({
    name: 'quarry_jobs_pending',
    help: 'Jobs not finished yet across the whole deployment (from the database), by job kind and status (queued, active).',
    labelNames: ['kind', 'status'] as const,
    registers: [this.registry],
    collect: () => this.collectPending(),
  });
  readonly workQuarantined: JobKindCounter = new Counter({
    name: 'quarry_work_quarantined_total',
    help: 'Poison work quarantined by this process (every allowed attempt ended with its process dying), by job kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly jobsRunning: JobKindGauge = new Gauge({
    name: 'quarry_jobs_running',
    help: 'Jobs being executed by this process, by job kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly jobsFinished: JobKindCounter<'outcome'> = new Counter({
    name: 'quarry_jobs_finished_total',
    help: 'Jobs finished by this process, by job kind and outcome (completed, failed, cancelled).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly jobDuration: JobKindHistogram<'engine'> = new Histogram({
    name: 'quarry_job_duration_seconds',
    help: 'Execution time of jobs, by job kind and engine.',
    labelNames: ['kind', 'engine'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });
  readonly creditsConsumed: JobKindCounter = new Counter({
    name: 'quarry_credits_consumed_total',
    help: 'Credits charged, by job kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly authKeyLookups = new Counter({
    name: 'quarry_auth_key_lookups_total',
    help: 'API keys looked up to authenticate a request, by where the answer came from (cache, database) and result (valid, unknown).',
    labelNames: ['source', 'result'] as const,
    registers: [this.registry],
  });
  readonly webhookDeliveries = new Counter({
    name: 'quarry_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome: delivered, retry (failed, tried again later), failed (given up after the last attempt), refused (the outbound policy refused the target).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly cacheLookups = new Counter({
    name: 'quarry_cache_lookups_total',
    help: 'Scrape cache lookups, by result (hit, miss).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly browserPagesActive = new Gauge({
    name: 'quarry_browser_pages_active',
    help: 'Browser pages rendering right now in this process.',
    registers: [this.registry],
  });
  readonly browserPoolSize = new Gauge({
    name: 'quarry_browser_pool_size',
    help: 'Pages this process may render at once (BROWSER_CONCURRENCY); 0 without a browser.',
    registers: [this.registry],
  });
  readonly browserRestarts = new Counter({
    name: 'quarry_browser_restarts_total',
    help: 'Relaunches of the browser after it crashed or was killed.',
    registers: [this.registry],
  });
  readonly browserRequestsRefused = new Counter({
    name: 'quarry_browser_requests_refused_total',
    help: 'Requests of browser pages refused, by reason (private-address, dns, scheme, ad).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly engineSelected = new Counter({
    name: 'quarry_scrape_engine_total',
    help: 'Pages fetched, by engine (http, browser) and whether the browser was a fallback for a page that needed JavaScript.',
    labelNames: ['engine', 'fallback'] as const,
    registers: [this.registry],
  });
  readonly busPublished = new Counter({
    name: 'quarry_bus_messages_published_total',
    help: 'Messages published to the bus, by topic.',
    labelNames: ['topic'] as const,
    registers: [this.registry],
  });
  readonly busConsumed = new Counter({
    name: 'quarry_bus_messages_consumed_total',
    help: 'Message handler attempts, by topic and outcome (ok, error = retried, invalid = undecodable, dead_letter = given up).',
    labelNames: ['topic', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly busPublishFailures = new Counter({
    name: 'quarry_bus_publish_failures_total',
    help: 'Publishes that failed after the client retries, by topic.',
    labelNames: ['topic'] as const,
    registers: [this.registry],
  });
  readonly busHandlerDuration = new Histogram({
    name: 'quarry_bus_handler_duration_seconds',
    help: 'Time spent in one message handler attempt, by topic.',
    labelNames: ['topic'] as const,
    buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });
  readonly busConsumerLag = new Gauge({
    name: 'quarry_bus_consumer_lag',
    help: 'Messages published but not yet committed, by topic and consumer group, as seen by the groups this process belongs to.',
    labelNames: ['topic', 'group'] as const,
    registers: [this.registry],
    collect: () => this.collectLag(),
  });

  readonly dependencyUp = new Gauge({
    name: 'quarry_dependency_up',
    help: 'Readiness of each dependency of this process (1 = reachable), probed when /metrics is scraped.',
    labelNames: ['dependency'] as const,
    registers: [this.registry],
    collect: () => this.collectDependencies(),
  });

  private readonly lagSources: Source<ConsumerLag>[] = [];
  private readonly pendingSources: Source<PendingJobs>[] = [];
  private dependencySource?: () => Promise<Record<string, boolean>>;
  private readonly cache = new Map<string, { at: number; value: Promise<unknown[]> }>();

  readonly documentsParsed = new Counter({
    name: 'quarry_documents_parsed_total',
    help: 'Documents handled by the doc-parser, by kind (pdf, docx, …) and outcome (completed, failed).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly documentPages = new Counter({
    name: 'quarry_document_pages_total',
    help: 'PDF pages parsed, by text source (native_text, layout_ocr) and page status (ok, partial, failed).',
    labelNames: ['source', 'status'] as const,
    registers: [this.registry],
  });
  readonly documentParseDuration = new Histogram({
    name: 'quarry_document_parse_duration_seconds',
    help: 'Time to parse one document, by kind.',
    labelNames: ['kind'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });
  readonly documentWorkerEvents = new Counter({
    name: 'quarry_document_worker_events_total',
    help: 'Parse worker thread events: spawned, timeout, crashed, out_of_memory.',
    labelNames: ['event'] as const,
    registers: [this.registry],
  });
  readonly contentWorkerEvents = new Counter({
    name: 'quarry_content_worker_events_total',
    help: 'Content worker process events (pages turned into formats): spawned, timeout, crashed, out_of_memory, recycled.',
    labelNames: ['event'] as const,
    registers: [this.registry],
  });

  /**
   * Counts `work` as one job of `kind` executed by this process: running while it runs, then its
   * duration and outcome (`completed`, or `failed` when it throws). For synchronous jobs (map,
   * search) that have no handler of their own.
   */
  async trackJob<T>(kind: MetricJobKind, engine: string, work: () => Promise<T>): Promise<T> {
    const startedAt = performance.now();
    this.jobsRunning.inc({ kind });
    let outcome = 'failed';
    try {
      const result = await work();
      outcome = 'completed';
      return result;
    } finally {
      this.jobsRunning.dec({ kind });
      this.jobsFinished.inc({ kind, outcome });
      this.jobDuration.observe({ kind, engine }, (performance.now() - startedAt) / 1000);
    }
  }

  constructor(options: { service: string; defaultMetrics?: boolean }) {
    this.registry.setDefaultLabels({ service: options.service });
    if (options.defaultMetrics !== false)
      collectDefaultMetrics({ register: this.registry, prefix: 'quarry_process_' });
  }

  /** Adds a source of consumer lag (the bus of this process). */
  reportConsumerLag(source: Source<ConsumerLag>): void {
    this.lagSources.push(source);
  }

  /** Adds a source of pending job counts (the jobs repository). */
  reportPendingJobs(source: Source<PendingJobs>): void {
    this.pendingSources.push(source);
  }

  /** Sets the probe of this process's dependencies (the readiness checks). */
  reportDependencies(source: () => Promise<Record<string, boolean>>): void {
    this.dependencySource = source;
  }

  private async collectLag(): Promise<void> {
    const entries = await this.gather('lag', this.lagSources);
    this.busConsumerLag.reset();
    for (const entry of entries)
      this.busConsumerLag.set({ topic: entry.topic, group: entry.group }, entry.lag);
  }

  private async collectPending(): Promise<void> {
    const entries = await this.gather('pending', this.pendingSources);
    this.jobsPending.reset();
    for (const entry of entries)
      this.jobsPending.set({ kind: entry.kind, status: entry.status }, entry.count);
  }

  private async collectDependencies(): Promise<void> {
    if (!this.dependencySource) return;
    const source = this.dependencySource;
    const [report] = await this.gather('dependencies', [async () => [await source()]]);
    this.dependencyUp.reset();
    for (const [name, up] of Object.entries(report ?? {}))
      this.dependencyUp.set({ dependency: name }, up ? 1 : 0);
  }

  /** Runs the sources (bounded in time, cached briefly); a failing source contributes nothing. */
  private async gather<T>(key: string, sources: Source<T>[]): Promise<T[]> {
    const cached = this.cache.get(key);
    if (cached && Date.now() - cached.at < SOURCE_CACHE_MS) return (await cached.value) as T[];
    const value = Promise.all(
      sources.map((source) => withTimeout(source(), SOURCE_TIMEOUT_MS).catch(() => [] as T[])),
    ).then((lists) => lists.flat());
    this.cache.set(key, { at: Date.now(), value });
    return value;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}
