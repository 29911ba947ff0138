import { hasFormat, type ScrapeDocument, type ScrapeRequest } from '@quarry/contracts';
import type { ContentTransformer, OutputFormat } from '@quarry/scrape/content';
import type { FetchedPage } from './engine.types';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  410: 'Gone',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * Turns a fetched page into the API document for the requested formats (spec §2.2, §2.4); decoding
 * and the content pipeline run on `transformer` (worker threads in the services), within `deadline`.
 */
export async function buildDocument(
  page: FetchedPage,
  request: ScrapeRequest,
  scrapeId: string,
  transformer: ContentTransformer,
  deadline: number,
): Promise<ScrapeDocument> {
  const formats = request.formats;
  const contentType = page.contentType ?? 'application/octet-stream';
  const wanted: OutputFormat[] = [];
  if (hasFormat(formats, 'markdown') || needsMarkdownForOthers(request)) wanted.push('markdown');
  if (hasFormat(formats, 'html')) wanted.push('html');
  if (hasFormat(formats, 'links')) wanted.push('links');
  if (hasFormat(formats, 'images')) wanted.push('images');
  const rawHtml = hasFormat(formats, 'rawHtml');
  const transformed = await transformer.transform(
    page.text === undefined
      ? { body: page.body, url: page.url, contentType: page.contentType, keepText: rawHtml }
      : { text: page.text, url: page.url, contentType: page.contentType },
    wanted,
    {
      onlyMainContent: request.onlyMainContent,
      includeTags: request.includeTags,
      excludeTags: request.excludeTags,
      removeBase64Images: request.removeBase64Images,
    },
    deadline,
  );
  const document: ScrapeDocument = {
    metadata: {
      ...transformed.metadata,
      sourceURL: request.url,
      url: page.url,
      statusCode: page.status,
      contentType,
      scrapeId,
      proxyUsed: 'basic',
      engine: page.engine,
      ...(page.status >= 400 ? { error: STATUS_TEXT[page.status] ?? `HTTP ${page.status}` } : {}),
    },
  };
  if (wanted.includes('markdown')) document.markdown = transformed.markdown ?? '';
  if (hasFormat(formats, 'html')) document.html = transformed.html ?? '';
  if (rawHtml) document.rawHtml = page.text ?? transformed.text ?? '';
  if (hasFormat(formats, 'links')) document.links = transformed.links ?? [];
  if (hasFormat(formats, 'images')) document.images = transformed.images ?? [];
  // The original HTTP response body, never a rendered DOM.
  if (hasFormat(formats, 'rawBase64'))
    document.rawBase64 = (page.responseBody ?? page.body).toString('base64');
  return document;
}

/** Formats computed from the markdown even when markdown itself was not asked for. */
export function needsMarkdownForOthers(request: ScrapeRequest): boolean {
  return request.formats.some((format) =>
    ['summary', 'json', 'question', 'highlights', 'query', 'changeTracking'].includes(format.type),
  );
}

/** The document answered for a target the outbound guard refused (compat §7.1: HTTP 200, statusCode 403). */
export function blockedDocument(request: ScrapeRequest, scrapeId: string, reason: string): ScrapeDocument {
  return {
    ...(hasFormat(request.formats, 'markdown') ? { markdown: '' } : {}),
    metadata: {
      sourceURL: request.url,
      url: request.url,
      statusCode: 403,
      error: reason,
      scrapeId,
      proxyUsed: 'basic',
    },
  };
}
