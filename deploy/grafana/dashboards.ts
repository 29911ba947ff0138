/**
 * The Grafana dashboards, as code, one module per dashboard (dashboard-*.ts, their shared panels and
 * selectors in dashboard-panels.ts). Every query is written there once; deploy/grafana/generate.ts
 * writes the JSON the chart ships (deploy/helm/quarry/files/dashboards). Metric names are the ones
 * declared in libs/platform/observability (PlatformMetrics); a test scrapes the running services and
 * fails when a query names a metric no service exports.
 *
 * Labels: `service` is the process's SERVICE_NAME (gateway, scrape-worker, …), `instance` the
 * scraped target; `kind` the job kind — only values of the contracts' METRIC_JOB_KINDS (the job
 * kinds, and `crawl_page` / `batch_scrape_page` for the pages of a collection), which the metrics
 * accept and `kinds()` (dashboard-panels.ts) builds the selectors from.
 */
import type { DashboardSpec } from './builder';
import { AGENT_DASHBOARD } from './dashboard-agent';
import { CRAWL_DASHBOARD } from './dashboard-crawl';
import { GATEWAY_DASHBOARD } from './dashboard-gateway';
import { OVERVIEW_DASHBOARD } from './dashboard-overview';
import { WORKERS_DASHBOARD } from './dashboard-workers';

export const DASHBOARDS: DashboardSpec[] = [
  OVERVIEW_DASHBOARD,
  GATEWAY_DASHBOARD,
  WORKERS_DASHBOARD,
  CRAWL_DASHBOARD,
  AGENT_DASHBOARD,
];
