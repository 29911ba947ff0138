import type { ScrapeDocument, ScrapeRequest } from '@quarry/contracts';
import type { Engine, EngineContext, FetchedPage } from './engine.types';

/** Builds the document for responses it recognises (e.g. PDFs, office files) instead of the HTML builder. */
export interface ContentHandler {
  readonly name: string;
  canHandle(page: FetchedPage, request: ScrapeRequest): boolean;
  build(page: FetchedPage, request: ScrapeRequest, context: EngineContext): Promise<HandledContent>;
}

export interface HandledContent {
  document: ScrapeDocument;
  /** Billing facts the handler knows (parsed PDF pages, raw PDF). */
  billing?: { pdfPages?: number; rawPdf?: boolean };
}

export interface EnrichmentContext extends EngineContext {
  teamId: string;
  page?: FetchedPage;
}

/**
 * Adds formats computed from a built document (language-model formats, change tracking, product,
 * menu, branding…). Runs after the content handler, in registration order.
 */
export interface DocumentEnricher {
  readonly name: string;
  appliesTo(request: ScrapeRequest): boolean;
  enrich(document: ScrapeDocument, request: ScrapeRequest, context: EnrichmentContext): Promise<void>;
}

/** Chooses an engine for a request; the first selector that answers wins, else the HTTP engine. */
export type EngineSelector = (request: ScrapeRequest, engines: ReadonlyMap<string, Engine>) => Engine | undefined;

/**
 * Extension points of the scrape pipeline. Feature modules register into it at start
 * (`onModuleInit`), so the pipeline stays the same in every process layout.
 */
export class PipelineExtensions {
  readonly handlers: ContentHandler[] = [];
  readonly enrichers: DocumentEnricher[] = [];
  readonly engines = new Map<string, Engine>();
  readonly selectors: EngineSelector[] = [];

  addHandler(handler: ContentHandler): void {
    this.handlers.push(handler);
  }

  addEnricher(enricher: DocumentEnricher): void {
    this.enrichers.push(enricher);
  }

  addEngine(engine: Engine, selector?: EngineSelector): void {
    this.engines.set(engine.name, engine);
    if (selector) this.selectors.push(selector);
  }
}
