import type { ActionResults, DocumentMetadata, ScrapeRequest } from '@quarry/contracts';

/** What only a browser produces; merged into the document by the engine-results enricher. */
export interface PageArtifacts {
  /** URL (or data URL under zero data retention) of the `screenshot` format. */
  screenshot?: string;
  /** Results of the request's `actions`. */
  actions?: ActionResults;
  /** Brand identity read from computed styles (`branding` format). */
  branding?: Record<string, unknown> | null;
}

/** What an engine fetched: the final response of the target after redirects. */
export interface FetchedPage {
  engine: 'http' | 'browser';
  url: string;
  status: number;
  headers: Record<string, string>;
  contentType?: string;
  /** Raw response body bytes (for HTML fetched by a browser: the rendered document, UTF-8). */
  body: Buffer;
  /**
   * The target's HTTP response body when `body` is something else (a rendered DOM): what
   * `rawBase64` encodes. Set by the browser engine when `rawBase64` is requested.
   */
  responseBody?: Buffer;
  /** Decoded text when the engine already has it (browser DOM). */
  text?: string;
  /** Added to the document's metadata (engine choice and fallback, proxy, concurrency queueing…). */
  metadata?: Partial<DocumentMetadata>;
  /** Features the engine could not honour; joined into the document's `warning`. */
  warnings?: string[];
  artifacts?: PageArtifacts;
}

export interface EngineContext {
  jobId: string;
  /** The team the job runs for (team limits, profiles); absent outside jobs (benchmarks). */
  teamId?: string;
  signal: AbortSignal;
  /** Milliseconds left for the whole job. */
  timeoutMs: number;
  /** Epoch ms at which the job's budget ends (work handed to other services finishes before it). */
  deadline?: number;
}

export interface Engine {
  readonly name: FetchedPage['engine'];
  fetch(request: ScrapeRequest, context: EngineContext): Promise<FetchedPage>;
}
