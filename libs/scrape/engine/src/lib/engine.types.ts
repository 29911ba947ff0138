import type { ScrapeRequest } from '@quarry/contracts';

/** What an engine fetched: the final response of the target after redirects. */
export interface FetchedPage {
  engine: 'http' | 'browser';
  url: string;
  status: number;
  headers: Record<string, string>;
  contentType?: string;
  /** Raw response body bytes (for HTML fetched by a browser: the rendered document, UTF-8). */
  body: Buffer;
  /** Decoded text when the engine already has it (browser DOM). */
  text?: string;
}

export interface EngineContext {
  jobId: string;
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
