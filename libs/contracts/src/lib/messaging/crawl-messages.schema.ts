import { z } from 'zod';

/**
 * Work of crawls and batch scrapes on `crawl.tasks`: a kickoff (robots.txt, sitemaps, start URL into
 * the frontier) or one frontier page. Messages carry ids only; the frontier row is the truth.
 */
export const crawlTaskMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('kickoff'), crawlId: z.uuid(), teamId: z.uuid() }),
  z.object({ type: z.literal('page'), crawlId: z.uuid(), teamId: z.uuid(), pageId: z.uuid() }),
]);

export type CrawlTaskMessage = z.output<typeof crawlTaskMessageSchema>;
