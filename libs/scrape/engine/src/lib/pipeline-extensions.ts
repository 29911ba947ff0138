import type { ScrapeDocument, ScrapeRequest } from '@quarry/contracts';
import type { ContentTransformer } from '@quarry/scrape/content';

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
  /**
   * Where an enricher's page work runs (`ContentTransformer.runTask`): the pipeline's content
   * workers, so a hostile page costs a worker killed at the job's deadline, not this event loop.
   * Absent (tests, tools): on the calling thread.
   */
  content?: ContentTransformer;
}

/**
 * The order the pipeline runs its enrichers in, declared here rather than left to the order feature
 * modules happen to register (an app module's `imports` array): the deterministic formats first
 * (engine results, product, menu, change tracking), then the language-model formats, which may
 * read what those added. An enricher must be listed here to be registered.
 */
export const ENRICHER_ORDER = ['engine-results', 'product', 'menu', 'changeTracking', 'llm-formats'] as const;
export type EnricherName = (typeof ENRICHER_ORDER)[number];

/**
 * Adds formats computed from a built document (language-model formats, change tracking, product,
 * menu, branding…). Runs after the content handler, in ENRICHER_ORDER.
 */
export interface DocumentEnricher {
  readonly name: EnricherName;
  appliesTo(request: ScrapeRequest): boolean;
  enrich(document: ScrapeDocument, request: ScrapeRequest, context: EnrichmentContext): Promise<void>;
}

/** Chooses an engine for a request; the first selector that answers wins, else the HTTP engine. */
export type EngineSelector = (
  request: ScrapeRequest,
  engines: ReadonlyMap<string, Engine>,
) => Engine | undefined;

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

  /** Adds an enricher at its place in ENRICHER_ORDER (registration order does not matter); once per name. */
  addEnricher(enricher: DocumentEnricher): void {
    const rank = ENRICHER_ORDER.indexOf(enricher.name);
    if (rank < 0) throw new Error(`Enricher ${String(enricher.name)} is not listed in ENRICHER_ORDER`);
    if (this.enrichers.some((existing) => existing.name === enricher.name))
      throw new Error(`Enricher ${enricher.name} is registered twice`);
    const before = this.enrichers.findIndex((existing) => ENRICHER_ORDER.indexOf(existing.name) > rank);
    this.enrichers.splice(before < 0 ? this.enrichers.length : before, 0, enricher);
  }

  addEngine(engine: Engine, selector?: EngineSelector): void {
    this.engines.set(engine.name, engine);
    if (selector) this.selectors.push(selector);
  }
}
