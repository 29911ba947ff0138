import type { CompletionResult, LlmProvider } from './llm.types';
import { LlmError } from './llm-error';

/** The provider when no model is configured (`LLM_BASE_URL` unset): every feature uses its fallback. */
export class OfflineProvider implements LlmProvider {
  readonly available = false;
  readonly model = 'none';

  constructor(
    readonly maxOutputTokens: number,
    readonly maxInputChars: number,
  ) {}

  complete(): Promise<CompletionResult> {
    return Promise.reject(new LlmError('unavailable', 'no language model is configured (LLM_BASE_URL)'));
  }
}
