import type { DashboardSpec } from './builder';
import { links, processPanels, R } from './dashboard-panels';

/** Quarry / Gateway (see dashboards.ts for the labels). */
export const GATEWAY_DASHBOARD: DashboardSpec = {
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
};
