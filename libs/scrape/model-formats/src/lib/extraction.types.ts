import {
  type PageTaskRunner,
  pageTaskRunner,
  type PiiEntity,
  type PiiMode,
  type ReplaceStyle,
} from '@quarry/scrape/formats';

export type { PageInput } from '@quarry/scrape/formats';

export interface ExtractionContext {
  teamId?: string;
  jobId?: string;
  signal?: AbortSignal;
  /** Epoch ms by which the request must be answered; model retries never wait past it. */
  deadline?: number;
  /**
   * Where the offline fallbacks' page work runs: a scrape's content workers (killed at the job's
   * deadline, see EnrichmentContext.content). Absent: on the calling thread.
   */
  tasks?: PageTaskRunner;
}

/** The page tasks of an extraction: the context's, else on the calling thread. */
export function tasksOf(context: ExtractionContext): PageTaskRunner {
  return context.tasks ?? pageTaskRunner(undefined, 0);
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
