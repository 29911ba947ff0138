import { type OutputFormat, transformDocument } from '@quarry/scrape/content';

import type { OfficeConvertOptions, OfficeOutput } from './office-output.types';

/** The base URL of an uploaded file: relative links in it resolve next to its name. */
export function uploadUrl(filename: string): string {
  return `file:///${encodeURIComponent(filename.split(/[\\/]/).pop() || 'document')}`;
}

/**
 * Runs HTML (an upload, or what a converter produced) through the scrape content pipeline, so
 * documents get the same markdown, cleaned HTML, links and images as scraped pages. Converted
 * documents are all content: the main-content filter applies to HTML uploads only.
 */
export function htmlOutput(
  html: string,
  filename: string,
  options: OfficeConvertOptions,
  converted: boolean,
  metadata: Record<string, string | string[]> = {},
): OfficeOutput {
  const wanted = new Set<OutputFormat>(['markdown']);
  for (const format of options.formats)
    if (format === 'html' || format === 'links' || format === 'images') wanted.add(format);
  const result = transformDocument(
    { body: html, url: uploadUrl(filename), contentType: 'text/html' },
    [...wanted],
    {
      onlyMainContent: converted ? false : options.onlyMainContent,
      includeTags: options.includeTags,
      excludeTags: options.excludeTags,
      removeBase64Images: options.removeBase64Images,
    },
  );
  const output: OfficeOutput = {
    markdown: (result.markdown ?? '').trim(),
    metadata: { ...result.metadata, ...metadata },
  };
  if (wanted.has('html')) output.html = result.html ?? '';
  if (options.formats.includes('rawHtml')) output.rawHtml = html;
  if (wanted.has('links')) output.links = result.links ?? [];
  if (wanted.has('images')) output.images = result.images ?? [];
  return output;
}

/** Output for converters that write markdown themselves (spreadsheets, CSV, slides). */
export function markdownOutput(
  markdown: string,
  html: string,
  options: OfficeConvertOptions,
  metadata: Record<string, string | string[]> = {},
): OfficeOutput {
  const output: OfficeOutput = { markdown: markdown.trim(), metadata };
  if (options.formats.includes('html')) output.html = html;
  if (options.formats.includes('rawHtml')) output.rawHtml = html;
  if (options.formats.includes('links')) output.links = [];
  if (options.formats.includes('images')) output.images = [];
  return output;
}
