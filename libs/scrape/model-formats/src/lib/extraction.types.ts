import type { PiiEntity, PiiMode, ReplaceStyle } from '@quarry/scrape/formats';

export type { PageInput } from '@quarry/scrape/formats';

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
