import { hasFormat, type ScrapeDocument, type ScrapeRequest } from '@quarry/contracts';
import type { DocumentEnricher, EnrichmentContext } from '@quarry/scrape/engine';

import { enrichmentTasks } from '../tasks/page-tasks';
import { pageHtml } from './page-html.util';

/** `product` format (docs/scraping.md#formats): null when the page shows no product. */
export class ProductEnricher implements DocumentEnricher {
  readonly name = 'product';

  appliesTo(request: ScrapeRequest): boolean {
    return hasFormat(request.formats, 'product');
  }

  async enrich(document: ScrapeDocument, _request: ScrapeRequest, context: EnrichmentContext): Promise<void> {
    const html = pageHtml(context.page);
    document.product = html
      ? ((await enrichmentTasks(context)('product', html, document.metadata.url)) as Record<
          string,
          unknown
        > | null)
      : null;
  }
}
