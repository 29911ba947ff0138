import { posix } from 'node:path';

import {
  DEFAULT_PDF_PARSE_OPTIONS,
  hasFormat,
  type ScrapeDocument,
  type ScrapeRequest,
  wantsImageParsing,
} from '@quarry/contracts';
import {
  type ContentHandler,
  type EngineContext,
  type FetchedPage,
  type HandledContent,
  needsMarkdownForOthers,
} from '@quarry/scrape/engine';

import type { RemoteDocumentParser } from './remote-document-parser';

/** Raster images the OCR engines read (by content type). */
export const OCR_IMAGE_TYPES = /^image\/(png|jpe?g|tiff|bmp|webp|gif)\b/i;

/**
 * Scraped raster images with the `image` parser (part of the default `parsers` list): OCR'd by the
 * doc-parser as a one-page document and billed as one page. Registered only when OCR is on; other
 * requests (e.g. `parsers: ["pdf"]`) leave images to the default handling.
 */
export class ImageContentHandler implements ContentHandler {
  readonly name = 'image';

  constructor(private readonly remote: RemoteDocumentParser) {}

  canHandle(page: FetchedPage, request: ScrapeRequest): boolean {
    return (
      OCR_IMAGE_TYPES.test(page.contentType ?? '') &&
      wantsImageParsing(request.parsers) &&
      !hasFormat(request.formats, 'rawBase64')
    );
  }

  async build(page: FetchedPage, request: ScrapeRequest, context: EngineContext): Promise<HandledContent> {
    const contentType = (page.contentType ?? 'image/png').split(';')[0].trim().toLowerCase();
    const output = await this.remote.parse(
      { data: page.body, kind: 'image', filename: fileName(page.url, contentType), contentType },
      DEFAULT_PDF_PARSE_OPTIONS,
      {
        jobId: context.jobId,
        teamId: context.teamId ?? '',
        deadline: context.deadline ?? Date.now() + context.timeoutMs,
        signal: context.signal,
      },
    );
    const document: ScrapeDocument = {
      metadata: {
        ...output.metadata,
        sourceURL: request.url,
        url: page.url,
        statusCode: page.status,
        contentType,
        scrapeId: context.jobId,
        proxyUsed: 'basic',
        engine: page.engine,
        numPages: 1,
      },
    };
    if (
      hasFormat(request.formats, 'markdown') ||
      needsMarkdownForOthers(request) ||
      request.onlyCleanContent
    ) {
      document.markdown = output.markdown;
    }
    if (hasFormat(request.formats, 'links')) document.links = [];
    if (hasFormat(request.formats, 'images')) document.images = [page.url];
    if (output.warning) document.warning = output.warning;
    return { document };
  }
}

function fileName(url: string, contentType: string): string {
  const extension = `.${contentType.slice('image/'.length).replace('jpeg', 'jpg')}`;
  try {
    const base = decodeURIComponent(posix.basename(new URL(url).pathname));
    return base.includes('.') ? base : `${base || 'image'}${extension}`;
  } catch {
    return `image${extension}`;
  }
}
