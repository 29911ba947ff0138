import { AppError } from '@quarry/contracts';
import { estimateTokens } from '@quarry/llm';
import { markdownToText } from '@quarry/scrape/content';

import { type Extracted, type ExtractionContext, type PageInput, tasksOf } from '../extraction.types';
import { PROMPTS } from '../llm/prompts';
import { type ModelAccess, normalizeSpace } from './model-or-fallback';

const NOT_ON_PAGE = 'The page does not appear to contain an answer to this question.';

/** The `summary` format; offline: the page's most representative sentences. */
export function summarize(
  model: ModelAccess,
  page: PageInput,
  context: ExtractionContext = {},
): Promise<Extracted<string>> {
  return model.orFallback(
    'summary',
    async () => {
      const result = await model.llm.complete({
        messages: [
          { role: 'system', content: PROMPTS.summary },
          { role: 'user', content: model.page(page) },
        ],
        maxOutputTokens: 400,
        signal: context.signal,
        deadline: context.deadline,
        usage: model.usage(context, 'summary'),
      });
      return { value: result.text.trim(), via: 'llm' };
    },
    async (reason) => ({
      value: await tasksOf(context)('extractiveSummary', page.markdown, { title: page.title }),
      via: 'fallback',
      warning: `summary: ${reason}; the summary is made of the page's most representative sentences (extractive offline fallback).`,
    }),
  );
}

/** The `question` format; offline: the value or sentence the rules read from the page. */
export function answer(
  model: ModelAccess,
  page: PageInput,
  question: string,
  context: ExtractionContext = {},
): Promise<Extracted<string>> {
  return model.orFallback(
    'question',
    async () => {
      const result = await model.llm.complete({
        messages: [
          { role: 'system', content: PROMPTS.question },
          { role: 'user', content: `${model.page(page)}\n\n--- QUESTION ---\n${question}` },
        ],
        maxOutputTokens: 600,
        signal: context.signal,
        deadline: context.deadline,
        usage: model.usage(context, 'question'),
      });
      return { value: result.text.trim(), via: 'llm' };
    },
    (reason) => answerFallback(page, question, reason, context),
  );
}

async function answerFallback(
  page: PageInput,
  question: string,
  reason: string,
  context: ExtractionContext,
): Promise<Extracted<string>> {
  const found = await tasksOf(context)('offlineAnswer', [page], question);
  return {
    value: found?.answer ?? NOT_ON_PAGE,
    via: 'fallback',
    warning: `answer: ${reason}; the answer was read from the page by rules — the value the question asks for (price, weight, date, name…) from labelled fields, tables, structured data and the words around it, or the best-matching sentence for open questions — and is "not found" when the page does not say (extractive offline fallback).`,
  };
}

/** The `highlights` format: quotes the model found, kept only when they are on the page; offline: BM25 passages. */
export function highlights(
  model: ModelAccess,
  page: PageInput,
  query: string,
  context: ExtractionContext = {},
): Promise<Extracted<string>> {
  return model.orFallback(
    'highlights',
    async () => {
      const result = await model.llm.complete({
        messages: [
          { role: 'system', content: PROMPTS.highlights },
          { role: 'user', content: `${model.page(page)}\n\n--- QUERY ---\n${query}` },
        ],
        responseSchema: {
          name: 'highlights',
          schema: {
            type: 'object',
            properties: { highlights: { type: 'array', items: { type: 'string' } } },
            required: ['highlights'],
          },
        },
        signal: context.signal,
        deadline: context.deadline,
        usage: model.usage(context, 'highlights'),
      });
      const quotes = ((result.json as { highlights?: unknown })?.highlights ?? []) as unknown[];
      const source = normalizeSpace(page.markdown);
      const plain = normalizeSpace(markdownToText(page.markdown));
      const verified = quotes
        .filter((quote): quote is string => typeof quote === 'string' && quote.trim().length > 0)
        .filter(
          (quote) =>
            source.includes(normalizeSpace(quote)) || plain.includes(normalizeSpace(markdownToText(quote))),
        );
      if (verified.length > 0) return { value: verified.join('\n\n'), via: 'llm' };
      return highlightsFallback(page, query, 'the model quoted no passage that is on the page', context);
    },
    (reason) => highlightsFallback(page, query, reason, context),
  );
}

async function highlightsFallback(
  page: PageInput,
  query: string,
  reason: string,
  context: ExtractionContext,
): Promise<Extracted<string>> {
  return {
    value: (await tasksOf(context)('extractiveHighlights', page.markdown, query)).join('\n\n'),
    via: 'fallback',
    warning: `highlights: ${reason}; passages were ranked against the query by term overlap (BM25, offline fallback).`,
  };
}

/** The deprecated `query` format: freeform answers like `question`, directQuote quotes like `highlights`. */
export async function query(
  model: ModelAccess,
  page: PageInput,
  options: { prompt: string; mode: 'freeform' | 'directQuote' },
  context: ExtractionContext = {},
): Promise<Extracted<string>> {
  const result =
    options.mode === 'directQuote'
      ? await highlights(model, page, options.prompt, context)
      : await answer(model, page, options.prompt, context);
  return { ...result, warning: result.warning?.replace(/^(answer|highlights):/, 'query:') };
}

/**
 * onlyCleanContent: a model pass that removes residual boilerplate. Skipped (original kept, warning)
 * when the markdown exceeds the model's output limit; refused on zero-data-retention requests.
 */
export async function clean(
  model: ModelAccess,
  markdown: string,
  options: { zeroDataRetention: boolean },
  context: ExtractionContext = {},
): Promise<Extracted<string>> {
  if (options.zeroDataRetention) {
    throw new AppError('SCRAPE_ZDR_VIOLATION_ERROR', {
      message: 'onlyCleanContent is not supported with zero data retention',
    });
  }
  if (!markdown.trim()) return { value: markdown, via: 'skipped' };
  const { llm } = model;
  return model.orFallback(
    'onlyCleanContent',
    async () => {
      const tokens = estimateTokens(markdown);
      if (tokens > llm.maxOutputTokens) {
        return {
          value: markdown,
          via: 'skipped',
          warning: `onlyCleanContent was skipped: the markdown (about ${tokens} tokens) exceeds the cleaning model's output limit (${llm.maxOutputTokens} tokens); the original markdown is kept.`,
        };
      }
      const result = await llm.complete({
        messages: [
          { role: 'system', content: PROMPTS.clean },
          { role: 'user', content: markdown },
        ],
        signal: context.signal,
        deadline: context.deadline,
        usage: model.usage(context, 'clean'),
      });
      const cleaned = result.text.replace(/^```(?:markdown|md)?\s*\n([\s\S]*?)\n```\s*$/i, '$1').trim();
      if (result.finishReason === 'length' || !cleaned) {
        return {
          value: markdown,
          via: 'skipped',
          warning:
            'onlyCleanContent was skipped: the cleaning model did not return a complete document; the original markdown is kept.',
        };
      }
      return { value: cleaned, via: 'llm' };
    },
    async (reason) => ({
      value: (await tasksOf(context)('removeBoilerplate', markdown)).markdown,
      via: 'fallback',
      warning: `onlyCleanContent: ${reason}; residual boilerplate was removed by rules (cookie, newsletter, share, breadcrumb, comment and related-content blocks; offline fallback).`,
    }),
  );
}
