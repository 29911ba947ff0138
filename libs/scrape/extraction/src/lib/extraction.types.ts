import type { PiiEntity, PiiMode, ReplaceStyle } from './pii/pii-detector.util';

/** A page to read: its markdown, and when available its raw HTML (structured data) and title. */
export interface PageInput {
  url: string;
  markdown: string;
  html?: string;
  title?: string;
}

export interface ExtractionContext {
  teamId?: string;
  jobId?: string;
  signal?: AbortSignal;
  /** Epoch ms by which the request must be answered; model retries never wait past it. */
  deadline?: number;
}

/** A derived value, how it was produced, and the warning to show when it came from a fallback or was skipped. */
export interface Extracted<T> {
  value: T;
  via: 'llm' | 'fallback' | 'skipped';
  warning?: string;
}

export interface PiiOptions {
  mode: PiiMode;
  entities?: readonly PiiEntity[];
  replaceStyle: ReplaceStyle;
}
