import { CONSUMER_GROUPS } from '@quarry/contracts';

import type { DashboardSpec } from './builder';
import { jobPanels, kinds, links, R } from './dashboard-panels';

/** Quarry / Crawl (see dashboards.ts for the labels). */
export const CRAWL_DASHBOARD: DashboardSpec = {
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
};
