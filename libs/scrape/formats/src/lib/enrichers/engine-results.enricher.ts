import { findFormat, hasFormat, type ScrapeDocument, type ScrapeRequest } from '@quarry/contracts';
import type { DocumentEnricher, EnrichmentContext } from '@quarry/scrape/engine';

/**
 * Puts what the engine produced besides the page into the document: engine metadata (engine,
 * fallback, proxy, time zone, concurrency queueing), warnings, screenshot, action results and
 * branding. Registered first, so later enrichers see a complete document.
 */
export class EngineResultsEnricher implements DocumentEnricher {
  readonly name = 'engine-results';

  appliesTo(): boolean {
    return true;
  }

  async enrich(document: ScrapeDocument, request: ScrapeRequest, context: EnrichmentContext): Promise<void> {
    const page = context.page;
    document.metadata = { ...document.metadata, ...page?.metadata, cacheState: 'miss' };
    if (document.metadata.concurrencyLimited === undefined) document.metadata.concurrencyLimited = false;
    if (!document.metadata.concurrencyLimited) delete document.metadata.concurrencyQueueDurationMs;
    const warnings = [document.warning, ...(page?.warnings ?? [])].filter(
      (warning): warning is string => !!warning,
    );
    if (warnings.length) document.warning = warnings.join(' ');
    const artifacts = page?.artifacts ?? {};
    if (findFormat(request.formats, 'screenshot')) document.screenshot = artifacts.screenshot ?? null;
    if (hasFormat(request.formats, 'branding')) document.branding = artifacts.branding ?? null;
    if (request.actions)
      document.actions = artifacts.actions ?? {
        screenshots: [],
        scrapes: [],
        javascriptReturns: [],
        pdfs: [],
      };
  }
}
