import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from 'pg';

import type { Platform } from './platform';

/** Runs an admin command in a one-process server (it owns its embedded database). */
async function admin(platform: Platform, argv: string[]): Promise<string[]> {
  const handle = JSON.parse(readFileSync(join(platform.env['DATA_DIR'], 'standalone.json'), 'utf8')) as {
    url: string;
    token: string;
  };
  const response = await fetch(`${platform.url()}/internal/admin/commands`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': handle.token },
    body: JSON.stringify({ argv }),
  });
  const output = (await response.json()) as { exitCode: number; stdout: string[]; stderr: string[] };
  if (output.exitCode !== 0) throw new Error(`admin ${argv.join(' ')} failed: ${output.stderr.join('\n')}`);
  return output.stdout;
}

/** One statement on the platform's PostgreSQL (cluster layouts), on a connection of its own. */
export async function sql<T>(platform: Platform, query: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: platform.database?.url });
  await client.connect();
  try {
    return (await client.query(query, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** A new team with its own API key (and optionally a concurrency limit), in either process layout. */
export async function createTeamKey(
  platform: Platform,
  options: { concurrency?: number; credits?: number } = {},
): Promise<{ name: string; apiKey: string }> {
  const name = `team-${randomUUID().slice(0, 8)}`;
  const credits = options.credits ?? 100_000;
  if (!platform.database) {
    await admin(platform, [
      'teams',
      'create',
      name,
      '--credits',
      String(credits),
      ...(options.concurrency ? ['--concurrency', String(options.concurrency)] : []),
    ]);
    const lines = await admin(platform, ['keys', 'create', '--team', name]);
    return { name, apiKey: lines[lines.length - 1].trim() };
  }
  const apiKey = `fc-${randomBytes(24).toString('hex')}`;
  const [team] = await sql<{ id: string }>(
    platform,
    'INSERT INTO teams (id, name, credits, concurrency_limit) VALUES ($1, $2, $3, $4) RETURNING id',
    [randomUUID(), name, credits, options.concurrency ?? null],
  );
  await sql(platform, 'INSERT INTO api_keys (id, team_id, prefix, hash) VALUES ($1, $2, $3, $4)', [
    randomUUID(),
    team.id,
    apiKey.slice(0, 8),
    createHash('sha256').update(apiKey, 'utf8').digest('hex'),
  ]);
  return { name, apiKey };
}

/** The credit balance of a team (the bootstrap key's team is `default`). */
export async function teamCredits(platform: Platform, name = 'default'): Promise<number> {
  if (!platform.database) return Number((await admin(platform, ['credits', 'balance', '--team', name]))[0]);
  const [row] = await sql<{ credits: number }>(platform, 'SELECT credits FROM teams WHERE name = $1', [name]);
  return Number(row.credits);
}

/**
 * Takes one of the team's browser slots from outside, as a scrape running on another worker would
 * (cluster mode only: the lease table is shared by every worker). Returns a release function.
 */
export async function holdBrowserSlot(
  platform: Platform,
  teamName: string,
  ms: number,
): Promise<() => Promise<void>> {
  const id = randomUUID();
  await sql(
    platform,
    `INSERT INTO browser_leases (id, team_id, expires_at) SELECT $1, id, now() + ($3::int * interval '1 millisecond') FROM teams WHERE name = $2`,
    [id, teamName, ms],
  );
  return async () => void (await sql(platform, 'DELETE FROM browser_leases WHERE id = $1', [id]));
}
