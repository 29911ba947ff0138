import { scrapeCredits } from '@quarry/billing';
import {
  AppError,
  DEFAULT_PDF_PARSE_OPTIONS,
  documentContentType,
  type DocumentParseJobMessage,
  type DocumentParseResultEvent,
  jobErrorOf,
  type ParsedDocumentOutput,
  type ParseRequest,
  type ScrapeDocument,
  type ScrapeRequest,
} from '@quarry/contracts';
import { type DocumentToolkit, type OfficeConvertOptions, parseDocument } from '@quarry/documents/parsing';
import { type JobClaims, type JobOutcomeStore, type JobRepository, WorkerJob } from '@quarry/jobs';
import type { BlobStore } from '@quarry/platform/blob';
import type { MessageBus } from '@quarry/platform/bus';
import { type Logger, type PlatformMetrics, withSpan } from '@quarry/platform/observability';
import type { DocumentEnricher } from '@quarry/scrape/engine';

export interface ParseJobHandlerDeps {
  toolkit: () => DocumentToolkit;
  /** Derived formats computed from the parsed markdown (language-model formats), as on scrapes. */
  enrichers: readonly DocumentEnricher[];
  blobs: BlobStore;
  bus: MessageBus;
  jobs: JobRepository;
  claims: JobClaims;
  outcomes: JobOutcomeStore;
  metrics: PlatformMetrics;
  logger: Logger;
}

/** How long a parsed result waits in the blob store for the scrape worker that asked for it. */
export const RESULT_TTL_MS = 10 * 60 * 1000;

/**
 * Parses one document from `document.parse.jobs`. For an upload (`reply: job`) it owns the job:
 * document, charge and job event, in that order, idempotent by job id. For a scrape (`reply:
 * result`) it stores the parsed content as a blob and announces it to the waiting scrape worker.
 */
export class ParseJobHandler {
  private readonly job: WorkerJob;

  constructor(private readonly deps: ParseJobHandlerDeps) {
    this.job = new WorkerJob(deps, 'parse');
  }

  async handle(message: DocumentParseJobMessage): Promise<void> {
    if (message.reply.type === 'job') return this.handleUpload(message, message.reply.request);
    return this.handleScrape(message);
  }

  private async handleScrape(message: DocumentParseJobMessage): Promise<void> {
    const { blobs, bus } = this.deps;
    const announce = (event: Omit<DocumentParseResultEvent, 'parseId' | 'jobId' | 'at'>) =>
      bus.publish(
        'documentParseResults',
        { parseId: message.parseId, jobId: message.jobId, at: Date.now(), ...event },
        { key: message.parseId },
      );
    if (Date.now() >= message.deadline) {
      await announce({ status: 'failed', error: { code: 'SCRAPE_TIMEOUT', message: 'Request Timeout' } });
      return;
    }
    const input = await blobs.get(message.input.blobKey);
    if (!input) {
      await announce({
        status: 'failed',
        error: { code: 'DOCUMENT_INVALID', message: 'The document to parse is no longer available' },
      });
      return;
    }
    try {
      const output = await this.parse(message, input.data, DEFAULT_CONTENT_OPTIONS);
      const stored = await blobs.put(
        `parse-results/${message.jobId}`,
        Buffer.from(JSON.stringify(output)),
        'application/json',
        RESULT_TTL_MS,
        '.json',
      );
      await announce({ status: 'completed', resultKey: stored.key });
    } catch (error) {
      if (!(error instanceof AppError)) throw error; // infrastructure failure: the bus redelivers
      await announce({
        status: 'failed',
        error: jobErrorOf(error),
      });
    }
    await blobs.delete(message.input.blobKey);
  }

  private async handleUpload(message: DocumentParseJobMessage, request: ParseRequest): Promise<void> {
    const job = await this.job.admit(message);
    if (!job) return;
    if (Date.now() >= message.deadline) {
      await this.job.fail(message, { code: 'SCRAPE_TIMEOUT', message: 'Request Timeout' });
      return;
    }
    const input = await this.deps.blobs.get(message.input.blobKey);
    if (!input) {
      await this.job.fail(message, {
        code: 'DOCUMENT_INVALID',
        message: 'The uploaded file is no longer available; upload it again',
      });
      return;
    }
    await this.job.guarded(job, () => this.parseUpload(message, request, input.data));
  }

  private async parseUpload(
    message: DocumentParseJobMessage,
    request: ParseRequest,
    data: Buffer,
  ): Promise<void> {
    const { blobs, metrics } = this.deps;
    if (!(await this.job.claim(message))) return;
    metrics.jobsRunning.inc({ kind: 'parse' });
    const startedAt = Date.now();
    try {
      const output = await this.parse(message, data, contentOptions(request));
      const { document, credits } = uploadDocument(message, request, output);
      const context = {
        jobId: message.jobId,
        teamId: message.teamId,
        signal: AbortSignal.timeout(Math.max(1, message.deadline - Date.now())),
        timeoutMs: message.deadline - Date.now(),
        deadline: message.deadline,
      };
      // The parse options are the scrape options without a URL: the file name stands for it.
      const scrapeLike = { ...request, url: document.metadata.url } as ScrapeRequest;
      const enrichers = this.deps.enrichers.filter((enricher) => enricher.appliesTo(scrapeLike));
      for (const enricher of enrichers) await enricher.enrich(document, scrapeLike, context);
      if (enrichers.length === 0 && !request.formats.some((format) => format.type === 'markdown'))
        delete document.markdown;
      await this.job.complete(message, {
        credits,
        documents: request.zeroDataRetention
          ? []
          : [
              {
                sourceUrl: document.metadata.sourceURL,
                url: document.metadata.url,
                urlKey: `upload:${message.jobId}`,
                statusCode: 200,
                document,
              },
            ],
        inlineResult: request.zeroDataRetention ? document : undefined,
        engine: message.input.kind,
        startedAt,
      });
    } catch (error) {
      await this.job.failed(message, error);
    } finally {
      metrics.jobsRunning.dec({ kind: 'parse' });
    }
    await blobs.delete(message.input.blobKey);
  }

  private async parse(
    message: DocumentParseJobMessage,
    data: Buffer,
    content: OfficeConvertOptions,
  ): Promise<ParsedDocumentOutput> {
    const { metrics, logger } = this.deps;
    const kind = message.input.kind;
    const startedAt = Date.now();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), Math.max(0, message.deadline - Date.now()));
    try {
      if (kind === 'pdf' && message.pdf === null) return { markdown: data.toString('base64'), metadata: {} };
      // A child of the `process document.parse.jobs` span: the trace runs from the request through here.
      const attributes = {
        'quarry.job.id': message.jobId,
        'quarry.document.kind': kind,
        'quarry.document.bytes': data.length,
      };
      const output = await withSpan(`parse ${kind}`, { attributes }, async (span) => {
        const parsed = await parseDocument(this.deps.toolkit(), {
          kind,
          data,
          filename: message.input.filename ?? `document.${kind}`,
          pdf: message.pdf ?? DEFAULT_PDF_PARSE_OPTIONS,
          content,
          budget: { deadline: message.deadline, signal: controller.signal },
        });
        if (parsed.pdfPages !== undefined) span.setAttribute('quarry.document.pages', parsed.pdfPages);
        return parsed;
      });
      metrics.documentsParsed.inc({ kind, outcome: 'completed' });
      metrics.documentParseDuration.observe({ kind }, (Date.now() - startedAt) / 1000);
      for (const page of output.pageSummary ?? [])
        metrics.documentPages.inc({ source: page.source, status: page.status });
      logger.info(
        { jobId: message.jobId, kind, ms: Date.now() - startedAt, pages: output.pdfPages },
        'document parsed',
      );
      return output;
    } catch (error) {
      metrics.documentsParsed.inc({ kind, outcome: 'failed' });
      if (error instanceof AppError)
        logger.info(
          { jobId: message.jobId, kind, code: error.code, reason: error.message },
          'document not parsed',
        );
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}

const DEFAULT_CONTENT_OPTIONS: OfficeConvertOptions = {
  formats: ['markdown'],
  onlyMainContent: true,
  removeBase64Images: true,
};

function contentOptions(request: ParseRequest): OfficeConvertOptions {
  const formats = request.formats
    .map((format) => format.type)
    .filter((type): type is OfficeConvertOptions['formats'][number] =>
      ['markdown', 'html', 'rawHtml', 'links', 'images'].includes(type),
    );
  return {
    formats,
    onlyMainContent: request.onlyMainContent,
    includeTags: request.includeTags,
    excludeTags: request.excludeTags,
    removeBase64Images: request.removeBase64Images,
  };
}

/** The API document of an upload (docs/documents.md#other-formats-post-v2parse: `metadata.sourceURL` is the file name) and its price. */
export function uploadDocument(
  message: DocumentParseJobMessage,
  request: ParseRequest,
  output: ParsedDocumentOutput,
): { document: ScrapeDocument; credits: number } {
  const filename = message.input.filename ?? 'document';
  const wants = (type: string) => request.formats.some((format) => format.type === type);
  // Language-model formats are added by the enrichers; product and menu extraction are scrape-only.
  const unavailable = request.formats
    .filter((format) => ['product', 'menu'].includes(format.type))
    .map((format) => format.type);
  const produced = request.formats.filter((format) => !unavailable.includes(format.type));
  const rawPdf = message.input.kind === 'pdf' && message.pdf === null;
  const credits = scrapeCredits({
    formats: produced,
    zeroDataRetention: request.zeroDataRetention,
    redactPII: request.redactPII,
    lockdown: false,
    checkPromptInjection: request.checkPromptInjection,
    pdfPages: output.pdfPages,
    rawPdf,
  });
  const warnings = [
    output.warning,
    unavailable.length
      ? `Not available for parse in this deployment: ${[...new Set(unavailable)].join(', ')}`
      : undefined,
  ].filter(Boolean);
  const document: ScrapeDocument = {
    metadata: {
      ...output.metadata,
      sourceURL: filename,
      url: filename,
      statusCode: 200,
      contentType: documentContentType(message.input.kind, filename, message.input.contentType),
      scrapeId: message.jobId,
      proxyUsed: 'basic',
      creditsUsed: credits,
    },
  };
  // Always set: language-model formats read it, and their enricher drops it when not requested.
  document.markdown = output.markdown;
  if (wants('html') && output.html !== undefined) document.html = output.html;
  if (wants('rawHtml') && output.rawHtml !== undefined) document.rawHtml = output.rawHtml;
  if (wants('links')) document.links = output.links ?? [];
  if (wants('images')) document.images = output.images ?? [];
  if (output.pages) document.pages = output.pages;
  if (output.blocks) document.blocks = output.blocks;
  if (warnings.length) document.warning = warnings.join('; ');
  return { document, credits };
}
