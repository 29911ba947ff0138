import { z } from 'zod';

/**
 * Response shapes of a scraped document (docs/scraping.md#response-document, docs/scraping.md#formats), as zod schemas with the types
 * inferred from them. The services do not validate their own answers at run time; the OpenAPI
 * document publishes these schemas and the e2e tests check real answers against them.
 */

const stringOrList = z.union([z.string(), z.array(z.string())]);

/** `data.metadata` (docs/scraping.md#response-document): the named fields, plus every other meta tag of the page. */
export const documentMetadataSchema = z
  .object({
    title: stringOrList.optional(),
    description: stringOrList.optional(),
    language: stringOrList.nullable().optional(),
    keywords: stringOrList.optional(),
    ogLocaleAlternate: z.array(z.string()).optional(),
    sourceURL: z.string(),
    url: z.string(),
    statusCode: z.int(),
    contentType: z.string().optional(),
    scrapeId: z.string().optional(),
    error: z.string().nullable().optional(),
    numPages: z.int().optional(),
    totalPages: z.int().optional(),
    proxyUsed: z.enum(['basic', 'stealth']).optional(),
    cacheState: z.enum(['hit', 'miss']).optional(),
    cachedAt: z.string().optional(),
    creditsUsed: z.number().optional(),
    timezone: z.string().optional(),
    engine: z.string().optional(),
    engineFallback: z.string().optional(),
    concurrencyLimited: z.boolean().optional(),
    concurrencyQueueDurationMs: z.number().optional(),
  })
  .catchall(z.unknown());
export type DocumentMetadata = z.infer<typeof documentMetadataSchema>;

/** `data.actions` (docs/scraping.md#response-document): results of the request's actions, each list in action order. */
export const actionResultsSchema = z.object({
  screenshots: z.array(z.string()),
  scrapes: z.array(z.object({ url: z.string(), html: z.string() })),
  javascriptReturns: z.array(z.object({ type: z.string(), value: z.unknown() })),
  pdfs: z.array(z.string()),
});
export type ActionResults = z.infer<typeof actionResultsSchema>;

/** `data.changeTracking` (docs/scraping.md#formats). */
export const changeTrackingResultSchema = z.object({
  previousScrapeAt: z.string().nullable(),
  changeStatus: z.enum(['new', 'same', 'changed', 'removed']),
  visibility: z.enum(['visible', 'hidden']),
  diff: z.string().nullable().optional(),
  json: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type ChangeTrackingResult = z.infer<typeof changeTrackingResultSchema>;

/** Items of `data.pages` (docs/scraping.md#response-document, PDFs). */
export const pageMarkdownSchema = z.object({ pageNumber: z.int().min(1), markdown: z.string() });
export type PageMarkdown = z.infer<typeof pageMarkdownSchema>;

/** Block types named in docs/documents.md#output; new types may appear, so clients (and this schema) accept any string. */
export const BLOCK_TYPES = [
  'title',
  'section_header',
  'text',
  'table',
  'formula',
  'figure',
  'caption',
  'page_number',
  'page_header',
  'page_footer',
  'list',
] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

/** One block of `data.blocks[].items` (docs/documents.md#output). */
export const layoutBlockSchema = z.object({
  id: z.string().regex(/^p\d+\.b\d+$/),
  type: z.string(),
  label: z.string().nullable(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  content: z.string(),
  markdownSpan: z.tuple([z.int(), z.int()]).nullable(),
  readingOrder: z.int(),
  source: z.string().nullable(),
  confidence: z.object({ layout: z.number().nullable(), ocr: z.number().nullable() }),
});
export type LayoutBlock = z.infer<typeof layoutBlockSchema>;

/** Items of `data.blocks` (docs/documents.md#output): one per page. */
export const pageBlocksSchema = z.object({
  pageNumber: z.int().min(1),
  width: z.number().nullable(),
  height: z.number().nullable(),
  status: z.enum(['ok', 'partial', 'failed']),
  items: z.array(layoutBlockSchema),
});
export type PageBlocks = z.infer<typeof pageBlocksSchema>;

const nullableString = z.string().nullable().optional();
const extractedObject = z.record(z.string(), z.unknown()).nullable().optional();

/** `data` of a scrape (docs/scraping.md#response-document): the requested formats and `metadata`. */
export const scrapeDocumentSchema = z.object({
  markdown: z.string().optional(),
  summary: nullableString,
  html: nullableString,
  rawHtml: nullableString,
  rawBase64: nullableString,
  screenshot: nullableString,
  audio: nullableString,
  video: nullableString,
  links: z.array(z.string()).optional(),
  images: z.array(z.string()).optional(),
  answer: nullableString,
  highlights: nullableString,
  json: z.unknown().optional(),
  attributes: z
    .array(z.object({ selector: z.string(), attribute: z.string(), values: z.array(z.string()) }))
    .optional(),
  actions: actionResultsSchema.nullable().optional(),
  changeTracking: changeTrackingResultSchema.nullable().optional(),
  branding: extractedObject,
  product: extractedObject,
  menu: extractedObject,
  pages: z.array(pageMarkdownSchema).nullable().optional(),
  blocks: z.array(pageBlocksSchema).nullable().optional(),
  warning: nullableString,
  metadata: documentMetadataSchema,
});
export type ScrapeDocument = z.infer<typeof scrapeDocumentSchema>;

/** The 200 answer of `POST /v2/scrape` and `GET /v2/scrape/:id` (docs/scraping.md#response-document). */
export const scrapeResponseSchema = z.object({
  success: z.literal(true),
  data: scrapeDocumentSchema,
  scrape_id: z.string().optional(),
});
export type ScrapeResponse = z.infer<typeof scrapeResponseSchema>;
