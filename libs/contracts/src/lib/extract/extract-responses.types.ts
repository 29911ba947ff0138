/** Response shapes of the extract routes (compat §12). Plain types: responses are not validated. */

export interface ExtractStartResponse {
  success: true;
  id: string;
  /** Always empty: URL traces are not recorded. */
  urlTrace: [];
  /** URLs dropped because they were invalid (with `ignoreInvalidURLs`, the default). */
  invalidURLs?: string[];
}

export type ExtractJobStatus = 'processing' | 'completed' | 'failed' | 'cancelled';

export interface ExtractStatusResponse {
  /** False only when the job failed. */
  success: boolean;
  /** The extracted value once completed; `[]` before (as the reference service answers). */
  data: unknown;
  status: ExtractJobStatus;
  error?: string;
  /** Offline fallbacks and other caveats, e.g. "json: no language model is configured…". */
  warning?: string;
  expiresAt: string;
  /** With `showSources`: per top-level field of `data`, the URLs of the pages it was found on. */
  sources?: Record<string, string[]>;
  /** Language-model tokens the job used (0 without a model). */
  tokensUsed: number;
  /** Credits charged: the pages read plus the extraction, only once completed. */
  creditsUsed: number;
}
