import { AppError } from '@quarry/contracts';
import {
  type ChatMessage,
  checkJsonSchema,
  isLlmError,
  type JsonSchema,
  normalizeSchemaForModel,
  schemaViolations,
} from '@quarry/llm';
import { currencyFromEntities, fillSchema, type StructuredEntity, terms } from '@quarry/scrape/formats';

import { type Extracted, type ExtractionContext, type PageInput, tasksOf } from '../extraction.types';
import { PROMPTS } from '../llm/prompts';
import { type ModelAccess, shouldFallBack } from './model-or-fallback';

/** Validates a caller's json schema: 422 when it is not valid JSON Schema (docs/compatibility.md#errors). */
export function assertValidSchema(schema: JsonSchema | undefined): void {
  if (!schema) return;
  const check = checkJsonSchema(schema);
  if (!check.valid) throw new AppError('UNPROCESSABLE_ENTITY', { message: check.message });
}

/** The `json` format: the model's schema-conforming answer, or the structured-data fallback. */
export async function extractJson(
  model: ModelAccess,
  page: PageInput,
  options: { schema?: JsonSchema; prompt?: string },
  context: ExtractionContext = {},
): Promise<Extracted<unknown>> {
  assertValidSchema(options.schema);
  return model.orFallback(
    'json',
    async () => ({ value: await jsonByModel(model, model.page(page), options, context, 'json'), via: 'llm' }),
    (reason) => jsonFallback([page], options, reason, context),
  );
}

/**
 * The `deterministicJson` format: always the deterministic extractor (structured data + schema
 * field matching), never a model, so the same page always gives the same value.
 */
export async function extractDeterministic(
  page: PageInput,
  options: { schema?: JsonSchema },
  context: ExtractionContext = {},
): Promise<Extracted<unknown>> {
  assertValidSchema(options.schema);
  const entities = await tasksOf(context)('readStructuredData', page.html ?? '');
  if (!options.schema) return { value: describeEntities(entities), via: 'fallback' };
  const filled = fillSchema(options.schema, entities, currencyFromEntities(entities));
  return {
    value: filled.value,
    via: 'fallback',
    warning: filled.missing.length
      ? `deterministicJson: not found on the page: ${filled.missing.join(', ')}.`
      : undefined,
  };
}

/**
 * Asks the model for a schema-conforming value; one repair round when the first answer breaks
 * the schema, then 422. Throws LlmError for transport failures (callers may fall back) and for a
 * refusal (the agent ends its run as `refused`; a scrape answers 422).
 */
export async function jsonByModel(
  model: ModelAccess,
  content: string,
  options: { schema?: JsonSchema; prompt?: string },
  context: ExtractionContext,
  purpose: string,
  system?: string,
): Promise<unknown> {
  const schema = options.schema ?? { type: 'object' };
  const check = checkJsonSchema(schema);
  if (!check.valid) throw new AppError('UNPROCESSABLE_ENTITY', { message: check.message });
  const instructions = [system ?? (options.schema ? PROMPTS.json : PROMPTS.jsonWithoutSchema)];
  if (options.prompt) instructions.push(`User instructions: ${options.prompt}`);
  const messages: ChatMessage[] = [
    { role: 'system', content: instructions.join('\n\n') },
    { role: 'user', content },
  ];
  let problem = '';
  for (let round = 1; round <= 2; round += 1) {
    let answer: unknown;
    let text = '';
    try {
      const result = await model.llm.complete({
        messages,
        responseSchema: { name: 'extraction', schema: normalizeSchemaForModel(schema) },
        signal: context.signal,
        deadline: context.deadline,
        usage: model.usage(context, purpose),
      });
      answer = result.json;
      text = result.text;
    } catch (error) {
      // A refusal is the model's answer, not a malformed one: asking again would not change it.
      if (shouldFallBack(error) || !isLlmError(error) || error.kind === 'refused') throw error;
      problem = error.message;
      messages.push({
        role: 'user',
        content: `Your previous answer was unusable (${problem}). Answer again with one JSON value only.`,
      });
      continue;
    }
    const violations = schemaViolations(check.validate, answer);
    if (!violations) return answer;
    problem = violations;
    messages.push(
      { role: 'assistant', content: text },
      {
        role: 'user',
        content: `That JSON does not conform to the schema: ${violations}. Answer again with corrected JSON only.`,
      },
    );
  }
  throw new AppError('UNPROCESSABLE_ENTITY', {
    message: `The model could not produce a result conforming to the JSON schema: ${problem}`,
  });
}

/** json without a working model: the pages' structured data, filled into the schema when there is one. */
export async function jsonFallback(
  pages: readonly PageInput[],
  options: { schema?: JsonSchema; prompt?: string },
  reason: string,
  context: ExtractionContext = {},
): Promise<Extracted<unknown>> {
  const read = tasksOf(context);
  const perPage: StructuredEntity[][] = [];
  for (const page of pages) perPage.push(await read('readStructuredData', page.html ?? ''));
  if (!options.schema) {
    const value =
      perPage.length === 1
        ? describeEntities(perPage[0])
        : { pages: pages.map((page, index) => ({ url: page.url, ...describeEntities(perPage[index]) })) };
    return {
      value,
      via: 'fallback',
      warning: `json: ${reason}; without a schema the result is the page's own structured data (JSON-LD, microdata, meta tags), not an answer to the prompt (offline fallback).`,
    };
  }
  const merged = mergeFills(options.schema, perPage, pageRelevance(pages, options.prompt));
  const notFound = merged.missing.length ? ` Not found on the page: ${merged.missing.join(', ')}.` : '';
  return {
    value: merged.value,
    via: 'fallback',
    warning: `json: ${reason}; values were read from the page's structured data (JSON-LD, microdata, meta tags, labelled fields) by schema field matching (offline fallback).${notFound}`,
  };
}

/** Structured data of a page without a schema: the subject entity's fields plus page metadata. */
function describeEntities(entities: readonly StructuredEntity[]): Record<string, unknown> {
  const declared = entities.filter((entity) => entity.source === 'json-ld' || entity.source === 'microdata');
  const meta = entities.find((entity) => entity.source === 'meta')?.properties ?? {};
  const out: Record<string, unknown> = {};
  if (declared.length === 1) Object.assign(out, declared[0].properties);
  else if (declared.length > 1) out['entities'] = declared.map((entity) => entity.properties);
  out['metadata'] = meta;
  return out;
}

/**
 * How much each page is about the prompt: the prompt's terms found in the page's title and text,
 * each weighted by how few of the pages carry it (so "Road Glide" tells two shoe pages apart).
 */
export function pageRelevance(pages: readonly PageInput[], prompt: string | undefined): number[] {
  const wanted = [...new Set(terms(prompt ?? ''))];
  const vocabularies = pages.map((page) => new Set(terms(`${page.title ?? ''} ${page.markdown}`)));
  return vocabularies.map((vocabulary) =>
    wanted
      .filter((term) => vocabulary.has(term))
      .reduce(
        (sum, term) =>
          sum + Math.log(1 + pages.length / vocabularies.filter((other) => other.has(term)).length),
        0,
      ),
  );
}

/** Fills the schema from each page and keeps, per field, the first page that has it (arrays: all pages, deduplicated). */
function mergeFills(
  schema: JsonSchema,
  perPage: readonly StructuredEntity[][],
  relevance: readonly number[] = [],
): { value: Record<string, unknown>; missing: string[] } {
  const results = perPage.map((entities) => fillSchema(schema, entities, currencyFromEntities(entities)));
  if (results.length === 1) return results[0];
  // The page that answers most of the schema is the subject page: its values win over stray ones
  // elsewhere; among pages that answer as much, the one most about the prompt.
  const ranked = results
    .map((result, index) => ({ result, relevance: relevance[index] ?? 0 }))
    .sort(
      (a, b) =>
        Object.keys(b.result.value).length - Object.keys(a.result.value).length || b.relevance - a.relevance,
    )
    .map((entry) => entry.result);
  const value: Record<string, unknown> = {};
  for (const result of ranked) {
    for (const [key, field] of Object.entries(result.value)) {
      if (Array.isArray(field) && Array.isArray(value[key])) {
        const seen = new Set((value[key] as unknown[]).map((item) => JSON.stringify(item)));
        value[key] = [
          ...(value[key] as unknown[]),
          ...field.filter((item) => !seen.has(JSON.stringify(item))),
        ];
      } else if (value[key] === undefined) value[key] = field;
    }
  }
  const names = Object.keys((schema['properties'] as object | undefined) ?? {});
  return { value, missing: names.filter((name) => value[name] === undefined) };
}
