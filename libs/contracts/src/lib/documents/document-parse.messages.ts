import { z } from 'zod';

import { type JobError, jobErrorSchema } from '../messaging/job-messages.schema';
import type { PageBlocks, PageMarkdown } from '../scrape/document.schema';
import type { Parser, PdfParser } from '../scrape/parsers.schema';
import { DOCUMENT_KINDS } from './document-kinds';
import { parseRequestSchema } from './parse-request.schema';

/** How a PDF is parsed: the `pdf` parser's options (docs/documents.md#pdf-parsing) without its `type`. */
export const pdfParseOptionsSchema = z.object({
  mode: z.enum(['fast', 'auto', 'ocr']),
  maxPages: z.int().min(1).optional(),
  pages: z.boolean(),
  blocks: z.boolean(),
  pageMarkers: z.boolean(),
});
export type PdfParseOptions = z.output<typeof pdfParseOptionsSchema>;

export const DEFAULT_PDF_PARSE_OPTIONS: PdfParseOptions = {
  mode: 'auto',
  pages: false,
  blocks: false,
  pageMarkers: false,
};

/**
 * The PDF parsing a request asks for (docs/documents.md#pdf-parsing): absent `parsers` means the default `pdf` parser;
 * `parsers: []` means none (null: the PDF is returned base64-encoded for a flat credit).
 */
export function pdfParseOptionsOf(parsers: readonly Parser[] | undefined): PdfParseOptions | null {
  if (parsers === undefined) return DEFAULT_PDF_PARSE_OPTIONS;
  const parser = parsers.find((entry): entry is PdfParser => entry.type === 'pdf');
  if (!parser) return null;
  return {
    mode: parser.mode,
    pages: parser.pages,
    blocks: parser.blocks,
    pageMarkers: parser.pageMarkers,
    ...(parser.maxPages ? { maxPages: parser.maxPages } : {}),
  };
}

/** The document to parse, stored in the blob store (Kafka messages stay small). */
export const documentInputSchema = z.object({
  blobKey: z.string().min(1).max(300),
  kind: z.enum(DOCUMENT_KINDS),
  filename: z.string().max(1_024).optional(),
  contentType: z.string().max(256).optional(),
  sizeBytes: z.int().min(0),
});
export type DocumentInput = z.output<typeof documentInputSchema>;

/**
 * Who gets the outcome. `job`: an upload to `POST /v2/parse`, the doc-parser owns the job (stores
 * the document and the charge, publishes the job event). `result`: a scrape worker that fetched a
 * PDF waits for the parsed content on `document.parse.results` and finishes its own scrape job.
 */
export const parseReplySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('job'), request: parseRequestSchema }),
  z.object({ type: z.literal('result') }),
]);

/** Published to `document.parse.jobs`. */
export const documentParseJobMessageSchema = z.object({
  parseId: z.uuid(),
  jobId: z.uuid(),
  /** The team of an upload job (scrape results are not stored by the doc-parser). */
  teamId: z.uuid(),
  input: documentInputSchema,
  /** PDF parsing options; null when the request disabled PDF parsing (`parsers: []`). */
  pdf: pdfParseOptionsSchema.nullable(),
  reply: parseReplySchema,
  /** Epoch ms after which nobody waits for the result any more. */
  deadline: z.number().int(),
  enqueuedAt: z.number().int(),
});
export type DocumentParseJobMessage = z.output<typeof documentParseJobMessageSchema>;

/** Published to `document.parse.results` for `result` replies; the content itself is a blob. */
export const documentParseResultEventSchema = z.object({
  parseId: z.uuid(),
  jobId: z.uuid(),
  status: z.enum(['completed', 'failed']),
  resultKey: z.string().max(300).optional(),
  error: jobErrorSchema.optional(),
  at: z.number().int(),
});
export type DocumentParseResultEvent = Omit<z.output<typeof documentParseResultEventSchema>, 'error'> & {
  error?: JobError;
};

/** What the doc-parser extracted from one document (the blob behind `resultKey`). */
export interface ParsedDocumentOutput {
  markdown: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  images?: string[];
  pages?: PageMarkdown[];
  blocks?: PageBlocks[];
  /** Title, author… from the document's own metadata; numPages/totalPages for PDFs. */
  metadata: Record<string, string | string[] | number>;
  /** PDF pages parsed (billing: one credit each); absent for other kinds. */
  pdfPages?: number;
  /** Text source and status of every PDF page (metrics), whether or not `blocks` were asked for. */
  pageSummary?: { source: string; status: 'ok' | 'partial' | 'failed' }[];
  warning?: string;
}
