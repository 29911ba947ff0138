import { z } from 'zod';
import type { ScrapeDocument } from '../scrape/document.types';
import { ERROR_CATALOG, type ErrorCode } from '../errors/error-catalog';
import { scrapeRequestSchema } from '../scrape/scrape-request.schema';

export const JOB_KINDS = ['scrape', 'batch_scrape', 'crawl', 'map', 'search', 'parse', 'extract', 'agent', 'interact'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const JOB_STATUSES = ['queued', 'active', 'completed', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

const errorCodeSchema = z.string().refine((code): code is ErrorCode => code in ERROR_CATALOG);

/** A page to scrape, published to `scrape.jobs`. The request was validated at the gateway. */
export const scrapeJobMessageSchema = z.object({
  jobId: z.uuid(),
  teamId: z.uuid(),
  request: scrapeRequestSchema,
  /** Epoch ms after which nobody waits for the result any more. */
  deadline: z.number().int(),
  enqueuedAt: z.number().int(),
  /**
   * Set when the scrape is work of a parent job (an agent run) that bills its own total: the
   * scrape records its price in `metadata.creditsUsed` but charges nothing itself.
   */
  parentJobId: z.uuid().optional(),
});
export type ScrapeJobMessage = z.output<typeof scrapeJobMessageSchema>;

export const jobErrorSchema = z.object({ code: errorCodeSchema, message: z.string(), details: z.unknown().optional() });
export type JobError = { code: ErrorCode; message: string; details?: unknown };

/** Published to `job.events` once a job's outcome is stored (or, for zero data retention, carried inline). */
export const jobEventSchema = z.object({
  jobId: z.uuid(),
  teamId: z.uuid(),
  kind: z.enum(JOB_KINDS),
  status: z.enum(JOB_STATUSES),
  error: jobErrorSchema.optional(),
  /** Present only for zero-data-retention jobs, whose result is never stored. */
  inlineResult: z.unknown().optional(),
  at: z.number().int(),
});
export type JobEvent = Omit<z.output<typeof jobEventSchema>, 'error' | 'inlineResult'> & {
  error?: JobError;
  inlineResult?: ScrapeDocument;
};
