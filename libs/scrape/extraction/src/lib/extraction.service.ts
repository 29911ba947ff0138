import { AppError } from '@quarry/contracts';
import {
  checkJsonSchema,
  estimateTokens,
  isLlmError,
  normalizeSchemaForModel,
  schemaViolations,
  type ChatMessage,
  type JsonSchema,
  type LlmError,
  type LlmProvider,
} from '@quarry/llm';
import { markdownToText } from '@quarry/scrape/content';
import { extractiveAnswer, extractiveHighlights } from './answer/passage-ranking.util';
import { removeBoilerplate } from './clean/boilerplate-filter.util';
import { findPromptInjection } from './injection/prompt-injection.util';
import { pageContext, PROMPTS } from './llm/prompts';
import {
  applyRedaction,
  detectPii,
  type PiiEntity,
  type PiiMode,
  type PiiSpan,
  type ReplaceStyle,
} from './pii/pii-detector.util';
import { currencyFromEntities, fillSchema } from './structured/schema-fill.util';
import { readStructuredData, type StructuredEntity } from './structured/structured-data.util';
import { extractiveSummary } from './summary/extractive-summary.util';
import { terms } from './text/tokens.util';

/** A page to read: its markdown, and when available its raw HTML (structured data) and title. */
export interface PageInput {
  url: string;
  markdown: string;
  html?: string;
  title?: string;
}

export interface ExtractionContext {
  teamId?: string;
  jobId?: string;
  signal?: AbortSignal;
  /** Epoch ms by which the request must be answered; model retries never wait past it. */
  deadline?: number;
}

/** A derived value, how it was produced, and the warning to show when it came from a fallback or was skipped. */
export interface Extracted<T> {
  value: T;
  via: 'llm' | 'fallback' | 'skipped';
  warning?: string;
}

export interface PiiOptions {
  mode: PiiMode;
  entities?: readonly PiiEntity[];
  replaceStyle: ReplaceStyle;
}

const OFFLINE = 'no language model is configured (LLM_BASE_URL)';

function fallbackReason(error: unknown): string {
  if (isLlmError(error) && error.kind === 'unavailable') return OFFLINE;
  return `the language model could not be used (${error instanceof Error ? error.message : String(error)})`;
}

/** Model failures that are about reaching the model, not about what it answered: these fall back. */
function shouldFallBack(error: unknown): error is LlmError {
  return isLlmError(error) && error.unreachable;
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The language-model formats and their deterministic offline fallbacks (summary, json, question,
 * highlights, query, onlyCleanContent, redactPII, prompt-injection check). When the model is not
 * configured or cannot be reached, each format answers from its fallback and says so in `warning`;
 * an answer that breaks the caller's JSON schema is a 422, never a silent fallback.
 */
export class ExtractionService {
  constructor(private readonly llm: LlmProvider) {}

  get online(): boolean {
    return this.llm.available;
  }

  private usage(context: ExtractionContext, purpose: string) {
    return { teamId: context.teamId, jobId: context.jobId, purpose };
  }

  private page(page: PageInput): string {
    return pageContext(page, this.llm.maxInputChars);
  }

  async summarize(page: PageInput, context: ExtractionContext = {}): Promise<Extracted<string>> {
    if (this.llm.available) {
      try {
        const result = await this.llm.complete({
          messages: [
            { role: 'system', content: PROMPTS.summary },
            { role: 'user', content: this.page(page) },
          ],
          maxOutputTokens: 400,
          signal: context.signal,
          deadline: context.deadline,
          usage: this.usage(context, 'summary'),
        });
        return { value: result.text.trim(), via: 'llm' };
      } catch (error) {
        if (!shouldFallBack(error)) throw toAppError(error, 'summary');
        return this.summaryFallback(page, fallbackReason(error));
      }
    }
    return this.summaryFallback(page, OFFLINE);
  }

  private summaryFallback(page: PageInput, reason: string): Extracted<string> {
    return {
      value: extractiveSummary(page.markdown, { title: page.title }),
      via: 'fallback',
      warning: `summary: ${reason}; the summary is made of the page's most representative sentences (extractive offline fallback).`,
    };
  }

  /** Validates a caller's json schema: 422 when it is not valid JSON Schema (spec §7.2). */
  assertValidSchema(schema: JsonSchema | undefined): void {
    if (!schema) return;
    const check = checkJsonSchema(schema);
    if (!check.valid) throw new AppError('UNPROCESSABLE_ENTITY', { message: check.message });
  }

  async extractJson(
    page: PageInput,
    options: { schema?: JsonSchema; prompt?: string },
    context: ExtractionContext = {},
  ): Promise<Extracted<unknown>> {
    this.assertValidSchema(options.schema);
    if (this.llm.available) {
      try {
        return { value: await this.jsonByModel(this.page(page), options, context, 'json'), via: 'llm' };
      } catch (error) {
        if (!shouldFallBack(error)) throw toAppError(error, 'json');
        return this.jsonFallback([page], options, fallbackReason(error));
      }
    }
    return this.jsonFallback([page], options, OFFLINE);
  }

  /**
   * Asks the model for a schema-conforming value; one repair round when the first answer breaks
   * the schema, then 422. Throws LlmError for transport failures (callers may fall back) and for a
   * refusal (the agent ends its run as `refused`; a scrape answers 422).
   */
  private async jsonByModel(
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
        const result = await this.llm.complete({
          messages,
          responseSchema: { name: 'extraction', schema: normalizeSchemaForModel(schema) },
          signal: context.signal,
          deadline: context.deadline,
          usage: this.usage(context, purpose),
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

  private jsonFallback(
    pages: readonly PageInput[],
    options: { schema?: JsonSchema; prompt?: string },
    reason: string,
  ): Extracted<unknown> {
    const perPage = pages.map((page) => readStructuredData(page.html ?? ''));
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

  /**
   * The `deterministicJson` format: always the deterministic extractor (structured data + schema
   * field matching), never a model, so the same page always gives the same value.
   */
  async extractDeterministic(page: PageInput, options: { schema?: JsonSchema }): Promise<Extracted<unknown>> {
    this.assertValidSchema(options.schema);
    const entities = readStructuredData(page.html ?? '');
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

  async answer(
    page: PageInput,
    question: string,
    context: ExtractionContext = {},
  ): Promise<Extracted<string>> {
    if (this.llm.available) {
      try {
        const result = await this.llm.complete({
          messages: [
            { role: 'system', content: PROMPTS.question },
            { role: 'user', content: `${this.page(page)}\n\n--- QUESTION ---\n${question}` },
          ],
          maxOutputTokens: 600,
          signal: context.signal,
          deadline: context.deadline,
          usage: this.usage(context, 'question'),
        });
        return { value: result.text.trim(), via: 'llm' };
      } catch (error) {
        if (!shouldFallBack(error)) throw toAppError(error, 'question');
        return this.answerFallback(page, question, fallbackReason(error));
      }
    }
    return this.answerFallback(page, question, OFFLINE);
  }

  private answerFallback(page: PageInput, question: string, reason: string): Extracted<string> {
    const found = extractiveAnswer(page.markdown, question);
    return {
      value: found.answer ?? 'The page does not appear to contain an answer to this question.',
      via: 'fallback',
      warning: `answer: ${reason}; the answer is the page passage that best matches the question (extractive offline fallback).`,
    };
  }

  async highlights(
    page: PageInput,
    query: string,
    context: ExtractionContext = {},
  ): Promise<Extracted<string>> {
    if (this.llm.available) {
      try {
        const result = await this.llm.complete({
          messages: [
            { role: 'system', content: PROMPTS.highlights },
            { role: 'user', content: `${this.page(page)}\n\n--- QUERY ---\n${query}` },
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
          usage: this.usage(context, 'highlights'),
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
        const fallback = this.highlightsFallback(
          page,
          query,
          'the model quoted no passage that is on the page',
        );
        return fallback;
      } catch (error) {
        if (!shouldFallBack(error)) throw toAppError(error, 'highlights');
        return this.highlightsFallback(page, query, fallbackReason(error));
      }
    }
    return this.highlightsFallback(page, query, OFFLINE);
  }

  private highlightsFallback(page: PageInput, query: string, reason: string): Extracted<string> {
    return {
      value: extractiveHighlights(page.markdown, query).join('\n\n'),
      via: 'fallback',
      warning: `highlights: ${reason}; passages were ranked against the query by term overlap (BM25, offline fallback).`,
    };
  }

  /** The deprecated `query` format: freeform answers like `question`, directQuote quotes like `highlights`. */
  async query(
    page: PageInput,
    options: { prompt: string; mode: 'freeform' | 'directQuote' },
    context: ExtractionContext = {},
  ): Promise<Extracted<string>> {
    const result =
      options.mode === 'directQuote'
        ? await this.highlights(page, options.prompt, context)
        : await this.answer(page, options.prompt, context);
    return { ...result, warning: result.warning?.replace(/^(answer|highlights):/, 'query:') };
  }

  /**
   * onlyCleanContent: a model pass that removes residual boilerplate. Skipped (original kept, warning)
   * when the markdown exceeds the model's output limit; refused on zero-data-retention requests.
   */
  async clean(
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
    if (this.llm.available) {
      const tokens = estimateTokens(markdown);
      if (tokens > this.llm.maxOutputTokens) {
        return {
          value: markdown,
          via: 'skipped',
          warning: `onlyCleanContent was skipped: the markdown (about ${tokens} tokens) exceeds the cleaning model's output limit (${this.llm.maxOutputTokens} tokens); the original markdown is kept.`,
        };
      }
      try {
        const result = await this.llm.complete({
          messages: [
            { role: 'system', content: PROMPTS.clean },
            { role: 'user', content: markdown },
          ],
          signal: context.signal,
          deadline: context.deadline,
          usage: this.usage(context, 'clean'),
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
      } catch (error) {
        if (!shouldFallBack(error)) throw toAppError(error, 'onlyCleanContent');
        return this.cleanFallback(markdown, fallbackReason(error));
      }
    }
    return this.cleanFallback(markdown, OFFLINE);
  }

  private cleanFallback(markdown: string, reason: string): Extracted<string> {
    const result = removeBoilerplate(markdown);
    return {
      value: result.markdown,
      via: 'fallback',
      warning: `onlyCleanContent: ${reason}; residual boilerplate was removed by rules (cookie, newsletter, share, breadcrumb, comment and related-content blocks; offline fallback).`,
    };
  }

  /** Finds PII in `text`: patterns always; the model adds what patterns cannot see (mode accurate/aggressive). */
  async findPii(
    text: string,
    options: PiiOptions,
    context: ExtractionContext = {},
  ): Promise<Extracted<PiiSpan[]>> {
    const patterns = detectPii(text, {
      mode: options.mode === 'fast' || this.llm.available ? 'fast' : options.mode,
      entities: options.entities,
    });
    if (!this.llm.available || options.mode === 'fast') {
      if (this.llm.available) return { value: patterns, via: 'llm' };
      return {
        value: detectPii(text, { mode: options.mode, entities: options.entities }),
        via: 'fallback',
        warning: `redactPII: ${OFFLINE}; PII was found by patterns and a name dictionary (offline fallback).`,
      };
    }
    const entities = options.entities?.length
      ? options.entities
      : (['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'] as const);
    try {
      const result = await this.llm.complete({
        messages: [
          { role: 'system', content: `${PROMPTS.pii}\nRequested types: ${entities.join(', ')}.` },
          { role: 'user', content: text.slice(0, this.llm.maxInputChars) },
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
        usage: this.usage(context, 'redactPII'),
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
        value: detectPii(text, { mode: options.mode, entities: options.entities }),
        via: 'fallback',
        warning: `redactPII: ${fallbackReason(error)}; PII was found by patterns and a name dictionary (offline fallback).`,
      };
    }
  }

  async redactPii(
    text: string,
    options: PiiOptions,
    context: ExtractionContext = {},
  ): Promise<Extracted<string>> {
    const found = await this.findPii(text, options, context);
    return {
      value: applyRedaction(text, found.value, options.replaceStyle),
      via: found.via,
      warning: found.warning,
    };
  }

  /** checkPromptInjection (json mode): 403 SCRAPE_PROMPT_INJECTION_DETECTED when the page addresses a model. */
  async checkPromptInjection(page: PageInput, context: ExtractionContext = {}): Promise<Extracted<boolean>> {
    const byPattern = findPromptInjection(markdownToText(page.markdown));
    if (byPattern.detected)
      throw new AppError('SCRAPE_PROMPT_INJECTION_DETECTED', {
        details: { evidence: byPattern.evidence, detector: 'pattern' },
      });
    if (!this.llm.available) {
      return {
        value: false,
        via: 'fallback',
        warning: `checkPromptInjection: ${OFFLINE}; the page was checked against known injection patterns only (offline fallback).`,
      };
    }
    try {
      const result = await this.llm.complete({
        messages: [
          { role: 'system', content: PROMPTS.injection },
          { role: 'user', content: this.page(page) },
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
        usage: this.usage(context, 'checkPromptInjection'),
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

  /**
   * Change tracking in json mode (exported for the changeTracking format): extracts both versions
   * with the same schema and pairs every field as `{previous, current}`.
   */
  async compareJson(
    previous: PageInput,
    current: PageInput,
    options: { schema?: JsonSchema; prompt?: string },
    context: ExtractionContext = {},
  ): Promise<Extracted<Record<string, { previous: unknown; current: unknown }>>> {
    const [before, after] = await Promise.all([
      this.extractJson(previous, options, context),
      this.extractJson(current, options, context),
    ]);
    const a = (before.value && typeof before.value === 'object' ? before.value : {}) as Record<
      string,
      unknown
    >;
    const b = (after.value && typeof after.value === 'object' ? after.value : {}) as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    const value = Object.fromEntries(
      keys.map((key) => [key, { previous: a[key] ?? null, current: b[key] ?? null }]),
    );
    const warning = after.warning ?? before.warning;
    return { value, via: before.via === 'llm' && after.via === 'llm' ? 'llm' : 'fallback', warning };
  }

  /** Change tracking without a schema: a short description of what changed between two versions. */
  async describeChange(
    previousMarkdown: string,
    currentMarkdown: string,
    context: ExtractionContext = {},
  ): Promise<Extracted<string>> {
    if (this.llm.available) {
      try {
        const half = Math.floor(this.llm.maxInputChars / 2);
        const result = await this.llm.complete({
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
          usage: this.usage(context, 'changeTracking'),
        });
        return { value: result.text.trim(), via: 'llm' };
      } catch (error) {
        if (!shouldFallBack(error)) throw toAppError(error, 'changeTracking');
      }
    }
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

  /**
   * The agent's final step: answers the task from several pages, to the schema when one is given
   * (else `{answer, sources}`). Offline: structured data merged across pages, or the best passage.
   * A caller's `systemPrompt` (extract jobs) is added to the model's instructions.
   */
  async extractFromPages(
    pages: readonly PageInput[],
    options: { schema?: JsonSchema; prompt: string; systemPrompt?: string },
    context: ExtractionContext = {},
  ): Promise<Extracted<unknown>> {
    const schema: JsonSchema = options.schema ?? {
      type: 'object',
      properties: { answer: { type: 'string' }, sources: { type: 'array', items: { type: 'string' } } },
      required: ['answer'],
    };
    this.assertValidSchema(schema);
    if (this.llm.available) {
      const share = Math.max(2_000, Math.floor(this.llm.maxInputChars / Math.max(1, pages.length)));
      const content = pages
        .map((page, index) => `### Page ${index + 1}\n${pageContext(page, share)}`)
        .join('\n\n');
      try {
        const value = await this.jsonByModel(
          `${content}\n\n--- TASK ---\n${options.prompt}`,
          { schema, prompt: options.prompt },
          context,
          'agent.extract',
          options.systemPrompt?.trim()
            ? `${PROMPTS.agentAnswer}\n\n${options.systemPrompt.trim()}`
            : PROMPTS.agentAnswer,
        );
        return { value, via: 'llm' };
      } catch (error) {
        if (!shouldFallBack(error)) throw error;
        return this.pagesFallback(pages, options, fallbackReason(error));
      }
    }
    return this.pagesFallback(pages, options, OFFLINE);
  }

  private pagesFallback(
    pages: readonly PageInput[],
    options: { schema?: JsonSchema; prompt: string },
    reason: string,
  ): Extracted<unknown> {
    if (options.schema) return this.jsonFallback(pages, options, reason);
    // One ranking over the passages of every page read, so scores compare across pages, with a
    // prior for the pages most about the prompt (an index hit from another site rarely is).
    const relevance = pageRelevance(pages, options.prompt);
    const top = Math.max(0, ...relevance);
    const pageOf = (markdown: string) =>
      Math.max(
        0,
        pages.findIndex((page) => page.markdown.includes(markdown.trim())),
      );
    let best: { answer: string; url: string } | undefined;
    const found = extractiveAnswer(
      pages.map((page) => page.markdown).join('\n\n'),
      options.prompt,
      (passage) => (top > 0 ? 1 + relevance[pageOf(passage.markdown)] / top : 1),
    );
    if (found.answer)
      best = { answer: found.answer, url: pages[pageOf(found.source?.markdown ?? found.answer)].url };
    return {
      value: {
        answer: best?.answer ?? 'None of the pages read appear to answer the task.',
        sources: best ? [best.url] : pages.map((page) => page.url),
      },
      via: 'fallback',
      warning: `agent: ${reason}; the answer is the passage of the pages read that best matches the task (extractive offline fallback).`,
    };
  }
}

function toAppError(error: unknown, format: string): unknown {
  if (isLlmError(error))
    return new AppError('UNPROCESSABLE_ENTITY', {
      message: `The model could not produce the ${format}: ${error.message}`,
    });
  return error;
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

/** Fills the schema from each page and keeps, per field, the first page that has it (arrays: all pages, deduplicated). */
/**
 * How much each page is about the prompt: the prompt's terms found in the page's title and text,
 * each weighted by how few of the pages carry it (so "Road Glide" tells two shoe pages apart).
 */
function pageRelevance(pages: readonly PageInput[], prompt: string | undefined): number[] {
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
