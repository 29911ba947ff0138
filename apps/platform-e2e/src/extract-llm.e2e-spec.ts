import Firecrawl from '@mendable/firecrawl-js';

import {
  type FakeLlmReply,
  type FakeLlmRequest,
  type FakeLlmServer,
  type FixtureServer,
  scriptedModel,
  startFakeLlmServer,
  startFixtureServer,
} from '@quarry/testing';

import { freePort } from './support/crawl-support';
import {
  agentFinished,
  type ExtractStatus,
  fixtures,
  PRODUCT_SCHEMA,
  ZOD_PRODUCT,
} from './support/extract-support';
import { type Platform, startStandalone } from './support/platform';

// extract and agent threads in one-process mode with a language model; without one, on a cluster, in
// extract.e2e-spec.ts.
jest.setTimeout(300_000);

describe('extract (SDK 4.42) in one-process mode with a language model (local chat-completions server)', () => {
  let site: FixtureServer;
  let llm: FakeLlmServer;
  let platform: Platform;
  let firecrawl: Firecrawl;
  let override: ((request: FakeLlmRequest) => FakeLlmReply | undefined) | undefined;

  beforeAll(async () => {
    site = await startFixtureServer(fixtures());
    llm = await startFakeLlmServer((request) => override?.(request) ?? scriptedModel(request));
    const port = await freePort();
    platform = await startStandalone({
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LLM_BASE_URL: llm.url,
      LLM_API_KEY: 'sk-e2e',
      LLM_MODEL: 'fake-model',
      LLM_TIMEOUT_MS: '3000',
    });
    firecrawl = new Firecrawl({ apiKey: platform.apiKey, apiUrl: `http://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await platform?.stop();
    await llm?.close();
    await site?.close();
  });
  beforeEach(() => {
    override = undefined;
    llm.calls.length = 0;
  });

  it('extract() answers from the model with the caller system prompt, no warning, tokens counted', async () => {
    const result = (await firecrawl.extract({
      urls: [`${site.url}/shop/lamp`],
      prompt: 'The product on this page',
      systemPrompt: 'SYSTEM-MARKER-42: prices are numbers.',
      schema: ZOD_PRODUCT,
      pollInterval: 1,
      timeout: 120,
    })) as ExtractStatus;
    expect(result).toMatchObject({
      success: true,
      status: 'completed',
      data: { name: 'Arc Floor Lamp', price: 199 },
      creditsUsed: 5,
    });
    expect(result.warning).toBeUndefined();
    expect(result.tokensUsed).toBeGreaterThan(0);
    const extraction = llm.calls.filter((request) => request.responseFormat?.name === 'extraction');
    expect(extraction).toHaveLength(1);
    const system = extraction[0].messages.find((message) => message.role === 'system')?.content ?? '';
    expect(system).toContain('SYSTEM-MARKER-42: prices are numbers.');
    expect(system).toContain('User instructions: The product on this page');
  });

  it('answers a prompt without a schema as {answer, sources}', async () => {
    const result = await firecrawl.extract({
      urls: [`${site.url}/shop/chair`],
      prompt: 'What is the chair made of?',
      pollInterval: 1,
      timeout: 120,
    });
    expect(result).toMatchObject({ status: 'completed' });
    expect(result.data).toEqual({
      answer: expect.stringMatching(/^MODEL ANSWER: .*oak/i),
      sources: [`${site.url}/shop/chair`],
    });
  });

  it('fails the job (not billed) when the model cannot produce a schema-conforming result', async () => {
    override = (request) =>
      request.responseFormat?.name === 'extraction' ? { json: { name: 42, price: 'cheap' } } : undefined;
    const result = await firecrawl.extract({
      urls: [`${site.url}/shop/lamp`],
      schema: PRODUCT_SCHEMA,
      pollInterval: 1,
      timeout: 120,
    });
    expect(result).toMatchObject({ success: false, status: 'failed', data: [], creditsUsed: 0 });
    expect(result.error).toMatch(/^The model could not produce a result conforming to the JSON schema: /);
  });
  it('a chat thread: the model answers in message, and a follow-up sees the earlier turns', async () => {
    const finished = (id: string) => agentFinished(firecrawl, id);
    const first = await firecrawl.startAgent({
      prompt: 'What is the chair made of?',
      urls: [`${site.url}/shop/chair`],
      mode: 'chat',
    });
    const answered = await finished(first.id);
    expect(answered).toMatchObject({ status: 'completed', mode: 'chat', threadTurn: 1 });
    expect(answered.message).toMatch(/^MODEL ANSWER: .*oak/i);

    const before = llm.calls.length;
    const second = await firecrawl.startAgent({
      prompt: 'Is the chair good for a reading corner?',
      threadId: first.threadId,
      mode: 'chat',
    });
    expect(second.threadTurn).toBe(2);
    expect(await finished(second.id)).toMatchObject({ status: 'completed', threadId: first.threadId });
    const calls = llm.calls.slice(before);
    // the follow-up read the thread's page (no URL given) and its answer sees the first turn
    const extraction = calls.find((request) => request.responseFormat?.name === 'extraction');
    expect(extraction?.text).toContain(`URL: ${site.url}/shop/chair`);
    const system = extraction?.messages.find((message) => message.role === 'system')?.content ?? '';
    expect(system).toContain('User: What is the chair made of?');
    expect(system).toContain(`Assistant: ${answered.message}`);
  });
});
