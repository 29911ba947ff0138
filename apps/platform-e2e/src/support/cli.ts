import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { REPO_ROOT } from './service-process';

/** Runs the built admin CLI against a database; returns its stdout lines (throws on failure). */
export function runCli(databaseUrl: string, args: string[]): string[] {
  const result = spawnSync(process.execPath, [join(REPO_ROOT, 'dist/apps/cli/main.js'), ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env['PATH'] ?? '', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status !== 0)
    throw new Error(`cli ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return result.stdout.trim().split('\n');
}

/** Creates a key with `keys create` and returns it (the last line of stdout). */
export function createKey(databaseUrl: string, team: string, extra: string[] = []): string {
  const lines = runCli(databaseUrl, ['keys', 'create', '--team', team, ...extra]);
  return lines[lines.length - 1];
}

/**
 * Runs the CLI exactly as the README tells an operator to, from the repository root:
 * `npm run --silent cli -- <args>` (tools/run-cli.cjs, the TypeScript sources), against `databaseUrl`.
 */
export function runNpmCli(
  databaseUrl: string,
  args: string[],
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('npm', ['run', '--silent', 'cli', '--', ...args], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
    },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
