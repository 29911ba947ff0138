import { JOB_KINDS, type JobKind } from './job-messages.schema';

/**
 * Units of work a worker executes that are not jobs of their own: one page of a crawl, one page of
 * a batch scrape (the frontier's pages, charged to their collection).
 */
export const PAGE_KINDS = ['crawl_page', 'batch_scrape_page'] as const;
export type PageKind = (typeof PAGE_KINDS)[number];

/** Units of work that are neither jobs nor pages: one run of a monitor's schedule. */
export const CHECK_KINDS = ['monitor_check'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

/**
 * Every value of the `kind` label of the job metrics (`quarry_jobs_*`, `quarry_job_duration_seconds`,
 * `quarry_credits_consumed_total`): the job kinds and the page kinds. The metrics accept only these,
 * and the Grafana dashboards build their selectors from them, so code and dashboards cannot drift.
 */
export const METRIC_JOB_KINDS = [...JOB_KINDS, ...PAGE_KINDS, ...CHECK_KINDS] as const;
export type MetricJobKind = JobKind | PageKind | CheckKind;

/** The page kind of a collection's pages. */
export function pageKindOf(collection: 'crawl' | 'batch_scrape'): PageKind {
  return collection === 'crawl' ? 'crawl_page' : 'batch_scrape_page';
}
