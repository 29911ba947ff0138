import { type FakeLlmServer, startFakeLlmServer } from '@quarry/testing';

import type { TokenUsage, UsageContext } from './llm.types';
import { LlmError } from './llm-error';
import { type OpenAiCompatibleOptions, OpenAiCompatibleProvider } from './openai-compatible.provider';
import { backoffDelayMs, MAX_RETRY_AFTER_MS, parseRetryAfterMs, waitFitsBudget } from './retry-policy';

describe('OpenAiCompatibleProvider against a local chat-completions server', () => {
  let server: FakeLlmServer;
  const recorded: { context: UsageContext; model: string; usage: TokenUsage }[] = [];

  beforeAll(async () => {
    server = await startFakeLlmServer(() => 'unused');
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.calls.length = 0;
    recorded.length = 0;
  });

  const sut = (options: Partial<OpenAiCompatibleOptions> = {}) =>
    new OpenAiCompatibleProvider({
      baseUrl: server.url,
      apiKey: 'sk-test',
      model: 'fake-model',
      timeoutMs: 2_000,
      maxAttempts: 5,
      maxOutputTokens: 512,
      maxInputChars: 10_000,
      baseDelayMs: 10,
      usageSink: { record: async (entry) => void recorded.push(entry) },
      ...options,
    });
  const usage = { purpose: 'test', teamId: '00000000-0000-4000-8000-000000000001' };

  it('sends the chat-completions request with the key, model, token limit and JSON-schema response format', async () => {
    server.respondWith(() => ({ json: { title: 'Hello' } }));
    const schema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };
    const result = await sut().complete({
      messages: [
        { role: 'system', content: 'You extract.' },
        { role: 'user', content: 'Page: Hello' },
      ],
      responseSchema: { name: 'extract', schema },
      usage,
    });
    expect(result.json).toEqual({ title: 'Hello' });
    expect(result.attempts).toBe(1);
    const call = server.calls[0];
    expect(call.authorization).toBe('Bearer sk-test');
    expect(call.model).toBe('fake-model');
    expect(call.maxTokens).toBe(512);
    expect(call.responseFormat).toEqual({ name: 'extract', schema, strict: false });
    expect(call.messages.map((message) => message.role)).toEqual(['system', 'user']);
  });

  it('records token usage reported by the endpoint for the team and purpose', async () => {
    server.respondWith(() => ({
      content: 'ok',
      usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
    }));
    await sut().complete({ messages: [{ role: 'user', content: 'hi' }], usage });
    expect(recorded).toEqual([
      {
        context: usage,
        model: 'fake-model',
        usage: { promptTokens: 11, completionTokens: 3, totalTokens: 14 },
      },
    ]);
  });

  it('tolerates a fenced JSON answer', async () => {
    server.respondWith(() => '```json\n{"a":1}\n```');
    const result = await sut().complete({
      messages: [{ role: 'user', content: 'x' }],
      responseSchema: { name: 'x', schema: { type: 'object' } },
      usage,
    });
    expect(result.json).toEqual({ a: 1 });
  });

  it('retries 500, 502, 503 and 504 and then succeeds', async () => {
    server.respondWith((_request, index) =>
      [500, 502, 503, 504][index] ? { status: [500, 502, 503, 504][index] } : 'finally',
    );
    const result = await sut().complete({ messages: [{ role: 'user', content: 'x' }], usage });
    expect(result.text).toBe('finally');
    expect(result.attempts).toBe(5);
    expect(server.calls).toHaveLength(5);
  });

  it('waits the Retry-After of a 429 before retrying', async () => {
    const at: number[] = [];
    server.respondWith((_request, index) => {
      at.push(Date.now());
      return index === 0 ? { status: 429, headers: { 'retry-after': '1' } } : 'after the wait';
    });
    const result = await sut().complete({ messages: [{ role: 'user', content: 'x' }], usage });
    expect(result.text).toBe('after the wait');
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(950);
  });

  it('does not sleep into the deadline: a Retry-After longer than the time left ends the call at once', async () => {
    server.respondWith(() => ({ status: 429, headers: { 'retry-after': '3600' } }));
    const started = Date.now();
    const error = (await sut()
      .complete({ messages: [{ role: 'user', content: 'x' }], usage, deadline: Date.now() + 5_000 })
      .catch((caught: unknown) => caught)) as LlmError;
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(LlmError);
    expect(error.status).toBe(429);
    expect(error.unreachable).toBe(true);
    expect(error.message).toMatch(/after Retry-After 3600 s, beyond the time left for this request/);
    expect(server.calls).toHaveLength(1);
  });

  it('gives up on a Retry-After beyond the longest wait when the caller has no deadline', async () => {
    server.respondWith(() => ({ status: 503, headers: { 'retry-after': '86400' } }));
    const started = Date.now();
    await expect(sut().complete({ messages: [{ role: 'user', content: 'x' }], usage })).rejects.toMatchObject(
      { kind: 'http', status: 503 },
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(server.calls).toHaveLength(1);
  });

  it('caps the attempts at 5 whatever it is configured with (docs/llm.md#the-provider)', async () => {
    server.respondWith(() => ({ status: 503 }));
    const error = (await sut({ maxAttempts: 10 })
      .complete({ messages: [{ role: 'user', content: 'x' }], usage })
      .catch((caught: unknown) => caught)) as LlmError;
    expect(error.message).toContain('after 5 attempts');
    expect(server.calls).toHaveLength(5);
  });

  it('retries an attempt that times out, then succeeds', async () => {
    server.respondWith((_request, index) => (index === 0 ? { delayMs: 1_500, then: 'too late' } : 'in time'));
    const result = await sut({ timeoutMs: 500 }).complete({
      messages: [{ role: 'user', content: 'x' }],
      usage,
    });
    expect(result.text).toBe('in time');
    expect(result.attempts).toBe(2);
  });

  it('gives up after the maximum attempts with a timeout error', async () => {
    server.respondWith(() => ({ delayMs: 1_000, then: 'never in time' }));
    const error = await sut({ timeoutMs: 200, maxAttempts: 3 })
      .complete({ messages: [{ role: 'user', content: 'x' }], usage })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).kind).toBe('timeout');
    expect((error as LlmError).message).toContain('after 3 attempts');
    expect(server.calls).toHaveLength(3);
  });

  it('retries a dropped connection', async () => {
    server.respondWith((_request, index) => (index === 0 ? { hangUp: true } : 'reconnected'));
    const result = await sut().complete({ messages: [{ role: 'user', content: 'x' }], usage });
    expect(result.text).toBe('reconnected');
  });

  it('does not retry a 400 or a 401', async () => {
    for (const status of [400, 401]) {
      server.calls.length = 0;
      server.respondWith(() => ({ status, body: { error: { message: 'bad' } } }));
      const error = (await sut()
        .complete({ messages: [{ role: 'user', content: 'x' }], usage })
        .catch((caught: unknown) => caught)) as LlmError;
      expect(error.kind).toBe('http');
      expect(error.status).toBe(status);
      expect(server.calls).toHaveLength(1);
    }
  });

  it('reports a refusal, a cut-off structured answer and invalid JSON as invalid answers', async () => {
    const ask = () =>
      sut().complete({
        messages: [{ role: 'user', content: 'x' }],
        responseSchema: { name: 'x', schema: { type: 'object' } },
        usage,
      });
    server.respondWith(() => ({ content: null, refusal: 'I cannot help with that' }));
    await expect(ask()).rejects.toMatchObject({ kind: 'refused' });
    server.respondWith(() => ({ content: '{"a": [1, 2', finishReason: 'length' }));
    await expect(ask()).rejects.toMatchObject({ kind: 'invalid_response' });
    server.respondWith(() => 'not json at all');
    await expect(ask()).rejects.toMatchObject({ kind: 'invalid_response' });
  });

  it('reports an unreachable endpoint as a network error after retrying', async () => {
    const error = (await sut({ baseUrl: 'http://127.0.0.1:1/v1', maxAttempts: 2 })
      .complete({ messages: [{ role: 'user', content: 'x' }], usage })
      .catch((caught: unknown) => caught)) as LlmError;
    expect(error.kind).toBe('network');
    expect(error.unreachable).toBe(true);
  });
});

describe('retry policy (docs/llm.md#the-provider)', () => {
  it('doubles per attempt with jitter and caps at 30 s', () => {
    expect(backoffDelayMs(1, 500, () => 1)).toBe(500);
    expect(backoffDelayMs(2, 500, () => 1)).toBe(1_000);
    expect(backoffDelayMs(3, 500, () => 0)).toBe(1_000);
    expect(backoffDelayMs(20, 500, () => 1)).toBe(30_000);
  });

  it('lets a wait happen only when it fits the deadline, or the longest wait without one', () => {
    expect(waitFitsBudget(1_000, 10_000, 0)).toBe(true);
    expect(waitFitsBudget(9_900, 10_000, 0)).toBe(false);
    expect(waitFitsBudget(MAX_RETRY_AFTER_MS, undefined)).toBe(true);
    expect(waitFitsBudget(MAX_RETRY_AFTER_MS + 1, undefined)).toBe(false);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfterMs('2')).toBe(2_000);
    expect(parseRetryAfterMs(new Date(10_000).toUTCString(), 5_000)).toBe(5_000);
    expect(parseRetryAfterMs('soon')).toBeUndefined();
    expect(parseRetryAfterMs(null)).toBeUndefined();
  });
});
