import { hasFormat, type ScrapeDocument, type ScrapeRequest } from '@quarry/contracts';
import type { DocumentEnricher, EnrichmentContext } from '@quarry/scrape/engine';

import { enrichmentTasks } from '../tasks/page-tasks';
import { pageHtml } from './page-html.util';

/** `menu` format (docs/scraping.md#formats): null when the page is not a menu. */
export class MenuEnricher implements DocumentEnricher {
  readonly name = 'menu';

  appliesTo(request: ScrapeRequest): boolean {
    return hasFormat(request.formats, 'menu');
  }

  async enrich(document: ScrapeDocument, _request: ScrapeRequest, context: EnrichmentContext): Promise<void> {
    const html = pageHtml(context.page);
    document.menu = html
      ? ((await enrichmentTasks(context)('menu', html, document.metadata.url)) as unknown as Record<
          string,
          unknown
        > | null)
      : null;
  }
}
