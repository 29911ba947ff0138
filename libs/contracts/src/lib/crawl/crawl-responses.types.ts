import type { ScrapeDocument } from '../scrape/document.schema';

/** Status of a crawl or batch as the API reports it (compat §8.2). */
export type CollectionStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';

export interface CollectionStatusResponse {
  success: true;
  status: CollectionStatus;
  completed: number;
  total: number;
  creditsUsed: number;
  expiresAt: string;
  next?: string;
  data: ScrapeDocument[];
  createdAt?: string;
  completedAt?: string;
  /** Seconds between creation and completion. */
  duration?: number;
  warning?: string;
  error?: string;
}

export interface CollectionStartResponse {
  success: true;
  id: string;
  url: string;
  invalidURLs?: string[];
}

export interface CollectionErrorsResponse {
  errors: { id: string; timestamp?: string; url: string; code?: string; error: string }[];
  robotsBlocked: string[];
}

export interface ActiveCrawl {
  id: string;
  teamId: string;
  url: string;
  created_at: string;
  options: Record<string, unknown>;
}

export interface ActiveCrawlsResponse {
  success: true;
  crawls: ActiveCrawl[];
}

/** Frames of the WebSocket watcher (compat §18). */
export type WatcherFrame =
  | { type: 'catchup'; data: Omit<CollectionStatusResponse, 'success'> & { success: boolean } }
  | { type: 'document'; data: ScrapeDocument }
  | {
      type: 'done';
      data: {
        status: CollectionStatus;
        completed: number;
        total: number;
        creditsUsed: number;
        expiresAt: string;
      };
    }
  | { type: 'error'; error: string };

export const ROBOTS_WARNING =
  'One or more pages were unable to be crawled because the robots.txt file prevented this. Please use the /scrape endpoint instead.';
