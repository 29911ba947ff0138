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
 * Turns a fetched page into the API document for the requested formats (docs/scraping.md#response-document); decoding
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
  if (isBinary(page, contentType)) return binaryDocument(page, request, scrapeId, contentType);
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

/** Media that is never text: no content handler took it (e.g. an image without the image parser). */
const BINARY_MEDIA =
  /^(image|audio|video|font)\/|^application\/(octet-stream|zip|gzip|x-tar|x-7z-compressed|vnd\.rar|wasm)\b/i;

/**
 * Binary: a media type that is never text, or — whatever the declared type — NUL bytes in the first
 * 4 KiB (the WHATWG sniffing rule for binary data), except in UTF-16 text.
 */
function isBinary(page: FetchedPage, contentType: string): boolean {
  if (BINARY_MEDIA.test(contentType)) return true;
  if (page.text !== undefined) return false;
  const head = page.body.subarray(0, 4_096);
  const utf16 =
    /charset=["']?utf-16/i.test(contentType) ||
    (head[0] === 0xff && head[1] === 0xfe) ||
    (head[0] === 0xfe && head[1] === 0xff);
  return !utf16 && head.includes(0);
}

/**
 * A binary file no handler parses: its bytes are not decoded as text (they would only give garbage,
 * and NUL characters a store cannot keep). Text formats come back empty with a warning saying why;
 * `rawBase64` still carries the file.
 */
function binaryDocument(
  page: FetchedPage,
  request: ScrapeRequest,
  scrapeId: string,
  contentType: string,
): ScrapeDocument {
  const formats = request.formats;
  const document: ScrapeDocument = {
    metadata: {
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
  if (hasFormat(formats, 'markdown') || needsMarkdownForOthers(request)) document.markdown = '';
  if (hasFormat(formats, 'html')) document.html = '';
  if (hasFormat(formats, 'rawHtml')) document.rawHtml = '';
  if (hasFormat(formats, 'links')) document.links = [];
  if (hasFormat(formats, 'images')) document.images = contentType.startsWith('image/') ? [page.url] : [];
  if (hasFormat(formats, 'rawBase64'))
    document.rawBase64 = (page.responseBody ?? page.body).toString('base64');
  if (formats.every((format) => format.type === 'rawBase64')) return document;
  const type = contentType.split(';')[0].trim();
  document.warning = type.startsWith('image/')
    ? `The target is an image (${type}) and the image parser was not requested: no text was extracted. Add "image" to parsers to OCR it.`
    : `The target is a binary file (${type}): no text was extracted.`;
  return document;
}

/** Formats computed from the markdown even when markdown itself was not asked for. */
export function needsMarkdownForOthers(request: ScrapeRequest): boolean {
  if (request.checkPromptInjection) return true;
  return request.formats.some((format) =>
    ['summary', 'json', 'question', 'highlights', 'query', 'changeTracking'].includes(format.type),
  );
}

/** The document answered for a target the outbound guard refused (docs/scraping.md#engines: HTTP 200, statusCode 403). */
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
