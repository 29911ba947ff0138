import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type Platform, startStandalone } from './support/platform';
import { REPO_ROOT } from './support/service-process';

/**
 * API fuzzing (docs/compatibility.md#errors): schemathesis generates requests from the server's own
 * `/v2/openapi.json` — valid, boundary and malformed bodies, paths, queries and headers, and stateful
 * sequences following the spec's links — against a one-process server, and fails on any 5xx. Bad
 * input must get a 4xx in the spec's error shape, never a server error. The team API runs first with
 * a team key; the admin API last with ADMIN_API_KEY (its stateful phase revokes keys it lists).
 *
 * A fixed seed keeps a failure reproducible (`FUZZ_SEED` and `FUZZ_EXAMPLES` override it; the command
 * is printed with the failure). schemathesis is installed by `scripts/ops/tools.sh schemathesis`
 * (`make test-e2e` does).
 */
const ST = join(REPO_ROOT, '.tools/venv/bin/st');
const SEED = process.env['FUZZ_SEED'] ?? '20261204';
const EXAMPLES = process.env['FUZZ_EXAMPLES'] ?? '15';
const ADMIN_KEY = `fuzz-admin-${'0123456789abcdef'.repeat(3)}`;

interface FuzzRun {
  code: number | null;
  output: string;
  command: string;
}

function schemathesis(url: string, key: string, paths: string[], cwd: string): Promise<FuzzRun> {
  const args = [
    'run',
    `${url}/v2/openapi.json`,
    '-H',
    `Authorization: Bearer ${key}`,
    ...paths,
    '--checks',
    'not_a_server_error',
    '--max-examples',
    EXAMPLES,
    '--seed',
    SEED,
    '--no-color',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(ST, args, { cwd });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      resolve({ code, output, command: `st ${args.map((arg) => JSON.stringify(arg)).join(' ')}` }),
    );
  });
}

/** The summary's test-case line, e.g. "20432 generated, 20432 passed". */
const casesLine = (output: string) => /^\s*(\d+) generated.*$/m.exec(output);

describe('API fuzzing with schemathesis against /v2/openapi.json', () => {
  let platform: Platform;
  let work: string;

  beforeAll(async () => {
    if (!existsSync(ST))
      throw new Error(`${ST} is missing: run \`scripts/ops/tools.sh schemathesis\` (make test-e2e does)`);
    work = mkdtempSync(join(tmpdir(), 'quarry-fuzz-'));
    platform = await startStandalone({
      // Generated URLs must not reach anything: private and loopback targets are refused as in production.
      ALLOW_PRIVATE_NETWORKS: 'false',
      ADMIN_API_KEY: ADMIN_KEY,
      // Thousands of requests a minute from one key: the limiter is not what is tested here.
      RATE_LIMIT_PER_MINUTE: '1000000',
    });
  }, 240_000);

  afterAll(async () => {
    await platform?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it.each([
    ['the team API, with a team key', () => platform.apiKey, ['--exclude-path-regex', '^/admin']],
    ['the admin API, with ADMIN_API_KEY', () => ADMIN_KEY, ['--include-path-regex', '^/admin']],
  ])(
    'answers %s without a server error',
    async (name, key, paths) => {
      const run = await schemathesis(platform.url(), key(), paths as string[], work);
      const cases = casesLine(run.output);
      const detail = `${run.command}\n${run.output.slice(-6_000)}`;
      // Exit 0: every check passed on every generated case (1: a failure, 2+: schemathesis could not run).
      expect({ code: run.code, detail }).toEqual({ code: 0, detail: expect.any(String) });
      expect(cases).not.toBeNull();
      expect(Number(cases?.[1])).toBeGreaterThan(100);
      // The server is still there and serves a normal request after the fuzzing.
      expect(
        (
          await fetch(`${platform.url()}/v2/team`, {
            headers: { authorization: `Bearer ${platform.apiKey}` },
          })
        ).status,
      ).toBeLessThan(500);
      process.stdout.write(`schemathesis (${name}, seed ${SEED}): ${cases?.[0].trim()}\n`);
    },
    600_000,
  );
});
