import { AppError } from '@quarry/contracts';
import { isLlmError } from '@quarry/llm';
import { markdownToText } from '@quarry/scrape/content';
import { applyRedaction, type PiiEntity, type PiiSpan } from '@quarry/scrape/formats';

import {
  type Extracted,
  type ExtractionContext,
  type PageInput,
  type PiiOptions,
  tasksOf,
} from '../extraction.types';
import { PROMPTS } from '../llm/prompts';
import { fallbackReason, type ModelAccess, OFFLINE, shouldFallBack } from './model-or-fallback';

/*
 * The safety formats keep rules of their own around the model: PII patterns always run (the model
 * only adds what they cannot see), and the prompt-injection check's patterns decide before any model.
 */

/** Finds PII in `text`: patterns always; the model adds what patterns cannot see (mode accurate/aggressive). */
export async function findPii(
  model: ModelAccess,
  text: string,
  options: PiiOptions,
  context: ExtractionContext = {},
): Promise<Extracted<PiiSpan[]>> {
  const detect = tasksOf(context);
  if (!model.llm.available) {
    return {
      value: await detect('detectPii', text, { mode: options.mode, entities: options.entities }),
      via: 'fallback',
      warning: `redactPII: ${OFFLINE}; PII was found by patterns and a name dictionary (offline fallback).`,
    };
  }
  const patterns = await detect('detectPii', text, { mode: 'fast', entities: options.entities });
  if (options.mode === 'fast') return { value: patterns, via: 'llm' };
  const entities = options.entities?.length
    ? options.entities
    : (['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'] as const);
  try {
    const result = await model.llm.complete({
      messages: [
        { role: 'system', content: `${PROMPTS.pii}\nRequested types: ${entities.join(', ')}.` },
        { role: 'user', content: text.slice(0, model.llm.maxInputChars) },
      ],
      responseSchema: {
        name: 'pii',
        schema: {
          type: 'object',
          properties: {
            entities: {
              type: 'array',
              items: {
                type: 'object',
                properties: { text: { type: 'string' }, type: { type: 'string', enum: [...entities] } },
                required: ['text', 'type'],
              },
            },
          },
          required: ['entities'],
        },
      },
      signal: context.signal,
      deadline: context.deadline,
      usage: model.usage(context, 'redactPII'),
    });
    const found = (
      (result.json as { entities?: { text?: unknown; type?: unknown }[] })?.entities ?? []
    ).filter(
      (entity): entity is { text: string; type: PiiEntity } =>
        typeof entity.text === 'string' &&
        entity.text.trim().length > 1 &&
        entities.includes(entity.type as PiiEntity),
    );
    const spans = [...patterns];
    for (const entity of found) {
      const needle = entity.text.trim();
      for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
        const span = { start: at, end: at + needle.length, type: entity.type, text: needle };
        if (!spans.some((other) => span.start < other.end && span.end > other.start)) spans.push(span);
      }
    }
    return { value: spans.sort((a, b) => a.start - b.start), via: 'llm' };
  } catch (error) {
    if (!shouldFallBack(error) && !isLlmError(error)) throw error;
    return {
      value: await detect('detectPii', text, { mode: options.mode, entities: options.entities }),
      via: 'fallback',
      warning: `redactPII: ${fallbackReason(error)}; PII was found by patterns and a name dictionary (offline fallback).`,
    };
  }
}

/** The `redactPII` option: the PII found, replaced in `text`. */
export async function redactPii(
  model: ModelAccess,
  text: string,
  options: PiiOptions,
  context: ExtractionContext = {},
): Promise<Extracted<string>> {
  const found = await findPii(model, text, options, context);
  return {
    value: applyRedaction(text, found.value, options.replaceStyle),
    via: found.via,
    warning: found.warning,
  };
}

/** checkPromptInjection (json mode): 403 SCRAPE_PROMPT_INJECTION_DETECTED when the page addresses a model. */
export async function checkPromptInjection(
  model: ModelAccess,
  page: PageInput,
  context: ExtractionContext = {},
): Promise<Extracted<boolean>> {
  const byPattern = await tasksOf(context)('findPromptInjection', markdownToText(page.markdown));
  if (byPattern.detected)
    throw new AppError('SCRAPE_PROMPT_INJECTION_DETECTED', {
      details: { evidence: byPattern.evidence, detector: 'pattern' },
    });
  if (!model.llm.available) {
    return {
      value: false,
      via: 'fallback',
      warning: `checkPromptInjection: ${OFFLINE}; the page was checked against known injection patterns only (offline fallback).`,
    };
  }
  try {
    const result = await model.llm.complete({
      messages: [
        { role: 'system', content: PROMPTS.injection },
        { role: 'user', content: model.page(page) },
      ],
      responseSchema: {
        name: 'injection_check',
        schema: {
          type: 'object',
          properties: { injection: { type: 'boolean' }, evidence: { type: 'string' } },
          required: ['injection'],
        },
      },
      signal: context.signal,
      deadline: context.deadline,
      usage: model.usage(context, 'checkPromptInjection'),
    });
    const verdict = result.json as { injection?: unknown; evidence?: unknown };
    if (verdict?.injection === true) {
      throw new AppError('SCRAPE_PROMPT_INJECTION_DETECTED', {
        details: {
          evidence: typeof verdict.evidence === 'string' ? verdict.evidence.slice(0, 200) : undefined,
          detector: 'model',
        },
      });
    }
    return { value: false, via: 'llm' };
  } catch (error) {
    if (error instanceof AppError) throw error;
    return {
      value: false,
      via: 'fallback',
      warning: `checkPromptInjection: ${fallbackReason(error)}; the page was checked against known injection patterns only (offline fallback).`,
    };
  }
}
