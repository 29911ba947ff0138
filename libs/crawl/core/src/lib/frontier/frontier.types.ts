import type { CrawlerOptions, JobStatus, ScrapeRequest, WebhookSettings } from '@quarry/contracts';

export type CollectionKind = 'crawl' | 'batch_scrape';

export const PAGE_STATUSES = [
  'queued',
  'dispatched',
  'completed',
  'failed',
  'robots_blocked',
  'duplicate',
  'skipped',
  'alias',
] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];

/** What a collection's workers need, stored once with it (`crawls.options`). */
export interface CollectionOptions {
  /** Crawler options of a crawl (absent for a batch). */
  crawler?: CrawlerOptions;
  /** The scrape request every page runs, minus its URL. */
  request: Omit<ScrapeRequest, 'url'>;
  /** Whether the caller asked for rawHtml (crawls add it for link discovery and strip it again). */
  wantsRawHtml: boolean;
  origin: string;
  integration?: string;
  prompt?: string;
}

export interface CollectionRow {
  id: string;
  teamId: string;
  apiKeyId: string | null;
  kind: CollectionKind;
  url: string | null;
  options: CollectionOptions;
  pageLimit: number;
  maxConcurrency: number;
  delayMs: number;
  frontierSize: number;
  completedCount: number;
  webhook: WebhookSettings | null;
  kickedOffAt: Date | null;
  createdAt: Date;
  jobStatus: JobStatus;
  zeroDataRetention: boolean;
}

export interface PageRow {
  id: string;
  crawlId: string;
  teamId: string;
  url: string;
  urlKey: string;
  origin: string;
  depth: number;
  trapRun: number;
  status: PageStatus;
  attempts: number;
  /** Runs that ended without an outcome (their worker died): a page with any runs alone (SuspectGate). */
  starts: number;
  jobStatus: JobStatus;
  /** Rows in the crawl's frontier when the page was loaded. */
  frontierSize: number;
}

/** A row to add to the frontier. */
export interface NewPage {
  url: string;
  urlKey: string;
  origin: string;
  depth: number;
  trapRun: number;
  /** Discovery order within the depth (lower first). */
  rank: number;
  status: Extract<PageStatus, 'queued' | 'robots_blocked' | 'alias'>;
}
