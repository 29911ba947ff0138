import {
  type ScrapeDocument,
  type ScrapeOptions,
  type ScrapeRequest,
  scrapeRequestSchema,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';

import type { ScrapeService } from '../scrape/scrape.service';

/** A search result's scrape request: the search's scrapeOptions, within what is left of its time. */
function resultScrapeRequest(
  url: string,
  options: ScrapeOptions,
  timeoutMs = options.timeout,
): ScrapeRequest {
  const { origin: _origin, integration: _integration, toolDetail: _toolDetail, ...scrapeOptions } = options;
  const timeout = Math.max(1_000, Math.min(scrapeOptions.timeout, timeoutMs));
  return scrapeRequestSchema.parse({
    ...scrapeOptions,
    url,
    timeout,
    waitFor: Math.min(scrapeOptions.waitFor, Math.floor(timeout / 2)),
  });
}

/**
 * How a search scrapes its results for the caller (inline, or started for `asyncScraping`): through
 * the scrape path of `POST /v2/scrape`, billed and cached like any scrape. Shared by v2 and v1 search.
 */
export function searchResultScrapers(scrapes: ScrapeService, auth: AuthContext) {
  return {
    scrape: async (url: string, options: ScrapeOptions, timeoutMs?: number): Promise<ScrapeDocument> =>
      (await scrapes.scrape(auth, resultScrapeRequest(url, options, timeoutMs))).data,
    start: (url: string, options: ScrapeOptions): Promise<string> =>
      scrapes.start(auth, resultScrapeRequest(url, options)),
  };
}
