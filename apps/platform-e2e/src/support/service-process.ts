import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '../../../..');

export type AppName = 'standalone' | 'gateway' | 'scrape-worker' | 'doc-parser' | (string & {});

export interface ServiceProcess {
  name: string;
  url: string;
  process: ChildProcess;
  logs: string[];
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL (a crash). */
  kill(): Promise<void>;
}

/**
 * Starts a built service (`dist/apps/<app>/main.js`) on a free port and resolves once `/readyz`
 * answers 200. Logs are kept for failure messages.
 */
export async function startService(
  app: AppName,
  env: Record<string, string>,
  options: { readyTimeoutMs?: number; label?: string } = {},
): Promise<ServiceProcess> {
  const main = join(REPO_ROOT, 'dist/apps', app, 'main.js');
  if (!existsSync(main))
    throw new Error(`${main} is missing: run \`npx nx build ${app}\` (make test-e2e builds it)`);
  const child = spawn(process.execPath, ['--enable-source-maps', main], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '/tmp',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const label = options.label ?? app;
  // A fixed port is known up front; port 0 is learnt from the "listening" log line (info level).
  const fixedPort = Number(env['PORT'] ?? 0);
  let url: string | undefined =
    fixedPort > 0 ? `http://${env['HOST'] ?? '127.0.0.1'}:${fixedPort}` : undefined;
  const onLine = (line: string) => {
    if (!line.trim()) return;
    logs.push(line);
    if (logs.length > 2_000) logs.shift();
    if (!url && line.includes('listening')) {
      try {
        const parsed = JSON.parse(line) as { url?: string };
        if (parsed.url) url = parsed.url.replace('[::1]', '127.0.0.1');
      } catch {
        // not a JSON log line
      }
    }
  };
  const split = (chunk: Buffer) => chunk.toString().split('\n').forEach(onLine);
  child.stdout?.on('data', split);
  child.stderr?.on('data', split);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + (options.readyTimeoutMs ?? 240_000);
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${label} exited with ${child.exitCode}:\n${logs.slice(-40).join('\n')}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${label} not ready in time:\n${logs.slice(-40).join('\n')}`);
    }
    if (url) {
      const ready = await fetch(`${url}/readyz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const readyUrl = url as string;
  return {
    name: label,
    url: readyUrl,
    process: child,
    logs,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 30_000)))]);
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
