import { z } from 'zod';

import { hasFormat } from '../scrape/formats.schema';
import {
  checkScrapeOptions,
  resolveScrapeOptions,
  scrapeOptionsShape,
} from '../scrape/scrape-options.schema';

/**
 * Options of `POST /v2/parse` (docs/documents.md#other-formats-post-v2parse): the shared scrape options without `url`, sent as the
 * multipart `options` field (a JSON string) or next to an `uploadRef`. Unknown keys are rejected.
 */
export const parseRequestSchema = z
  .strictObject({
    ...scrapeOptionsShape,
    zeroDataRetention: z.boolean().default(false),
    origin: z.string().max(256).default('api'),
    integration: z.string().max(256).optional(),
  })
  .superRefine((request, ctx) => checkScrapeOptions(request, ctx))
  .transform((request) => resolveScrapeOptions(request));

export type ParseRequestInput = z.input<typeof parseRequestSchema>;
export type ParseRequest = z.output<typeof parseRequestSchema>;

const UNSUPPORTED_FORMATS = [
  'rawBase64',
  'screenshot',
  'branding',
  'changeTracking',
  'audio',
  'video',
] as const;

/**
 * Options that make no sense for an uploaded file (docs/documents.md#other-formats-post-v2parse): answered 400
 * PARSE_UNSUPPORTED_OPTIONS. Returns one line per offending option; empty when the request is fine.
 */
export function unsupportedParseOptions(request: ParseRequest): string[] {
  const problems: string[] = [];
  for (const format of UNSUPPORTED_FORMATS) {
    if (hasFormat(request.formats, format))
      problems.push(`formats: the ${format} format is not available for parse`);
  }
  if ((request.actions?.length ?? 0) > 0)
    problems.push('actions: parse does not run a browser, so actions are not supported');
  if (request.waitFor > 0) problems.push('waitFor: parse does not load a page, so waitFor must be 0');
  if (request.location)
    problems.push('location: parse does not fetch anything, so location is not supported');
  if (request.mobile) problems.push('mobile: parse does not render pages, so mobile is not supported');
  if (request.proxy !== 'auto' && request.proxy !== 'basic')
    problems.push(`proxy: only "auto" and "basic" are accepted for parse, not "${request.proxy}"`);
  return problems;
}

/** Body of `POST /v2/parse/upload-url` (docs/documents.md#other-formats-post-v2parse). */
export const parseUploadUrlRequestSchema = z.strictObject({
  filename: z.string().trim().min(1).max(512),
  contentType: z.string().max(256).optional(),
  declaredSizeBytes: z.int().min(0).optional(),
  origin: z.string().max(256).default('api'),
  integration: z.string().max(256).optional(),
});
export type ParseUploadUrlRequest = z.output<typeof parseUploadUrlRequestSchema>;

/** Upload references of one team that may wait unparsed (per 24 h), and how long a reference lives. */
export const PARSE_UPLOADS = { maxUnparsedPerDay: 10, ttlMs: 10 * 60 * 1000 } as const;
