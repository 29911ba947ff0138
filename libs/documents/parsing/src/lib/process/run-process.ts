import { spawn } from 'node:child_process';

export interface RunOptions {
  input?: Buffer;
  timeoutMs: number;
  /** Output above this is an error (the process is killed). */
  maxOutputBytes: number;
  /** Variables added to the inherited environment (through `env`, so the rest is inherited untouched). */
  extraEnv?: Record<string, string>;
  signal?: AbortSignal;
}

export class ProcessTimeoutError extends Error {
  constructor(command: string, timeoutMs: number) {
    super(`${command} did not finish within ${timeoutMs} ms`);
    this.name = 'ProcessTimeoutError';
  }
}

export class ProcessFailedError extends Error {
  constructor(
    command: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(
      `${command} failed (exit ${exitCode ?? 'signal'}): ${stderr.trim().split('\n').slice(-3).join(' ').slice(0, 500)}`,
    );
    this.name = 'ProcessFailedError';
  }
}

/**
 * Runs an external tool (pdftoppm, tesseract) with a hard time limit: on timeout, abort or output
 * overflow the process group is killed, so a stuck or hostile input never outlives its budget.
 */
export function runProcess(command: string, args: readonly string[], options: RunOptions): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const extra = Object.entries(options.extraEnv ?? {}).map(([key, value]) => `${key}=${value}`);
    const child = extra.length
      ? spawn('env', [...extra, command, ...args], { stdio: ['pipe', 'pipe', 'pipe'], detached: true })
      : spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let settled = false;
    const finish = (error: Error | undefined, value?: Buffer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (error) {
        kill();
        reject(error);
      } else resolve(value as Buffer);
    };
    const kill = () => {
      if (child.exitCode !== null || child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(
      () => finish(new ProcessTimeoutError(command, options.timeoutMs)),
      options.timeoutMs,
    );
    const onAbort = () => finish(new ProcessTimeoutError(command, options.timeoutMs));
    options.signal?.addEventListener('abort', onAbort);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > options.maxOutputBytes)
        finish(new Error(`${command} produced more than ${options.maxOutputBytes} bytes`));
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 20_000) stderr += chunk.toString();
    });
    child.on('error', (error) => finish(error));
    child.on('close', (code) => {
      if (code === 0) finish(undefined, Buffer.concat(chunks));
      else finish(new ProcessFailedError(command, code, stderr));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}
