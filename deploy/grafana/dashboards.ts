/**
 * The Grafana dashboards, as code. Every query is written here once; deploy/grafana/generate.ts
 * writes the JSON the chart ships (deploy/helm/quarry/files/dashboards). Metric names are the ones
 * declared in libs/platform/observability (PlatformMetrics); a test scrapes the running services and
 * fails when a query names a metric no service exports.
 *
 * Labels: `service` is the process's SERVICE_NAME (gateway, scrape-worker, …), `instance` the
 * scraped target; `kind` the job kind — only values of the contracts' METRIC_JOB_KINDS (the job
 * kinds, and `crawl_page` / `batch_scrape_page` for the pages of a collection), which the metrics
 * accept and `kinds()` below builds the selectors from.
 */
import { CONSUMER_GROUPS, GRAFANA_DASHBOARDS, type MetricJobKind } from '@quarry/contracts';
import type { DashboardSpec, PanelSpec } from './builder';

const R = '$__rate_interval';

/** A `kind` matcher value for some METRIC_JOB_KINDS (type-checked against the contracts). */
const kinds = (...values: MetricJobKind[]): string => values.join('|');
/** Every kind. */
const ALL_KINDS = '.+';

/** Links between the dashboards (the same list the console's operator view links to). */
const links = GRAFANA_DASHBOARDS.map((dashboard) => ({ ...dashboard }));

/** Panels every service dashboard repeats for its own processes. */
function processPanels(service: string): PanelSpec[] {
  const sel = `service=~"${service}"`;
  return [
    {
      title: 'CPU per instance',
      description: 'CPU seconds per second used by each process.',
      unit: 'percentunit',
      queries: [
        {
          expr: `sum by (instance) (rate(quarry_process_process_cpu_seconds_total{${sel}}[${R}]))`,
          legend: '{{instance}}',
        },
      ],
      width: 8,
    },
    {
      title: 'Resident memory per instance',
      description: 'Resident set size of each process.',
      unit: 'bytes',
      queries: [
        {
          expr: `max by (instance) (quarry_process_process_resident_memory_bytes{${sel}})`,
          legend: '{{instance}}',
        },
      ],
      width: 8,
    },
    {
      title: 'Event loop lag p99',
      description: 'A busy or blocked event loop delays every request and message of the process.',
      unit: 's',
      queries: [
        {
          expr: `max by (instance) (quarry_process_nodejs_eventloop_lag_p99_seconds{${sel}})`,
          legend: '{{instance}}',
        },
      ],
      width: 8,
    },
  ];
}

function jobPanels(kindPattern: string, what: string): PanelSpec[] {
  const sel = `kind=~"${kindPattern}"`;
  return [
    {
      title: `${what} finished per second`,
      description: 'Jobs finished by the workers, by kind and outcome (completed, failed, cancelled…).',
      unit: 'ops',
      stack: true,
      queries: [
        {
          expr: `sum by (kind, outcome) (rate(quarry_jobs_finished_total{${sel}}[${R}]))`,
          legend: '{{kind}} {{outcome}}',
        },
      ],
    },
    {
      title: `${what} pending`,
      description:
        'Jobs not finished yet across the deployment (counted in the database): queued and active.',
      queries: [
        { expr: `max by (kind, status) (quarry_jobs_pending{${sel}})`, legend: '{{kind}} {{status}}' },
      ],
    },
    {
      title: `${what} running`,
      description: 'Jobs executing right now, summed over the worker processes.',
      queries: [{ expr: `sum by (kind) (quarry_jobs_running{${sel}})`, legend: '{{kind}}' }],
    },
    {
      title: `${what} duration p50 / p99`,
      description: 'Execution time of jobs (worker side), by kind.',
      unit: 's',
      queries: [
        {
          expr: `histogram_quantile(0.5, sum by (kind, le) (rate(quarry_job_duration_seconds_bucket{${sel}}[${R}])))`,
          legend: '{{kind}} p50',
        },
        {
          expr: `histogram_quantile(0.99, sum by (kind, le) (rate(quarry_job_duration_seconds_bucket{${sel}}[${R}])))`,
          legend: '{{kind}} p99',
        },
      ],
    },
    {
      title: `${what} failure ratio`,
      description: 'Failed jobs over finished jobs, by kind.',
      unit: 'percentunit',
      min: 0,
      queries: [
        {
          expr: `sum by (kind) (rate(quarry_jobs_finished_total{${sel},outcome="failed"}[${R}])) / sum by (kind) (rate(quarry_jobs_finished_total{${sel}}[${R}]))`,
          legend: '{{kind}}',
        },
      ],
    },
    {
      title: `${what} quarantined`,
      description:
        'Poison work failed for good (SCRAPE_RETRY_LIMIT) because every allowed run ended with its process dying, by kind.',
      queries: [
        { expr: `sum by (kind) (increase(quarry_work_quarantined_total{${sel}}[1h]))`, legend: '{{kind}}' },
      ],
    },
    {
      title: `Credits consumed by ${what.toLowerCase()}`,
      description: 'Credits charged per second, by job kind.',
      unit: 'short',
      stack: true,
      queries: [
        { expr: `sum by (kind) (rate(quarry_credits_consumed_total{${sel}}[${R}]))`, legend: '{{kind}}' },
      ],
    },
  ];
}

export const DASHBOARDS: DashboardSpec[] = [
  {
    uid: 'quarry-overview',
    title: 'Quarry / Overview',
    description:
      'Health of the whole deployment: traffic, errors, latency, jobs, backlog, credits, cache, dependencies.',
    tags: ['quarry'],
    links,
    rows: [
      {
        title: 'Service level',
        panels: [
          {
            title: 'Requests per second',
            description: 'HTTP requests answered by the gateways.',
            type: 'stat',
            unit: 'reqps',
            queries: [{ expr: `sum(rate(quarry_http_requests_total{service="gateway"}[${R}]))` }],
          },
          {
            title: '5xx ratio',
            description: 'Share of gateway responses with a 5xx status.',
            type: 'stat',
            unit: 'percentunit',
            thresholds: { warn: 0.01, bad: 0.05 },
            queries: [
              {
                expr: `sum(rate(quarry_http_requests_total{service="gateway",status=~"5.."}[${R}])) / sum(rate(quarry_http_requests_total{service="gateway"}[${R}]))`,
              },
            ],
          },
          {
            title: 'Scrape p99 latency',
            description: 'p99 of POST /v2/scrape (synchronous scrape through the bus).',
            type: 'stat',
            unit: 's',
            thresholds: { warn: 10, bad: 30 },
            queries: [
              {
                expr: `histogram_quantile(0.99, sum by (le) (rate(quarry_http_request_duration_seconds_bucket{service="gateway",route="/v2/scrape",method="POST"}[${R}])))`,
              },
            ],
          },
          {
            title: 'Scrape backlog',
            description:
              'Scrape jobs published but not yet handled by the scrape workers (Kafka consumer lag).',
            type: 'stat',
            thresholds: { warn: 100, bad: 1000 },
            queries: [{ expr: `max(quarry_bus_consumer_lag{group="${CONSUMER_GROUPS.scrapeWorkers}"})` }],
          },
        ],
      },
      {
        title: 'Traffic',
        panels: [
          {
            title: 'Requests by status',
            description: 'Gateway responses per second by status code.',
            unit: 'reqps',
            stack: true,
            queries: [
              {
                expr: `sum by (status) (rate(quarry_http_requests_total{service="gateway"}[${R}]))`,
                legend: '{{status}}',
              },
            ],
          },
          {
            title: 'Latency p50 / p99 by route',
            description: 'Gateway latency quantiles per route template.',
            unit: 's',
            queries: [
              {
                expr: `histogram_quantile(0.5, sum by (route, le) (rate(quarry_http_request_duration_seconds_bucket{service="gateway"}[${R}])))`,
                legend: '{{route}} p50',
              },
              {
                expr: `histogram_quantile(0.99, sum by (route, le) (rate(quarry_http_request_duration_seconds_bucket{service="gateway"}[${R}])))`,
                legend: '{{route}} p99',
              },
            ],
          },
        ],
      },
      { title: 'Jobs', panels: jobPanels(ALL_KINDS, 'Jobs') },
      {
        title: 'Bus, cache and dependencies',
        panels: [
          {
            title: 'Consumer lag by topic and group',
            description: 'Messages published but not yet committed by each consumer group.',
            queries: [
              { expr: 'max by (topic, group) (quarry_bus_consumer_lag)', legend: '{{group}} on {{topic}}' },
            ],
          },
          {
            title: 'Cache hit ratio',
            description: 'Share of scrape cache lookups answered from the cache.',
            unit: 'percentunit',
            min: 0,
            max: 1,
            queries: [
              {
                expr: `sum(rate(quarry_cache_lookups_total{result="hit"}[${R}])) / sum(rate(quarry_cache_lookups_total[${R}]))`,
                legend: 'hit ratio',
              },
            ],
          },
          {
            title: 'Dependencies up',
            description: 'Readiness checks of each service (1 = database / bus reachable).',
            min: 0,
            max: 1,
            queries: [
              {
                expr: 'min by (service, dependency) (quarry_dependency_up)',
                legend: '{{service}} {{dependency}}',
              },
            ],
          },
          {
            title: 'Instances',
            description: 'Running processes per service.',
            queries: [
              {
                expr: 'count by (service) (quarry_process_process_start_time_seconds)',
                legend: '{{service}}',
              },
            ],
          },
        ],
      },
    ],
  },
  {
    uid: 'quarry-gateway',
    title: 'Quarry / Gateway',
    description:
      'The HTTP API: rate, errors and latency by route and status; publishing to the bus; job-event following.',
    tags: ['quarry'],
    links,
    rows: [
      {
        title: 'Requests',
        panels: [
          {
            title: 'Requests by route',
            description: 'Requests per second per route template and method.',
            unit: 'reqps',
            stack: true,
            queries: [
              {
                expr: `sum by (method, route) (rate(quarry_http_requests_total{service="gateway"}[${R}]))`,
                legend: '{{method}} {{route}}',
              },
            ],
          },
          {
            title: 'Errors by route and status',
            description: 'Responses with a 4xx or 5xx status, per route and status.',
            unit: 'reqps',
            queries: [
              {
                expr: `sum by (route, status) (rate(quarry_http_requests_total{service="gateway",status=~"[45].."}[${R}]))`,
                legend: '{{status}} {{route}}',
              },
            ],
          },
          {
            title: 'Latency p99 by route',
            description: 'p99 latency per route template.',
            unit: 's',
            queries: [
              {
                expr: `histogram_quantile(0.99, sum by (route, le) (rate(quarry_http_request_duration_seconds_bucket{service="gateway"}[${R}])))`,
                legend: '{{route}}',
              },
            ],
          },
          {
            title: 'Latency p50 by route',
            description: 'Median latency per route template.',
            unit: 's',
            queries: [
              {
                expr: `histogram_quantile(0.5, sum by (route, le) (rate(quarry_http_request_duration_seconds_bucket{service="gateway"}[${R}])))`,
                legend: '{{route}}',
              },
            ],
          },
          {
            title: 'In-flight requests',
            description: 'Requests being answered right now, per gateway.',
            queries: [
              {
                expr: 'sum by (instance) (quarry_http_requests_in_flight{service="gateway"})',
                legend: '{{instance}}',
              },
            ],
          },
          {
            title: 'Rate limited and unavailable',
            description: '429 (rate limits) and 503 (a dependency down) per second.',
            unit: 'reqps',
            queries: [
              {
                expr: `sum by (status) (rate(quarry_http_requests_total{service="gateway",status=~"429|503"}[${R}]))`,
                legend: '{{status}}',
              },
            ],
          },
        ],
      },
      {
        title: 'Bus',
        panels: [
          {
            title: 'Jobs published by kind',
            description: 'Jobs the gateways published to the bus.',
            unit: 'ops',
            stack: true,
            queries: [
              {
                expr: `sum by (kind) (rate(quarry_jobs_queued_total{service="gateway"}[${R}]))`,
                legend: '{{kind}}',
              },
            ],
          },
          {
            title: 'Publish failures',
            description: 'Publishes that failed after the Kafka client retries (the request then fails).',
            unit: 'ops',
            queries: [
              {
                expr: `sum by (topic) (rate(quarry_bus_publish_failures_total{service="gateway"}[${R}]))`,
                legend: '{{topic}}',
              },
            ],
          },
          {
            title: 'Job-event lag per gateway',
            description:
              'Completion events not yet read by each gateway (a growing value delays synchronous responses).',
            queries: [
              {
                expr: 'max by (instance) (quarry_bus_consumer_lag{service="gateway",topic=~".*job\\\\.events"})',
                legend: '{{instance}}',
              },
            ],
          },
          {
            title: 'Dependencies',
            description: 'Database and bus readiness per gateway.',
            min: 0,
            max: 1,
            queries: [
              {
                expr: 'min by (instance, dependency) (quarry_dependency_up{service="gateway"})',
                legend: '{{instance}} {{dependency}}',
              },
            ],
          },
        ],
      },
      { title: 'Processes', panels: processPanels('gateway') },
    ],
  },
  {
    uid: 'quarry-workers',
    title: 'Quarry / Workers',
    description:
      'Scrape workers (jobs, durations, retries, consumer lag, the browser pool) and document parsers, with their process resources.',
    tags: ['quarry'],
    links,
    rows: [
      { title: 'Scrape jobs', panels: jobPanels(kinds('scrape'), 'Scrapes') },
      {
        title: 'Consumption',
        panels: [
          {
            title: 'Scrape backlog (consumer lag)',
            description:
              'Scrape jobs published but not yet handled by the scrape-workers group (a job being handled counts until it is done).',
            queries: [
              {
                expr: `max by (topic) (quarry_bus_consumer_lag{group="${CONSUMER_GROUPS.scrapeWorkers}"})`,
                legend: '{{topic}}',
              },
            ],
          },
          {
            title: 'Handler attempts by outcome',
            description: 'Message handler attempts per second: ok, error (retried), invalid, dead_letter.',
            unit: 'ops',
            stack: true,
            queries: [
              {
                expr: `sum by (topic, outcome) (rate(quarry_bus_messages_consumed_total{service="scrape-worker"}[${R}]))`,
                legend: '{{topic}} {{outcome}}',
              },
            ],
          },
          {
            title: 'Handler duration p99',
            description: 'Time per handler attempt (fetch, build, store), by topic.',
            unit: 's',
            queries: [
              {
                expr: `histogram_quantile(0.99, sum by (topic, le) (rate(quarry_bus_handler_duration_seconds_bucket{service="scrape-worker"}[${R}])))`,
                legend: '{{topic}}',
              },
            ],
          },
          {
            title: 'Scrape duration p99 by engine',
            description: 'Job duration p99 by the engine that fetched the page (http, browser).',
            unit: 's',
            queries: [
              {
                expr: `histogram_quantile(0.99, sum by (engine, le) (rate(quarry_job_duration_seconds_bucket{kind="${kinds('scrape')}"}[${R}])))`,
                legend: '{{engine}}',
              },
            ],
          },
        ],
      },
      {
        title: 'Browser pool',
        panels: [
          {
            title: 'Browser pages in use / pool size',
            description:
              'Pages rendering right now and the pages each scrape worker may render at once (BROWSER_CONCURRENCY; 0: no browser).',
            queries: [
              {
                expr: 'sum by (instance) (quarry_browser_pages_active{service="scrape-worker"})',
                legend: '{{instance}} in use',
              },
              {
                expr: 'sum by (instance) (quarry_browser_pool_size{service="scrape-worker"})',
                legend: '{{instance}} pool size',
              },
            ],
          },
          {
            title: 'Browser pool usage',
            description:
              'Pages in use over the pool size of all scrape workers: near 100% the JavaScript pages queue for a browser page.',
            unit: 'percentunit',
            min: 0,
            max: 1,
            queries: [
              {
                expr: 'sum(quarry_browser_pages_active{service="scrape-worker"}) / sum(quarry_browser_pool_size{service="scrape-worker"})',
                legend: 'usage',
              },
            ],
          },
          {
            title: 'Browser restarts',
            description:
              'Relaunches of Chromium after it crashed or was killed, per scrape worker (an alert fires on a crash loop).',
            queries: [
              {
                expr: `sum by (instance) (increase(quarry_browser_restarts_total{service="scrape-worker"}[${R}]))`,
                legend: '{{instance}}',
              },
            ],
          },
          {
            title: 'Pages by engine',
            description:
              'Pages fetched per second by engine (http, browser), and browser fallbacks for pages that needed JavaScript.',
            unit: 'ops',
            stack: true,
            queries: [
              {
                expr: `sum by (engine, fallback) (rate(quarry_scrape_engine_total{service="scrape-worker"}[${R}]))`,
                legend: '{{engine}} fallback={{fallback}}',
              },
            ],
          },
          {
            title: 'Content workers',
            description:
              'Content worker process events per second: spawned, timeout (a page past its deadline), crashed, out_of_memory (a page over CONTENT_WORKER_MEMORY_MB), recycled (replaced after a page left it large).',
            unit: 'ops',
            queries: [
              {
                expr: `sum by (event) (rate(quarry_content_worker_events_total{service="scrape-worker"}[${R}]))`,
                legend: '{{event}}',
              },
            ],
          },
        ],
      },
      { title: 'Scrape worker processes', panels: processPanels('scrape-worker') },
      {
        title: 'Document parser',
        panels: [
          {
            title: 'Documents parsed by kind and outcome',
            description:
              'Documents the doc-parsers handled per second (PDFs fetched by scrapes, /v2/parse uploads), by document kind and outcome.',
            unit: 'ops',
            stack: true,
            queries: [
              {
                expr: `sum by (kind, outcome) (rate(quarry_documents_parsed_total{service="doc-parser"}[${R}]))`,
                legend: '{{kind}} {{outcome}}',
              },
            ],
          },
          {
            title: 'Parse duration p50 / p99 by kind',
            description:
              'Time to parse one document (text extraction, OCR of scanned pages), by document kind.',
            unit: 's',
            queries: [
              {
                expr: `histogram_quantile(0.5, sum by (kind, le) (rate(quarry_document_parse_duration_seconds_bucket{service="doc-parser"}[${R}])))`,
                legend: '{{kind}} p50',
              },
              {
                expr: `histogram_quantile(0.99, sum by (kind, le) (rate(quarry_document_parse_duration_seconds_bucket{service="doc-parser"}[${R}])))`,
                legend: '{{kind}} p99',
              },
            ],
          },
          {
            title: 'PDF pages by text source and status',
            description:
              'Pages per second by where their text came from (native_text, layout_ocr) and their status (ok, partial, failed).',
            unit: 'ops',
            stack: true,
            queries: [
              {
                expr: `sum by (source, status) (rate(quarry_document_pages_total{service="doc-parser"}[${R}]))`,
                legend: '{{source}} {{status}}',
              },
            ],
          },
          {
            title: 'Parse threads',
            description:
              'Parse worker thread events per second: spawned, timeout, crashed, out_of_memory (an alert fires when they keep crashing).',
            unit: 'ops',
            queries: [
              {
                expr: `sum by (event) (rate(quarry_document_worker_events_total{service="doc-parser"}[${R}]))`,
                legend: '{{event}}',
              },
            ],
          },
          {
            title: 'Parse backlog (consumer lag)',
            description: 'Documents published but not yet handled by the doc-parsers group.',
            queries: [
              {
                expr: `max by (topic) (quarry_bus_consumer_lag{group="${CONSUMER_GROUPS.docParsers}"})`,
                legend: '{{topic}}',
              },
            ],
          },
        ],
      },
      { title: 'Document parser processes', panels: processPanels('doc-parser') },
    ],
  },
  {
    uid: 'quarry-crawl',
    title: 'Quarry / Crawl',
    description: 'Crawls and batch scrapes (the collections and their pages), maps and searches.',
    tags: ['quarry'],
    links,
    rows: [
      {
        title: 'Crawls, batch scrapes, maps and searches',
        panels: jobPanels(kinds('crawl', 'batch_scrape', 'map', 'search'), 'Collections, maps and searches'),
      },
      {
        title: 'Pages of crawls and batch scrapes',
        panels: [
          {
            title: 'Pages finished per second',
            description:
              'Frontier pages handled by the workers (crawl.tasks), by collection kind and outcome (completed, failed, robots_blocked, …).',
            unit: 'ops',
            stack: true,
            queries: [
              {
                expr: `sum by (kind, outcome) (rate(quarry_jobs_finished_total{kind=~"${kinds('crawl_page', 'batch_scrape_page')}"}[${R}]))`,
                legend: '{{kind}} {{outcome}}',
              },
            ],
          },
          {
            title: 'Pages in progress',
            description: 'Pages being scraped right now, summed over the worker processes.',
            queries: [
              {
                expr: `sum by (kind) (quarry_jobs_running{kind=~"${kinds('crawl_page', 'batch_scrape_page')}"})`,
                legend: '{{kind}}',
              },
            ],
          },
          {
            title: 'Page duration p50 / p99',
            description: 'Time per page: scrape, link discovery, and the outcome transaction.',
            unit: 's',
            queries: [
              {
                expr: `histogram_quantile(0.5, sum by (kind, le) (rate(quarry_job_duration_seconds_bucket{kind=~"${kinds('crawl_page', 'batch_scrape_page')}"}[${R}])))`,
                legend: '{{kind}} p50',
              },
              {
                expr: `histogram_quantile(0.99, sum by (kind, le) (rate(quarry_job_duration_seconds_bucket{kind=~"${kinds('crawl_page', 'batch_scrape_page')}"}[${R}])))`,
                legend: '{{kind}} p99',
              },
            ],
          },
          {
            title: 'Webhook deliveries by outcome',
            description:
              'Webhook delivery attempts of crawls, batches, extract and agent jobs and monitor checks: delivered, retry (failed, tried again later), failed (given up) and refused (the outbound policy refused the target, e.g. after its DNS changed). Status bodies show the failures per job in webhookDelivery.',
            unit: 'ops',
            stack: true,
            queries: [
              {
                expr: `sum by (outcome) (rate(quarry_webhook_deliveries_total[${R}]))`,
                legend: '{{outcome}}',
              },
            ],
          },
          {
            title: 'Crawl task backlog',
            description:
              'Kickoffs and pages published on crawl.tasks but not yet handled by the crawl-workers group.',
            queries: [
              {
                expr: `max by (topic) (quarry_bus_consumer_lag{group="${CONSUMER_GROUPS.crawlWorkers}"})`,
                legend: '{{topic}}',
              },
            ],
          },
        ],
      },
    ],
  },
  {
    uid: 'quarry-agent',
    title: 'Quarry / Agent',
    description: 'Agent runs: lifecycle, outcomes, durations, credits and the agent work queue.',
    tags: ['quarry'],
    links,
    rows: [
      { title: 'Agent runs', panels: jobPanels(kinds('agent'), 'Agent runs') },
      {
        title: 'Agent work queue',
        panels: [
          {
            title: 'Agent runs started per second',
            description: 'Agent jobs accepted by the gateways.',
            unit: 'ops',
            queries: [
              {
                expr: `sum(rate(quarry_jobs_queued_total{kind="${kinds('agent')}"}[${R}]))`,
                legend: 'started',
              },
            ],
          },
          {
            title: 'Agent work backlog',
            description: 'Agent steps waiting in Kafka (consumer lag of the agent topics).',
            queries: [
              {
                expr: 'max by (topic, group) (quarry_bus_consumer_lag{topic=~".*agent.*"})',
                legend: '{{group}} on {{topic}}',
              },
            ],
          },
          {
            title: 'Agent step attempts by outcome',
            description: 'Agent work handler attempts per second: ok, error (retried), invalid, dead_letter.',
            unit: 'ops',
            stack: true,
            queries: [
              {
                expr: `sum by (outcome) (rate(quarry_bus_messages_consumed_total{service="agent-orchestrator",topic="agentWork"}[${R}]))`,
                legend: '{{outcome}}',
              },
            ],
          },
          {
            title: 'Agent step duration p99',
            description: 'Time per agent step (plan, scrape through the bus, extract), per attempt.',
            unit: 's',
            queries: [
              {
                expr: `histogram_quantile(0.99, sum by (le) (rate(quarry_bus_handler_duration_seconds_bucket{service="agent-orchestrator",topic="agentWork"}[${R}])))`,
                legend: 'p99',
              },
            ],
          },
        ],
      },
      { title: 'Processes', panels: processPanels('agent-orchestrator') },
    ],
  },
];
