import { z } from 'zod';

import { scrapeDocumentSchema } from '../scrape/document.schema';
import { webhookDeliverySummarySchema } from './webhook.schema';

/** Status of a crawl or batch as the API reports it (docs/crawl.md#status-paging-cancel-errors). */
export const COLLECTION_STATUSES = ['scraping', 'completed', 'failed', 'cancelled'] as const;
export type CollectionStatus = (typeof COLLECTION_STATUSES)[number];

const collectionStatusFields = {
  status: z.enum(COLLECTION_STATUSES),
  completed: z.int(),
  total: z.int(),
  creditsUsed: z.number(),
  expiresAt: z.string(),
};

export const collectionStatusResponseSchema = z.object({
  success: z.literal(true),
  ...collectionStatusFields,
  next: z.string().optional(),
  data: z.array(scrapeDocumentSchema),
  createdAt: z.string().optional(),
  completedAt: z.string().optional(),
  /** Seconds between creation and completion. */
  duration: z.number().optional(),
  warning: z.string().optional(),
  error: z.string().optional(),
  /** With a webhook: how its deliveries fared (not read by the SDK, which keeps the fields above). */
  webhookDelivery: webhookDeliverySummarySchema.optional(),
});
export type CollectionStatusResponse = z.infer<typeof collectionStatusResponseSchema>;

export const collectionStartResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  url: z.string(),
  invalidURLs: z.array(z.string()).optional(),
});
export type CollectionStartResponse = z.infer<typeof collectionStartResponseSchema>;

/** `DELETE /v2/crawl/:id` and `/v2/batch/scrape/:id`. */
export const collectionCancelResponseSchema = z.object({ status: z.literal('cancelled') });

/**
 * `GET …/errors`. `success: true` although the reference omits it there: firecrawl-py's
 * AsyncFirecrawl raises "Unknown error" on a body without it, and no client minds the extra field.
 */
export const collectionErrorsResponseSchema = z.object({
  success: z.literal(true),
  errors: z.array(
    z.object({
      id: z.string(),
      timestamp: z.string().optional(),
      url: z.string(),
      code: z.string().optional(),
      error: z.string(),
    }),
  ),
  robotsBlocked: z.array(z.string()),
});
export type CollectionErrorsResponse = z.infer<typeof collectionErrorsResponseSchema>;

export const activeCrawlSchema = z.object({
  id: z.string(),
  teamId: z.string(),
  url: z.string(),
  created_at: z.string(),
  options: z.record(z.string(), z.unknown()),
});
export type ActiveCrawl = z.infer<typeof activeCrawlSchema>;

export const activeCrawlsResponseSchema = z.object({
  success: z.literal(true),
  crawls: z.array(activeCrawlSchema),
});
export type ActiveCrawlsResponse = z.infer<typeof activeCrawlsResponseSchema>;

/** Frames of the WebSocket watcher (docs/crawl.md#websocket-watcher). */
export type WatcherFrame =
  | { type: 'catchup'; data: Omit<CollectionStatusResponse, 'success'> & { success: boolean } }
  | { type: 'document'; data: CollectionStatusResponse['data'][number] }
  | { type: 'done'; data: Pick<CollectionStatusResponse, keyof typeof collectionStatusFields> }
  | { type: 'error'; error: string };

export const ROBOTS_WARNING =
  'One or more pages were unable to be crawled because the robots.txt file prevented this. Please use the /scrape endpoint instead.';
