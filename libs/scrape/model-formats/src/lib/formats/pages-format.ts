import type { JsonSchema } from '@quarry/llm';

import { type Extracted, type ExtractionContext, type PageInput, tasksOf } from '../extraction.types';
import { pageContext, PROMPTS } from '../llm/prompts';
import { assertValidSchema, jsonByModel, jsonFallback, pageRelevance } from './json-format';
import type { ModelAccess } from './model-or-fallback';

const NOT_IN_PAGES = 'None of the pages read appear to answer the task.';

/**
 * The agent's final step: answers the task from several pages, to the schema when one is given
 * (else `{answer, sources}`). Offline: structured data merged across pages, or the best passage.
 * A caller's `systemPrompt` (extract jobs) is added to the model's instructions. A model failure
 * that is not about reaching it (a refusal, a broken answer) propagates as it is.
 */
export async function extractFromPages(
  model: ModelAccess,
  pages: readonly PageInput[],
  options: { schema?: JsonSchema; prompt: string; systemPrompt?: string },
  context: ExtractionContext = {},
): Promise<Extracted<unknown>> {
  const schema: JsonSchema = options.schema ?? {
    type: 'object',
    properties: { answer: { type: 'string' }, sources: { type: 'array', items: { type: 'string' } } },
    required: ['answer'],
  };
  assertValidSchema(schema);
  return model.orFallback(
    'agent.extract',
    async () => {
      const share = Math.max(2_000, Math.floor(model.llm.maxInputChars / Math.max(1, pages.length)));
      const content = pages
        .map((page, index) => `### Page ${index + 1}\n${pageContext(page, share)}`)
        .join('\n\n');
      const value = await jsonByModel(
        model,
        `${content}\n\n--- TASK ---\n${options.prompt}`,
        { schema, prompt: options.prompt },
        context,
        'agent.extract',
        options.systemPrompt?.trim()
          ? `${PROMPTS.agentAnswer}\n\n${options.systemPrompt.trim()}`
          : PROMPTS.agentAnswer,
      );
      return { value, via: 'llm' };
    },
    (reason) => pagesFallback(pages, options, reason, context),
    (error) => error,
  );
}

async function pagesFallback(
  pages: readonly PageInput[],
  options: { schema?: JsonSchema; prompt: string },
  reason: string,
  context: ExtractionContext,
): Promise<Extracted<unknown>> {
  if (options.schema) return jsonFallback(pages, options, reason, context);
  // One ranking over the facts of every page read, with a prior for the pages most about the
  // prompt (an index hit from another site rarely is).
  const relevance = pageRelevance(pages, options.prompt);
  const top = relevance.reduce((max, value) => Math.max(max, value), 0);
  const found = await tasksOf(context)(
    'offlineAnswer',
    pages,
    options.prompt,
    relevance.map((value) => (top > 0 ? 1 + value / top : 1)),
  );
  return {
    value: {
      answer: found?.answer ?? NOT_IN_PAGES,
      sources: found ? [pages[found.page].url] : pages.map((page) => page.url),
    },
    via: 'fallback',
    warning: `agent: ${reason}; the answer was read from the pages by rules — the value the task asks for from labelled fields, tables, structured data and the words around it, or the best-matching sentence — not by a model (extractive offline fallback).`,
  };
}
