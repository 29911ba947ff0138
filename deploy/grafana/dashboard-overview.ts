import { CONSUMER_GROUPS } from '@quarry/contracts';

import type { DashboardSpec } from './builder';
import { ALL_KINDS, jobPanels, links, R } from './dashboard-panels';

/** Quarry / Overview (see dashboards.ts for the labels). */
export const OVERVIEW_DASHBOARD: DashboardSpec = {
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
};
