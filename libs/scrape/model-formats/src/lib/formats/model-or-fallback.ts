import { AppError } from '@quarry/contracts';
import { isLlmError, type LlmError, type LlmProvider } from '@quarry/llm';

import type { Extracted, ExtractionContext, PageInput } from '../extraction.types';
import { pageContext } from '../llm/prompts';

/** The reason a format names when no model is configured. */
export const OFFLINE = 'no language model is configured (LLM_BASE_URL)';

/** Why a format answered from its fallback: no model configured, or the model could not be reached. */
export function fallbackReason(error: unknown): string {
  if (isLlmError(error) && error.kind === 'unavailable') return OFFLINE;
  return `the language model could not be used (${error instanceof Error ? error.message : String(error)})`;
}

/** Model failures that are about reaching the model, not about what it answered: these fall back. */
export function shouldFallBack(error: unknown): error is LlmError {
  return isLlmError(error) && error.unreachable;
}

/** A model answer a format cannot use is a 422 naming the format; other errors pass unchanged. */
export function toAppError(error: unknown, format: string): unknown {
  if (isLlmError(error))
    return new AppError('UNPROCESSABLE_ENTITY', {
      message: `The model could not produce the ${format}: ${error.message}`,
    });
  return error;
}

export function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * What every language-model format shares: the provider, the usage record of a call, the page as
 * the model reads it, and the one model-or-fallback rule — the model when configured; its
 * deterministic fallback (with a warning saying why) when it is not or cannot be reached; any other
 * model failure is an error (by default the format's 422).
 */
export class ModelAccess {
  constructor(readonly llm: LlmProvider) {}

  usage(context: ExtractionContext, purpose: string) {
    return { teamId: context.teamId, jobId: context.jobId, purpose };
  }

  page(page: PageInput): string {
    return pageContext(page, this.llm.maxInputChars);
  }

  async orFallback<T>(
    format: string,
    byModel: () => Promise<Extracted<T>>,
    fallback: (reason: string) => Extracted<T> | Promise<Extracted<T>>,
    onError: (error: unknown) => unknown = (error) => toAppError(error, format),
  ): Promise<Extracted<T>> {
    if (!this.llm.available) return fallback(OFFLINE);
    try {
      return await byModel();
    } catch (error) {
      if (!shouldFallBack(error)) throw onError(error);
      return fallback(fallbackReason(error));
    }
  }
}
