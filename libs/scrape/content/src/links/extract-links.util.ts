import { documentBaseUrl } from '../clean/resolve-urls.util';
import { parseDocument } from '../dom/parse-document.util';
import { collectLinks } from './collect-links.util';

/**
 * Absolute http(s) links of a raw HTML page, resolved against `<base href>` or `baseUrl`, de-duplicated
 * in document order. Crawl link discovery reads the raw page, not the cleaned content.
 */
export function extractLinks(html: string, baseUrl: string): string[] {
  const document = parseDocument(html);
  return collectLinks(document, documentBaseUrl(document, baseUrl));
}
