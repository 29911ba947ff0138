import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chat-completions request as the fake model saw it. */
export interface FakeLlmRequest {
  model: string;
  messages: { role: string; content: string }[];
  /** `response_format.json_schema` when structured output was asked for. */
  responseFormat?: { name: string; schema: Record<string, unknown> };
  maxTokens?: number;
  authorization?: string;
  /** System + user text joined, for matching. */
  text: string;
}

export type FakeLlmReply =
  /** Answer this text. */
  | string
  /** Answer this value as JSON text. */
  | { json: unknown }
  | {
      content: string | null;
      finishReason?: string;
      refusal?: string;
      usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    }
  /** Answer an HTTP error. */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Wait, then answer (a slow model). */
  | { delayMs: number; then: FakeLlmReply }
  /** Drop the connection without answering. */
  | { hangUp: true };

export type FakeLlmResponder = (
  request: FakeLlmRequest,
  callIndex: number,
) => FakeLlmReply | Promise<FakeLlmReply>;

export interface FakeLlmServer {
  /** Base URL to configure as LLM_BASE_URL (ends with /v1). */
  url: string;
  calls: FakeLlmRequest[];
  respondWith(responder: FakeLlmResponder): void;
  close(): Promise<void>;
}

/**
 * A local HTTP server speaking the OpenAI chat-completions protocol (`POST /v1/chat/completions`),
 * standing in for the paid language-model endpoint in tests. Its answers come from `responder`.
 */
export async function startFakeLlmServer(responder: FakeLlmResponder): Promise<FakeLlmServer> {
  let respond = responder;
  const calls: FakeLlmRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        if (request.method !== 'POST' || !(request.url ?? '').endsWith('/chat/completions')) {
          response
            .writeHead(404, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: 'not found' } }));
          return;
        }
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        } catch {
          response
            .writeHead(400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: 'invalid JSON' } }));
          return;
        }
        const messages = (body['messages'] as { role: string; content: string }[] | undefined) ?? [];
        const format = body['response_format'] as
          { type?: string; json_schema?: { name: string; schema: Record<string, unknown> } } | undefined;
        const seen: FakeLlmRequest = {
          model: String(body['model'] ?? ''),
          messages,
          responseFormat:
            format?.type === 'json_schema' && format.json_schema ? format.json_schema : undefined,
          maxTokens: typeof body['max_tokens'] === 'number' ? body['max_tokens'] : undefined,
          authorization: request.headers['authorization'],
          text: messages.map((message) => message.content).join('\n'),
        };
        const index = calls.length;
        calls.push(seen);
        let reply: FakeLlmReply;
        try {
          reply = await respond(seen, index);
        } catch (error) {
          reply = { status: 500, body: { error: { message: String(error) } } };
        }
        await send(reply, seen, response);
      })();
    });
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    respondWith: (next) => (respond = next),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function send(
  reply: FakeLlmReply,
  request: FakeLlmRequest,
  response: import('node:http').ServerResponse,
): Promise<void> {
  if (typeof reply === 'object' && reply !== null && 'delayMs' in reply) {
    await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (response.destroyed) return;
    return send(reply.then, request, response);
  }
  if (typeof reply === 'object' && reply !== null && 'hangUp' in reply) {
    response.socket?.destroy();
    return;
  }
  if (typeof reply === 'object' && reply !== null && 'status' in reply) {
    response
      .writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
      .end(JSON.stringify(reply.body ?? { error: { message: 'fake error' } }));
    return;
  }
  let content: string | null;
  let finishReason = 'stop';
  let refusal: string | undefined;
  let usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | undefined;
  if (typeof reply === 'string') content = reply;
  else if ('json' in reply) content = JSON.stringify(reply.json);
  else {
    content = reply.content;
    finishReason = reply.finishReason ?? 'stop';
    refusal = reply.refusal;
    usage = reply.usage;
  }
  const promptTokens = Math.ceil(request.text.length / 4);
  const completionTokens = Math.ceil((content ?? '').length / 4);
  const body = {
    id: `chatcmpl-fake-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, ...(refusal ? { refusal } : {}) },
        finish_reason: finishReason,
      },
    ],
    usage: usage ?? {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
