export { boundedMarkup } from './dom/bounded-markup.util';
export { decodeBody, normalizeCharset } from './decode/decode-body.util';
export type { DecodedBody } from './decode/decode-body.util';
export { extractLinks } from './links/extract-links.util';
export { BASE64_IMAGE_PLACEHOLDER } from './markdown/html-to-markdown.util';
export { markdownToText } from './quality/markdown-to-text.util';
export { transformDocument } from './transform/transform-document.util';
export type {
  ContentOptions,
  OutputFormat,
  TransformInput,
  TransformResult,
} from './transform/transform.types';
export { transformPage } from './workers/transform-page.util';
export type { PageInput, TransformedPage } from './workers/transform-page.util';
export {
  CONTENT_WORKER_ENTRY,
  InlineContentTransformer,
  pageTooLarge,
  runTaskInline,
  WorkerContentTransformer,
  type ContentTransformer,
  type PageTaskTable,
  type WorkerContentOptions,
} from './workers/content-transformer';
export { serveContentWorker } from './workers/content-worker.serve';
export {
  assertPageWithinLimits,
  countPage,
  DEFAULT_PAGE_LIMITS,
  PageTooLargeError,
  type PageCounts,
  type PageLimits,
} from './limits/page-limits.util';
