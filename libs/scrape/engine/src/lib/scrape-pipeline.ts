import { AppError, type ScrapeDocument, type ScrapeRequest } from '@quarry/contracts';
import { SpanKind, withSpan } from '@quarry/platform/observability';
import {
  assertPageWithinLimits,
  type ContentTransformer,
  DEFAULT_PAGE_LIMITS,
  InlineContentTransformer,
  type PageLimits,
  pageTooLarge,
  PageTooLargeError,
} from '@quarry/scrape/content';

import { blockedDocument, buildDocument } from './document-builder';
import type { Engine, EngineContext, FetchedPage } from './engine.types';
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

/** Pages of a pipeline without a content transformer are transformed on the calling thread. */
const ON_THIS_THREAD = new InlineContentTransformer();

/**
 * One scrape from request to document: picks the engine, fetches within the job's time budget,
 * builds the requested formats (content handlers) and adds derived formats (enrichers). Throws
 * AppError for failures the API reports as errors.
 */
export class ScrapePipeline {
  constructor(
    private readonly http: Engine,
    private readonly extensions: PipelineExtensions,
    /**
     * Where pages become formats and enrichers' page tasks run: worker processes in the services;
     * the calling thread when absent (tests, tools).
     */
    private readonly transformer?: ContentTransformer,
    /** Checked on every fetched markup page before anything parses it (content, extractors, links). */
    private readonly pageLimits: PageLimits = DEFAULT_PAGE_LIMITS,
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
          // Whatever the engine: a page that is not a web page of the target (a browser's own error
          // page, `chrome-error://…`) is a failure, never a document.
          if (!/^https?:\/\//i.test(fetched.url))
            throw new AppError('SCRAPE_SITE_ERROR', {
              message: `The target could not be loaded: the engine ended on ${fetched.url.slice(0, 200)} instead of a page of the target`,
            });
          return fetched;
        },
      );
      this.checkSize(page);
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
              this.transformer ?? ON_THIS_THREAD,
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
            () => enricher.enrich(document, request, { ...context, page, content: this.transformer }),
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

  /** A cheap count of tags and links on the raw page: a hostile page fails here, before any DOM exists. */
  private checkSize(page: FetchedPage): void {
    if (!looksLikeMarkup(page.contentType)) return;
    try {
      assertPageWithinLimits(page.text ?? page.body, this.pageLimits);
    } catch (error) {
      if (error instanceof PageTooLargeError) throw pageTooLarge(error.message);
      throw error;
    }
  }
}

/** HTML, XHTML, XML and untyped bodies; documents (PDF, office files) and images are not markup. */
export function looksLikeMarkup(contentType: string | undefined): boolean {
  const mime = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return mime === '' || mime.includes('html') || mime.includes('xml') || mime.startsWith('text/');
}
