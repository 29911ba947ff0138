import { decodeBody } from '../decode/decode-body.util';
import { assertPageWithinLimits, type PageLimits } from '../limits/page-limits.util';
import type { ContentOptions, OutputFormat, TransformResult } from '../transform/transform.types';
import { transformDocument } from '../transform/transform-document.util';

/** A fetched page as the content pipeline takes it: raw bytes (decoded here) or text a browser produced. */
export interface PageInput {
  body?: Uint8Array;
  text?: string;
  url: string;
  contentType?: string;
  /** Return the decoded text too (rawHtml, link discovery). */
  keepText?: boolean;
}

export interface TransformedPage extends TransformResult {
  /** The decoded page, when `keepText` was set. */
  text?: string;
}

/**
 * Decodes a page (charset from BOM, header or meta) and turns it into the requested formats; a page
 * past `limits` is refused (PageTooLargeError) before any DOM is built.
 */
export function transformPage(
  input: PageInput,
  formats: readonly OutputFormat[],
  options: ContentOptions,
  limits?: PageLimits,
): TransformedPage {
  const text = input.text ?? decodeBody(input.body ?? new Uint8Array(), input.contentType).text;
  if (limits) assertPageWithinLimits(text, limits);
  const result: TransformedPage = transformDocument(
    { body: text, url: input.url, contentType: input.contentType },
    formats,
    options,
  );
  if (input.keepText) result.text = text;
  return result;
}
