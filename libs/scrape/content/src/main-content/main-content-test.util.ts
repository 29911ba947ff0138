import { parseDocument } from '../dom/parse-document.util';
import { htmlToMarkdown } from '../markdown/html-to-markdown.util';
import { extractMainContent } from './extract-main-content.util';

/** Main-content markdown of a page body (as `onlyMainContent` produces it, without URL resolution). */
export function main(bodyHtml: string): string {
  const document = parseDocument(`<!doctype html><html><body>${bodyHtml}</body></html>`);
  const body = document.body;
  if (!body) throw new Error('no body');
  return htmlToMarkdown(extractMainContent(body) ?? body, { removeBase64Images: true });
}

/** A sentence about `topic`, `n` times: prose of a known length. */
export const sentence = (topic: string, n = 4) =>
  `The ${topic} needs a careful look at every step, from the first sketch to the final check, and a note on what changed. `.repeat(
    n,
  );
