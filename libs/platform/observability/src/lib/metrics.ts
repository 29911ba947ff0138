import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

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
  readonly httpDuration = new Histogram({
    name: 'quarry_http_request_duration_seconds',
    help: 'HTTP request latency, by route template, method and status code.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });
  readonly jobsQueued = new Counter({
    name: 'quarry_jobs_queued_total',
    help: 'Jobs published to the bus, by job kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly jobsRunning = new Gauge({
    name: 'quarry_jobs_running',
    help: 'Jobs being executed by this process, by job kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly jobsFinished = new Counter({
    name: 'quarry_jobs_finished_total',
    help: 'Jobs finished by this process, by job kind and outcome (completed, failed, cancelled).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly jobDuration = new Histogram({
    name: 'quarry_job_duration_seconds',
    help: 'Execution time of jobs, by job kind and engine.',
    labelNames: ['kind', 'engine'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });
  readonly creditsConsumed = new Counter({
    name: 'quarry_credits_consumed_total',
    help: 'Credits charged, by job kind.',
    labelNames: ['kind'] as const,
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
    help: 'Messages handled from the bus, by topic and outcome (ok, error, invalid).',
    labelNames: ['topic', 'outcome'] as const,
    registers: [this.registry],
  });

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

  constructor(options: { service: string; defaultMetrics?: boolean }) {
    this.registry.setDefaultLabels({ service: options.service });
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'quarry_process_' });
  }
}
