import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '../../support/crawl-support';
import { type Platform, startStandalone } from '../../support/platform';
import { REPO_ROOT } from '../../support/service-process';

/** Where scripts/infra/clients.sh installs the clients (pinned versions, see that script). */
export const CLIENTS_DIR = process.env['QUARRY_CLIENTS_DIR'] ?? join(REPO_ROOT, '.tools/clients');
export const PYTHON = join(CLIENTS_DIR, 'python/bin/python');
export const MCP_MAIN = join(CLIENTS_DIR, 'npm/node_modules/firecrawl-mcp/dist/index.js');
export const CLI_MAIN = join(CLIENTS_DIR, 'npm/node_modules/firecrawl-cli/dist/index.js');

/** Fails with the command to run when a client is not installed (make test-clients installs them). */
export function requireClient(path: string): string {
  if (!existsSync(path))
    throw new Error(`${path} is missing: run scripts/infra/clients.sh (make test-clients does)`);
  return path;
}

/** Only what a client needs from the environment: no inherited FIRECRAWL_* settings or proxies. */
export function clientEnv(extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '',
    HOME: mkdtempSync(join(tmpdir(), 'quarry-client-home-')),
    LANG: 'C.UTF-8',
    ...extra,
  };
}

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a process to its end (killed after `timeoutMs`), collecting its output. */
export function runProcess(
  command: string,
  args: string[],
  options: { env: Record<string, string>; cwd?: string; timeoutMs: number; input?: string },
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

export interface CheckResult {
  check: string;
  ok: boolean;
  error?: string;
  trace?: string;
  seconds: number;
}

/** Runs one group of a Python client suite (apps/platform-e2e/src/clients/python) and parses its results. */
export async function runPythonGroup(
  suite: string,
  group: string,
  env: Record<string, string>,
  timeoutMs = 900_000,
): Promise<CheckResult[]> {
  const script = join(__dirname, '../python', suite);
  const result = await runProcess(requireClient(PYTHON), ['-u', script, group], {
    env: clientEnv({ PYTHONDONTWRITEBYTECODE: '1', PYTHONWARNINGS: 'ignore', ...env }),
    cwd: join(__dirname, '../python'),
    timeoutMs,
  });
  const checks = result.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as CheckResult);
  if (checks.length === 0)
    throw new Error(`${suite} ${group} ran no check (exit ${result.code}):\n${result.stderr.slice(-3000)}`);
  return checks;
}

/** The failures of a group, readable in a Jest diff; a passing group gives []. */
export function failuresOf(checks: CheckResult[]): string[] {
  return checks
    .filter((check) => !check.ok)
    .map((check) => `${check.check}: ${check.error}\n${check.trace ?? ''}`);
}

/** One line per client group for the suite's summary (calls tried / passed). */
export function tally(name: string, checks: { ok: boolean }[]): string {
  return `${name}: ${checks.filter((check) => check.ok).length}/${checks.length} passed`;
}

/**
 * The one-process server the clients talk to, on a known port (the clients need its URL; the
 * "listening" line is not logged at warn level). PUBLIC_URL stays unset: job URLs and `next` links
 * must name the host the client used.
 */
export async function startClientPlatform(env: Record<string, string> = {}): Promise<Platform> {
  return startStandalone(
    { PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    { readyTimeoutMs: 240_000 },
  );
}
