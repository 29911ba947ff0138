import type { DocumentMetadata, ScrapeDocument } from '@quarry/contracts';

/**
 * What a cache hit adds to the cached document: its own scrape id, billing and cache metadata, and
 * the change tracking computed for this request. Kept on the hit's job row with a reference to the
 * cached document, so `GET /v2/scrape/:id` answers the same body without a second copy of the page.
 */
export interface CachedAnswer {
  cachedDocumentId: string;
  overlay: {
    metadata: Partial<DocumentMetadata>;
    changeTracking?: ScrapeDocument['changeTracking'];
    warning?: string;
  };
}

/** The answer of a cache hit: the cached document under the hit's overlay. */
export function applyCachedAnswer(cached: ScrapeDocument, overlay: CachedAnswer['overlay']): ScrapeDocument {
  const { concurrencyQueueDurationMs: _queued, ...metadata } = cached.metadata;
  const document: ScrapeDocument = {
    ...cached,
    metadata: { ...metadata, ...overlay.metadata } as DocumentMetadata,
  };
  if (overlay.changeTracking) document.changeTracking = overlay.changeTracking;
  if (overlay.warning !== undefined) document.warning = overlay.warning;
  return document;
}

export function isCachedAnswer(result: unknown): result is CachedAnswer {
  return (
    typeof result === 'object' &&
    result !== null &&
    typeof (result as CachedAnswer).cachedDocumentId === 'string' &&
    typeof (result as CachedAnswer).overlay === 'object'
  );
}
