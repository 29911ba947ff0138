import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

export interface ToolResult {
  isError: boolean;
  /** The text parts of the result, joined. */
  text: string;
  structured?: unknown;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * A JSON-RPC 2.0 client of an MCP server over stdio (newline-delimited messages), as an MCP host
 * speaks to firecrawl-mcp: initialize, tools/list, tools/call.
 */
export class McpSession {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private buffer = '';
  readonly stderr: string[] = [];

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => this.onData(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr.push(chunk.toString());
      if (this.stderr.length > 200) this.stderr.shift();
    });
    child.on('exit', (code) => {
      for (const [id, waiting] of this.pending) {
        clearTimeout(waiting.timer);
        waiting.reject(
          new Error(
            `MCP server exited (${code}) before answering request ${id}: ${this.stderr.join('').slice(-2000)}`,
          ),
        );
      }
      this.pending.clear();
    });
  }

  /** Spawns the server and completes the initialize handshake. */
  static async start(main: string, env: Record<string, string>): Promise<McpSession> {
    const child = spawn(process.execPath, [main], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const session = new McpSession(child);
    const init = (await session.request('initialize', {
      protocolVersion: '2024-11-05',
      capabilities: {},
      clientInfo: { name: 'quarry-client-suite', version: '1.0.0' },
    })) as { serverInfo?: { name: string; version: string } };
    if (!init.serverInfo) throw new Error('initialize answered without serverInfo');
    session.notify('notifications/initialized', {});
    return session;
  }

  request(method: string, params: unknown, timeoutMs = 60_000): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} got no answer in ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  notify(method: string, params: unknown): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
  }

  async listTools(): Promise<{ name: string; inputSchema: { required?: string[] } }[]> {
    const result = (await this.request('tools/list', {})) as {
      tools: { name: string; inputSchema: { required?: string[] } }[];
    };
    return result.tools;
  }

  async callTool(name: string, args: Record<string, unknown>, timeoutMs = 300_000): Promise<ToolResult> {
    const result = (await this.request('tools/call', { name, arguments: args }, timeoutMs)) as {
      isError?: boolean;
      content?: { type: string; text?: string }[];
      structuredContent?: unknown;
    };
    return {
      isError: result.isError === true,
      text: (result.content ?? []).map((part) => part.text ?? '').join('\n'),
      structured: result.structuredContent,
    };
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin.end();
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline).trim();
      this.buffer = this.buffer.slice(newline + 1);
      newline = this.buffer.indexOf('\n');
      if (!line.startsWith('{')) continue;
      const message = JSON.parse(line) as { id?: number; result?: unknown; error?: { message: string } };
      if (message.id === undefined) continue;
      const waiting = this.pending.get(message.id);
      if (!waiting) continue;
      this.pending.delete(message.id);
      clearTimeout(waiting.timer);
      if (message.error) waiting.reject(new Error(`JSON-RPC error: ${message.error.message}`));
      else waiting.resolve(message.result);
    }
  }
}
