import { AppError, type ScrapeDocument, type ScrapeRequest } from '@quarry/contracts';
import { SpanKind, withSpan } from '@quarry/platform/observability';
import { InlineContentTransformer, type ContentTransformer } from '@quarry/scrape/content';
import { blockedDocument, buildDocument } from './document-builder';
import type { Engine, EngineContext } from './engine.types';
import type { HandledContent, PipelineExtensions } from './pipeline-extensions';
import { isBlocked, toScrapeError } from './scrape-errors';

export interface ScrapeOutcome {
  document: ScrapeDocument;
  engine: string;
  /** False when the target was refused by the outbound guard (nothing was fetched). */
  fetched: boolean;
  billing: HandledContent['billing'];
}

export interface RunContext extends EngineContext {
  teamId: string;
}

/**
 * One scrape from request to document: picks the engine, fetches within the job's time budget,
 * builds the requested formats (content handlers) and adds derived formats (enrichers). Throws
 * AppError for failures the API reports as errors.
 */
export class ScrapePipeline {
  constructor(
    private readonly http: Engine,
    private readonly extensions: PipelineExtensions,
    /** Where pages become formats: worker threads in the services, the calling thread by default. */
    private readonly transformer: ContentTransformer = new InlineContentTransformer(),
  ) {}

  get supportsActions(): boolean {
    return this.extensions.engines.has('browser');
  }

  selectEngine(request: ScrapeRequest): Engine {
    for (const select of this.extensions.selectors) {
      const engine = select(request, this.extensions.engines);
      if (engine) return engine;
    }
    return this.http;
  }

  async run(request: ScrapeRequest, context: RunContext): Promise<ScrapeOutcome> {
    if ((request.actions?.length ?? 0) > 0 && !this.supportsActions)
      throw new AppError('SCRAPE_ACTIONS_NOT_SUPPORTED');
    const engine = this.selectEngine(request);
    // Zero data retention (lockdown included): the URL is not recorded, nor error messages that may quote it.
    const sensitive = request.zeroDataRetention || request.lockdown;
    const fetchAttributes = sensitive
      ? { 'quarry.engine': engine.name }
      : { 'quarry.engine': engine.name, 'url.full': request.url };
    let outcome: ScrapeOutcome;
    try {
      const page = await withSpan(
        `fetch ${engine.name}`,
        { kind: SpanKind.CLIENT, attributes: fetchAttributes, sensitive },
        async (span) => {
          const fetched = await engine.fetch(request, context);
          span.setAttribute('http.response.status_code', fetched.status);
          return fetched;
        },
      );
      const handler = this.extensions.handlers.find((candidate) => candidate.canHandle(page, request));
      const handled: HandledContent = handler
        ? await withSpan(
            `handle ${handler.name}`,
            { attributes: { 'quarry.handler': handler.name }, sensitive },
            () => handler.build(page, request, context),
          )
        : await withSpan('build document', { sensitive }, async () => ({
            document: await buildDocument(
              page,
              request,
              context.jobId,
              this.transformer,
              context.deadline ?? Date.now() + context.timeoutMs,
            ),
          }));
      outcome = { document: handled.document, engine: page.engine, fetched: true, billing: handled.billing };
      for (const enricher of this.extensions.enrichers) {
        if (enricher.appliesTo(request)) {
          const document = outcome.document;
          await withSpan(
            `enrich ${enricher.name}`,
            { attributes: { 'quarry.enricher': enricher.name }, sensitive },
            () => enricher.enrich(document, request, { ...context, page }),
          );
        }
      }
    } catch (error) {
      if (isBlocked(error)) {
        return {
          document: blockedDocument(request, context.jobId, error.message),
          engine: engine.name,
          fetched: false,
          billing: undefined,
        };
      }
      if (context.signal.aborted && !(error instanceof AppError)) throw new AppError('SCRAPE_TIMEOUT');
      throw toScrapeError(error, request.url);
    }
    return outcome;
  }
}
