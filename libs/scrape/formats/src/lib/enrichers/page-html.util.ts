import { decodeBody } from '@quarry/scrape/content';
import type { FetchedPage } from '@quarry/scrape/engine';

const HTML = /^(text\/html|application\/xhtml\+xml)/i;

/** The page's HTML (rendered DOM for browser pages), or undefined for non-HTML responses. */
export function pageHtml(page: FetchedPage | undefined): string | undefined {
  if (!page) return undefined;
  if (page.text !== undefined && HTML.test(page.contentType ?? 'text/html')) return page.text;
  if (!HTML.test(page.contentType ?? '')) return undefined;
  return decodeBody(page.body, page.contentType).text;
}
