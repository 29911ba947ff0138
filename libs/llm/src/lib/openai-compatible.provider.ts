import type { Logger } from 'pino';

import {
  type CompletionRequest,
  type CompletionResult,
  estimateTokens,
  type LlmProvider,
  type TokenUsage,
  type TokenUsageSink,
} from './llm.types';
import { LlmError } from './llm-error';
import {
  backoffDelayMs,
  isRetryableStatus,
  MAX_ATTEMPTS,
  parseRetryAfterMs,
  waitFitsBudget,
} from './retry-policy';

export interface OpenAiCompatibleOptions {
  /** Base URL of the API, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8000/v1`. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Per attempt. */
  timeoutMs: number;
  /** Attempts in total (docs/llm.md#the-provider: at most 5; larger values are capped). */
  maxAttempts: number;
  maxOutputTokens: number;
  maxInputChars: number;
  /** First backoff delay; doubles per attempt up to 30 s. */
  baseDelayMs?: number;
  usageSink?: TokenUsageSink;
  logger?: Pick<Logger, 'warn' | 'debug'>;
}

interface ChatCompletionBody {
  model?: string;
  choices?: {
    message?: { content?: string | null; refusal?: string | null };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
  error?: { message?: string };
}

class RetryableFailure extends Error {
  constructor(
    readonly failure: LlmError,
    readonly retryAfterMs?: number,
  ) {
    super(failure.message);
  }
}

/**
 * Chat completions over the OpenAI protocol (`POST {base}/chat/completions`), with JSON-schema
 * structured output, per-attempt timeouts, the retry rules of docs/llm.md#the-provider and token accounting. The
 * endpoint is operator-configured, so it is called directly rather than through the SSRF guard.
 */
export class OpenAiCompatibleProvider implements LlmProvider {
  readonly available = true;

  constructor(private readonly options: OpenAiCompatibleOptions) {}

  get model(): string {
    return this.options.model;
  }

  get maxOutputTokens(): number {
    return this.options.maxOutputTokens;
  }

  get maxInputChars(): number {
    return this.options.maxInputChars;
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const body: Record<string, unknown> = {
      model: this.options.model,
      messages: request.messages,
      temperature: request.temperature ?? 0,
      max_tokens: Math.min(
        request.maxOutputTokens ?? this.options.maxOutputTokens,
        this.options.maxOutputTokens,
      ),
    };
    if (request.responseSchema) {
      body['response_format'] = {
        type: 'json_schema',
        json_schema: {
          name: request.responseSchema.name,
          schema: request.responseSchema.schema,
          strict: false,
        },
      };
    }
    const payload = JSON.stringify(body);
    for (let attempt = 1; ; attempt += 1) {
      try {
        const result = await this.attempt(payload, request, attempt);
        await this.account(request, result);
        return result;
      } catch (error) {
        if (!(error instanceof RetryableFailure)) throw error;
        const delay = error.retryAfterMs ?? backoffDelayMs(attempt, this.options.baseDelayMs ?? 500);
        const last = attempt >= Math.min(this.options.maxAttempts, MAX_ATTEMPTS) || request.signal?.aborted;
        if (last || !waitFitsBudget(delay, request.deadline)) {
          // A wait the request cannot afford (e.g. a huge Retry-After) ends the call now, so the
          // caller still has time for its fallback instead of sleeping into its deadline.
          const why = last
            ? `after ${attempt} attempt${attempt > 1 ? 's' : ''}`
            : `after ${attempt} attempt${attempt > 1 ? 's' : ''}; the next one would start ${
                error.retryAfterMs !== undefined
                  ? `after Retry-After ${Math.ceil(delay / 1000)} s`
                  : `in ${delay} ms`
              }, beyond the time left for this request`;
          throw new LlmError(error.failure.kind, `${error.failure.message} (${why})`, {
            status: error.failure.status,
            attempts: attempt,
            cause: error.failure,
          });
        }
        this.options.logger?.warn(
          { attempt, delayMs: delay, reason: error.failure.message },
          'language model call failed; retrying',
        );
        await sleep(delay, request.signal);
      }
    }
  }

  private async attempt(
    payload: string,
    request: CompletionRequest,
    attempt: number,
  ): Promise<CompletionResult> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (this.options.apiKey) headers['authorization'] = `Bearer ${this.options.apiKey}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.options.baseUrl}/chat/completions`, {
        method: 'POST',
        headers,
        body: payload,
        signal,
      });
      text = await response.text();
    } catch (error) {
      if (request.signal?.aborted)
        throw new LlmError('timeout', 'language model call aborted', { attempts: attempt, cause: error });
      if (timeout.aborted) {
        throw new RetryableFailure(
          new LlmError('timeout', `language model did not answer within ${this.options.timeoutMs} ms`),
        );
      }
      throw new RetryableFailure(
        new LlmError('network', `language model endpoint unreachable: ${describe(error)}`),
      );
    }
    if (!response.ok) {
      const failure = new LlmError(
        'http',
        `language model endpoint answered HTTP ${response.status}: ${text.slice(0, 300)}`,
        {
          status: response.status,
          attempts: attempt,
        },
      );
      if (isRetryableStatus(response.status))
        throw new RetryableFailure(failure, parseRetryAfterMs(response.headers.get('retry-after')));
      throw failure;
    }
    let parsed: ChatCompletionBody;
    try {
      parsed = JSON.parse(text) as ChatCompletionBody;
    } catch (error) {
      throw new RetryableFailure(
        new LlmError('invalid_response', 'language model endpoint answered a body that is not JSON', {
          cause: error,
        }),
      );
    }
    const choice = parsed.choices?.[0];
    const message = choice?.message;
    if (message?.refusal)
      throw new LlmError('refused', `the model declined: ${message.refusal}`, { attempts: attempt });
    const content = message?.content;
    if (typeof content !== 'string')
      throw new LlmError('invalid_response', 'the model answered without content', { attempts: attempt });
    const finishReason = choice?.finish_reason ?? 'stop';
    const usage = toUsage(parsed.usage, request, content);
    const result: CompletionResult = {
      text: content,
      usage,
      model: parsed.model ?? this.options.model,
      finishReason,
      attempts: attempt,
    };
    if (request.responseSchema) {
      if (finishReason === 'length') {
        throw new LlmError('invalid_response', 'the model answer was cut off by its output token limit', {
          attempts: attempt,
        });
      }
      result.json = parseJsonAnswer(content);
    }
    return result;
  }

  private async account(request: CompletionRequest, result: CompletionResult): Promise<void> {
    if (!this.options.usageSink) return;
    try {
      await this.options.usageSink.record({
        context: request.usage,
        model: result.model,
        usage: result.usage,
      });
    } catch (error) {
      this.options.logger?.warn({ err: error }, 'token usage could not be recorded');
    }
  }
}

/** Parses a JSON answer, tolerating a Markdown code fence around it. */
export function parseJsonAnswer(content: string): unknown {
  const trimmed = content.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed);
  const candidate = fenced ? fenced[1] : trimmed;
  try {
    return JSON.parse(candidate);
  } catch (error) {
    throw new LlmError('invalid_response', `the model answer is not valid JSON: ${describe(error)}`, {
      cause: error,
    });
  }
}

function toUsage(
  usage: ChatCompletionBody['usage'],
  request: CompletionRequest,
  content: string,
): TokenUsage {
  const promptTokens =
    usage?.prompt_tokens ?? estimateTokens(request.messages.map((message) => message.content).join('\n'));
  const completionTokens = usage?.completion_tokens ?? estimateTokens(content);
  return {
    promptTokens,
    completionTokens,
    totalTokens: usage?.total_tokens ?? promptTokens + completionTokens,
  };
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
