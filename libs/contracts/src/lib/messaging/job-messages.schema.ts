import { z } from 'zod';

import { AppError } from '../errors/app-error';
import { ERROR_CATALOG, type ErrorCode } from '../errors/error-catalog';
import type { ScrapeDocument } from '../scrape/document.schema';
import { scrapeRequestSchema } from '../scrape/scrape-request.schema';

export const JOB_KINDS = [
  'scrape',
  'batch_scrape',
  'crawl',
  'map',
  'search',
  'parse',
  'extract',
  'agent',
  'interact',
] as const;
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

export const jobErrorSchema = z.object({
  code: errorCodeSchema,
  message: z.string(),
  details: z.unknown().optional(),
  /** The `Retry-After` of the error (e.g. 429 `Concurrency limit reached`), carried to the gateway that answers. */
  retryAfterSeconds: z.number().int().min(0).optional(),
});
export type JobError = { code: ErrorCode; message: string; details?: unknown; retryAfterSeconds?: number };

/** The reportable parts of an AppError, as a job's outcome and event carry them. */
export function jobErrorOf(error: AppError): JobError {
  const out: JobError = { code: error.code, message: error.message };
  if (error.details !== undefined) out.details = error.details;
  if (error.retryAfterSeconds !== undefined) out.retryAfterSeconds = error.retryAfterSeconds;
  return out;
}

/** The AppError a gateway answers for a failed job (UNKNOWN_ERROR when the outcome carries none). */
export function appErrorOf(error: JobError | undefined): AppError {
  return new AppError(error?.code ?? 'UNKNOWN_ERROR', {
    message: error?.message,
    details: error?.details,
    retryAfterSeconds: error?.retryAfterSeconds,
  });
}

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
