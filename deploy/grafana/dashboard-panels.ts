import { GRAFANA_DASHBOARDS, type MetricJobKind } from '@quarry/contracts';

import type { PanelSpec } from './builder';

/** What every dashboard is built from: the rate window, `kind` selectors, links and repeated panels. */
export const R = '$__rate_interval';

/** A `kind` matcher value for some METRIC_JOB_KINDS (type-checked against the contracts). */
export const kinds = (...values: MetricJobKind[]): string => values.join('|');
/** Every kind. */
export const ALL_KINDS = '.+';

/** Links between the dashboards (the same list the console's operator view links to). */
export const links = GRAFANA_DASHBOARDS.map((dashboard) => ({ ...dashboard }));

/** Panels every service dashboard repeats for its own processes. */
export function processPanels(service: string): PanelSpec[] {
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

export function jobPanels(kindPattern: string, what: string): PanelSpec[] {
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
