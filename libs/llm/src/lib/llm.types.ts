/** The language-model layer's vocabulary: one provider interface for every feature that asks a model. */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Structured output: the model must answer one JSON value conforming to `schema`. */
export interface ResponseSchema {
  name: string;
  schema: Record<string, unknown>;
}

/** Who a completion is for, so its tokens can be accounted per team and job. */
export interface UsageContext {
  teamId?: string;
  jobId?: string;
  /** What the call was for: `summary`, `json`, `agent.plan`… */
  purpose: string;
}

export interface CompletionRequest {
  messages: ChatMessage[];
  responseSchema?: ResponseSchema;
  maxOutputTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  /**
   * Epoch ms by which the caller needs the answer (the request's deadline). A retry whose wait
   * (`Retry-After` or backoff) would end past it is not attempted: the call fails at once so the
   * caller can still fall back in time.
   */
  deadline?: number;
  usage: UsageContext;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface CompletionResult {
  text: string;
  /** The parsed JSON answer when a responseSchema was given. */
  json?: unknown;
  usage: TokenUsage;
  model: string;
  finishReason: string;
  /** HTTP attempts it took (1 = no retry). */
  attempts: number;
}

/**
 * A chat-completion provider. `available` is false when no model is configured: callers then use
 * their deterministic fallbacks and say so in the document's `warning`.
 */
export interface LlmProvider {
  readonly available: boolean;
  readonly model: string;
  /** Largest answer the model may write, in tokens (onlyCleanContent skips longer documents). */
  readonly maxOutputTokens: number;
  /** Input text beyond this many characters is cut before it is sent. */
  readonly maxInputChars: number;
  complete(request: CompletionRequest): Promise<CompletionResult>;
}

/** Injection token of the process's LlmProvider. */
export const LLM_PROVIDER = Symbol('LLM_PROVIDER');

/** Records token usage (per team and job); the provider calls it after every successful completion. */
export interface TokenUsageSink {
  record(entry: { context: UsageContext; model: string; usage: TokenUsage }): Promise<void>;
}

/** Rough token estimate for text without a tokenizer (≈4 characters per token in English). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
