import { posix } from 'node:path';

import {
  hasFormat,
  looksLikePdf,
  pdfParseOptionsOf,
  type ScrapeDocument,
  type ScrapeRequest,
} from '@quarry/contracts';
import {
  type ContentHandler,
  type EngineContext,
  type FetchedPage,
  type HandledContent,
  needsMarkdownForOthers,
} from '@quarry/scrape/engine';

import type { RemoteDocumentParser } from './remote-document-parser';

const PDF_TYPES = /^application\/(x-)?pdf\b/i;

/**
 * Scraped PDFs (by content type or `%PDF` signature). With the `pdf` parser (the default) the file
 * is parsed by the doc-parser and billed per page; with `parsers: []` it is returned base64-encoded
 * in `markdown` for one credit. `markdown` is present under the same rule as for HTML pages. HTML pages never reach this handler, so a PDF parser option on
 * them has no effect.
 */
export class PdfContentHandler implements ContentHandler {
  readonly name = 'pdf';

  constructor(private readonly remote: RemoteDocumentParser) {}

  canHandle(page: FetchedPage): boolean {
    return PDF_TYPES.test(page.contentType ?? '') || looksLikePdf(page.body);
  }

  async build(page: FetchedPage, request: ScrapeRequest, context: EngineContext): Promise<HandledContent> {
    const metadata: ScrapeDocument['metadata'] = {
      sourceURL: request.url,
      url: page.url,
      statusCode: page.status,
      contentType: 'application/pdf',
      scrapeId: context.jobId,
      proxyUsed: 'basic',
      engine: page.engine,
    };
    if (hasFormat(request.formats, 'rawBase64'))
      return { document: { rawBase64: page.body.toString('base64'), metadata }, billing: { rawPdf: true } };
    // As for HTML: markdown only when asked for, or read by a derived format (whose enricher drops it after).
    const markdownWanted =
      hasFormat(request.formats, 'markdown') ||
      needsMarkdownForOthers(request) ||
      request.onlyCleanContent ||
      request.redactPII !== false;
    const parser = pdfParseOptionsOf(request.parsers);
    if (!parser) {
      const raw: ScrapeDocument = { metadata };
      if (markdownWanted) raw.markdown = page.body.toString('base64');
      return { document: raw, billing: { rawPdf: true } };
    }
    const output = await this.remote.parse(
      { data: page.body, kind: 'pdf', filename: fileName(page.url), contentType: 'application/pdf' },
      parser,
      {
        jobId: context.jobId,
        teamId: (context as EngineContext & { teamId: string }).teamId,
        deadline: context.deadline ?? Date.now() + context.timeoutMs,
        signal: context.signal,
      },
    );
    const document: ScrapeDocument = { metadata: { ...output.metadata, ...metadata } };
    if (markdownWanted) document.markdown = output.markdown;
    if (output.pages) document.pages = output.pages;
    if (output.blocks) document.blocks = output.blocks;
    if (hasFormat(request.formats, 'links')) document.links = [];
    if (hasFormat(request.formats, 'images')) document.images = [];
    if (output.warning) document.warning = output.warning;
    return { document, billing: { pdfPages: Math.max(1, output.pdfPages ?? 1) } };
  }
}

function fileName(url: string): string {
  try {
    return decodeURIComponent(posix.basename(new URL(url).pathname)) || 'document.pdf';
  } catch {
    return 'document.pdf';
  }
}
