import { AppError, type ScrapeDocument, type ScrapeRequest } from '@quarry/contracts';
import { blockedDocument, buildDocument } from './document-builder';
import type { Engine, EngineContext } from './engine.types';
import { isBlocked, toScrapeError } from './scrape-errors';

export interface ScrapeOutcome {
  document: ScrapeDocument;
  engine: string;
  /** False when the target was refused by the outbound guard (nothing was fetched). */
  fetched: boolean;
}

export interface PipelineEngines {
  http: Engine;
  /** The Chromium engine, when one is configured. */
  browser?: Engine;
}

/**
 * One scrape from request to document: picks the engine, fetches within the job's time budget and
 * builds the requested formats. Throws AppError for failures the API reports as errors.
 */
export class ScrapePipeline {
  constructor(private readonly engines: PipelineEngines) {}

  get supportsActions(): boolean {
    return !!this.engines.browser;
  }

  async run(request: ScrapeRequest, context: EngineContext): Promise<ScrapeOutcome> {
    if ((request.actions?.length ?? 0) > 0 && !this.engines.browser) throw new AppError('SCRAPE_ACTIONS_NOT_SUPPORTED');
    const engine = this.engines.http;
    try {
      const page = await engine.fetch(request, context);
      return { document: buildDocument(page, request, context.jobId), engine: page.engine, fetched: true };
    } catch (error) {
      if (isBlocked(error)) return { document: blockedDocument(request, context.jobId, error.message), engine: engine.name, fetched: false };
      if (context.signal.aborted) throw new AppError('SCRAPE_TIMEOUT');
      throw toScrapeError(error, request.url);
    }
  }
}
