import { CONSUMER_GROUPS } from '@quarry/contracts';

import type { DashboardSpec } from './builder';
import { jobPanels, kinds, links, processPanels, R } from './dashboard-panels';

/** Quarry / Workers (see dashboards.ts for the labels). */
export const WORKERS_DASHBOARD: DashboardSpec = {
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
};
