import type { JsonSchema } from '@quarry/llm';

import type { Extracted, ExtractionContext, PageInput } from '../extraction.types';
import { PROMPTS } from '../llm/prompts';
import { extractJson } from './json-format';
import { type ModelAccess, normalizeSpace, OFFLINE } from './model-or-fallback';

/**
 * Change tracking in json mode (exported for the changeTracking format): extracts both versions
 * with the same schema and pairs every field as `{previous, current}`.
 */
export async function compareJson(
  model: ModelAccess,
  previous: PageInput,
  current: PageInput,
  options: { schema?: JsonSchema; prompt?: string },
  context: ExtractionContext = {},
): Promise<Extracted<Record<string, { previous: unknown; current: unknown }>>> {
  const [before, after] = await Promise.all([
    extractJson(model, previous, options, context),
    extractJson(model, current, options, context),
  ]);
  const a = (before.value && typeof before.value === 'object' ? before.value : {}) as Record<string, unknown>;
  const b = (after.value && typeof after.value === 'object' ? after.value : {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  const value = Object.fromEntries(
    keys.map((key) => [key, { previous: a[key] ?? null, current: b[key] ?? null }]),
  );
  const warning = after.warning ?? before.warning;
  return { value, via: before.via === 'llm' && after.via === 'llm' ? 'llm' : 'fallback', warning };
}

/**
 * Change tracking without a schema: a short description of what changed between two versions;
 * offline (or when the model cannot be reached), counts of the lines added and removed.
 */
export function describeChange(
  model: ModelAccess,
  previousMarkdown: string,
  currentMarkdown: string,
  context: ExtractionContext = {},
): Promise<Extracted<string>> {
  return model.orFallback(
    'changeTracking',
    async () => {
      const half = Math.floor(model.llm.maxInputChars / 2);
      const result = await model.llm.complete({
        messages: [
          { role: 'system', content: PROMPTS.change },
          {
            role: 'user',
            content: `--- PREVIOUS ---\n${previousMarkdown.slice(0, half)}\n\n--- CURRENT ---\n${currentMarkdown.slice(0, half)}`,
          },
        ],
        maxOutputTokens: 300,
        signal: context.signal,
        deadline: context.deadline,
        usage: model.usage(context, 'changeTracking'),
      });
      return { value: result.text.trim(), via: 'llm' };
    },
    // The warning names the offline mode whatever the reason (as it always has).
    () => lineChanges(previousMarkdown, currentMarkdown),
  );
}

function lineChanges(previousMarkdown: string, currentMarkdown: string): Extracted<string> {
  const before = new Set(previousMarkdown.split('\n').map(normalizeSpace).filter(Boolean));
  const after = new Set(currentMarkdown.split('\n').map(normalizeSpace).filter(Boolean));
  const added = [...after].filter((line) => !before.has(line));
  const removed = [...before].filter((line) => !after.has(line));
  const sample = (lines: string[]) =>
    lines
      .slice(0, 2)
      .map((line) => `"${line.slice(0, 80)}"`)
      .join(', ');
  const parts = [
    `${added.length} line(s) added${added.length ? ` (${sample(added)})` : ''}`,
    `${removed.length} line(s) removed${removed.length ? ` (${sample(removed)})` : ''}`,
  ];
  return {
    value: `${parts.join('; ')}.`,
    via: 'fallback',
    warning: `changeTracking: ${OFFLINE}; the change summary counts added and removed lines (offline fallback).`,
  };
}
