import type { ScrapeDocument } from '@quarry/contracts';
import { BLOCKED_TARGET_ERROR } from '@quarry/platform/net';

/**
 * What a scraped document is, for the places that store outcomes:
 * - `page`: a page of the target, stored, cached, indexed and billed as usual;
 * - `refused`: the answer for a target the outbound guard refused (HTTP 200, `statusCode` 403,
 *   "Blocked insecure target URL…"): kept only as the job's answer, never cached, indexed or billed;
 * - `error-page`: what a browser showed instead of the target (`chrome-error://chromewebdata/`,
 *   `about:blank`…): never stored at all.
 * The engines already answer refusals and error pages this way; the stores enforce it again so
 * that no engine can leak one into the cache, the search index or the ledger.
 */
export type PageVerdict = 'page' | 'refused' | 'error-page';

export function pageVerdict(document: ScrapeDocument, url = document.metadata.url): PageVerdict {
  const metadata = document.metadata;
  if (!/^https?:\/\//i.test(url ?? '')) return 'error-page';
  if (
    metadata.statusCode === 403 &&
    typeof metadata.error === 'string' &&
    metadata.error.startsWith(BLOCKED_TARGET_ERROR)
  )
    return 'refused';
  return 'page';
}
