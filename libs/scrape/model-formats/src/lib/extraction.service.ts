import type { JsonSchema, LlmProvider } from '@quarry/llm';
import type { PiiSpan } from '@quarry/scrape/formats';

import type { Extracted, ExtractionContext, PageInput, PiiOptions } from './extraction.types';
import { compareJson, describeChange } from './formats/change-formats';
import { assertValidSchema, extractDeterministic, extractJson } from './formats/json-format';
import { ModelAccess } from './formats/model-or-fallback';
import { extractFromPages } from './formats/pages-format';
import { checkPromptInjection, findPii, redactPii } from './formats/safety-formats';
import { answer, clean, highlights, query, summarize } from './formats/text-formats';

export type { ExtractionContext, Extracted, PageInput, PiiOptions } from './extraction.types';

/**
 * The language-model formats and their deterministic offline fallbacks (summary, json, question,
 * highlights, query, onlyCleanContent, redactPII, prompt-injection check, change tracking, the
 * agent's answer). When the model is not configured or cannot be reached, each format answers from
 * its fallback and says so in `warning` (one rule: `ModelAccess.orFallback`); an answer that
 * breaks the caller's JSON schema is a 422, never a silent fallback. Each format lives in
 * `formats/`; this class is the one entry point the enrichers, the agent and extract use.
 */
export class ExtractionService {
  private readonly model: ModelAccess;

  constructor(llm: LlmProvider) {
    this.model = new ModelAccess(llm);
  }

  get online(): boolean {
    return this.model.llm.available;
  }

  summarize(page: PageInput, context: ExtractionContext = {}): Promise<Extracted<string>> {
    return summarize(this.model, page, context);
  }

  /** Validates a caller's json schema: 422 when it is not valid JSON Schema (docs/compatibility.md#errors). */
  assertValidSchema(schema: JsonSchema | undefined): void {
    assertValidSchema(schema);
  }

  extractJson(
    page: PageInput,
    options: { schema?: JsonSchema; prompt?: string },
    context: ExtractionContext = {},
  ): Promise<Extracted<unknown>> {
    return extractJson(this.model, page, options, context);
  }

  /** The `deterministicJson` format: never a model, so the same page always gives the same value. */
  extractDeterministic(
    page: PageInput,
    options: { schema?: JsonSchema },
    context: ExtractionContext = {},
  ): Promise<Extracted<unknown>> {
    return extractDeterministic(page, options, context);
  }

  answer(page: PageInput, question: string, context: ExtractionContext = {}): Promise<Extracted<string>> {
    return answer(this.model, page, question, context);
  }

  highlights(
    page: PageInput,
    queryText: string,
    context: ExtractionContext = {},
  ): Promise<Extracted<string>> {
    return highlights(this.model, page, queryText, context);
  }

  /** The deprecated `query` format: freeform answers like `question`, directQuote quotes like `highlights`. */
  query(
    page: PageInput,
    options: { prompt: string; mode: 'freeform' | 'directQuote' },
    context: ExtractionContext = {},
  ): Promise<Extracted<string>> {
    return query(this.model, page, options, context);
  }

  /** onlyCleanContent: skipped when too long for the model; refused under zero data retention. */
  clean(
    markdown: string,
    options: { zeroDataRetention: boolean },
    context: ExtractionContext = {},
  ): Promise<Extracted<string>> {
    return clean(this.model, markdown, options, context);
  }

  /** Finds PII in `text`: patterns always; the model adds what patterns cannot see (mode accurate/aggressive). */
  findPii(text: string, options: PiiOptions, context: ExtractionContext = {}): Promise<Extracted<PiiSpan[]>> {
    return findPii(this.model, text, options, context);
  }

  redactPii(text: string, options: PiiOptions, context: ExtractionContext = {}): Promise<Extracted<string>> {
    return redactPii(this.model, text, options, context);
  }

  /** checkPromptInjection (json mode): 403 SCRAPE_PROMPT_INJECTION_DETECTED when the page addresses a model. */
  checkPromptInjection(page: PageInput, context: ExtractionContext = {}): Promise<Extracted<boolean>> {
    return checkPromptInjection(this.model, page, context);
  }

  /** Change tracking in json mode: both versions extracted with the same schema, paired per field. */
  compareJson(
    previous: PageInput,
    current: PageInput,
    options: { schema?: JsonSchema; prompt?: string },
    context: ExtractionContext = {},
  ): Promise<Extracted<Record<string, { previous: unknown; current: unknown }>>> {
    return compareJson(this.model, previous, current, options, context);
  }

  /** Change tracking without a schema: a short description of what changed between two versions. */
  describeChange(
    previousMarkdown: string,
    currentMarkdown: string,
    context: ExtractionContext = {},
  ): Promise<Extracted<string>> {
    return describeChange(this.model, previousMarkdown, currentMarkdown, context);
  }

  /** The agent's final step (and extract jobs): the task answered from several pages. */
  extractFromPages(
    pages: readonly PageInput[],
    options: { schema?: JsonSchema; prompt: string; systemPrompt?: string },
    context: ExtractionContext = {},
  ): Promise<Extracted<unknown>> {
    return extractFromPages(this.model, pages, options, context);
  }
}
