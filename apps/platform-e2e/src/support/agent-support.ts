import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { Client } from 'pg';

import { call } from './api-client';
import { REPO_ROOT } from './service-process';

const run = promisify(execFile);

/** Runs the admin CLI (`dist/apps/cli/main.js`) against a database. */
export async function cli(databaseUrl: string, argv: string[]): Promise<string[]> {
  const { stdout } = await run(process.execPath, [join(REPO_ROOT, 'dist/apps/cli/main.js'), ...argv], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '/tmp',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'error',
    },
  });
  return stdout.trim().split('\n');
}

/** A new team with its own key (its own index, ledger and jobs). */
export async function newTeamKey(
  databaseUrl: string,
  team: string,
  options: { credits?: number; zeroDataRetention?: boolean } = {},
): Promise<string> {
  // One CLI process when it can be: `keys create` creates the team and grants its credits too.
  if (options.zeroDataRetention) await cli(databaseUrl, ['teams', 'create', team, '--zero-data-retention']);
  const lines = await cli(databaseUrl, [
    'keys',
    'create',
    '--team',
    team,
    ...(options.credits ? ['--credits', String(options.credits)] : []),
  ]);
  return lines[lines.length - 1];
}

export async function sql<Row = Record<string, unknown>>(
  databaseUrl: string,
  text: string,
  params: unknown[] = [],
): Promise<Row[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Row[];
  } finally {
    await client.end();
  }
}

export interface AgentStatus {
  success: boolean;
  status: 'processing' | 'completed' | 'failed';
  error?: string;
  data?: unknown;
  model: string;
  expiresAt: string;
  creditsUsed: number;
}

export interface TraceEvent {
  schemaVersion: number;
  eventId: string;
  runId: string;
  occurredAt: string;
  producerSequence: number;
  agent: { id: string; role: string; name: string; parentId?: string };
  type: string;
  [field: string]: unknown;
}

/** Polls an agent run until `done(status)` (default: not processing). */
export async function waitForAgent(
  baseUrl: string,
  apiKey: string,
  id: string,
  options: { timeoutMs?: number; done?: (status: AgentStatus) => boolean } = {},
): Promise<AgentStatus> {
  const deadline = Date.now() + (options.timeoutMs ?? 240_000);
  const done = options.done ?? ((status: AgentStatus) => status.status !== 'processing');
  for (;;) {
    const response = await call<AgentStatus>(baseUrl, 'GET', `/v2/agent/${id}`, { apiKey });
    if (response.status !== 200)
      throw new Error(`status poll answered ${response.status}: ${JSON.stringify(response.body)}`);
    if (done(response.body)) return response.body;
    if (Date.now() > deadline) throw new Error(`agent ${id} still ${response.body.status} after the timeout`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

export async function traceOf(baseUrl: string, apiKey: string, id: string): Promise<TraceEvent[]> {
  const response = await call<{ events: TraceEvent[] }>(baseUrl, 'GET', `/v2/agent/${id}/trace`, { apiKey });
  if (response.status !== 200)
    throw new Error(`trace answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.events;
}

/** Waits until the run's trace satisfies `predicate`. */
export async function waitForTrace(
  baseUrl: string,
  apiKey: string,
  id: string,
  predicate: (events: TraceEvent[]) => boolean,
  timeoutMs = 60_000,
): Promise<TraceEvent[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events = await traceOf(baseUrl, apiKey, id);
    if (predicate(events)) return events;
    if (Date.now() > deadline)
      throw new Error(
        `trace condition not met in time; events: ${events.map((event) => event.type).join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Invariants of every trace: gap-free ordered sequence numbers, unique event ids, one start and at most one finish. */
export function checkTraceInvariants(events: TraceEvent[], runId: string): void {
  const sequences = events.map((event) => event.producerSequence);
  const expected = Array.from({ length: events.length }, (_, index) => index + 1);
  if (JSON.stringify(sequences) !== JSON.stringify(expected))
    throw new Error(`producerSequence not 1..n: ${sequences.join(',')}`);
  if (new Set(events.map((event) => event.eventId)).size !== events.length)
    throw new Error('duplicate eventId in trace');
  for (const event of events) {
    if (event.schemaVersion !== 1 || event.runId !== runId || !event.occurredAt || !event.agent?.id)
      throw new Error(`malformed event ${JSON.stringify(event)}`);
  }
  if (events.filter((event) => event.type === 'run.started').length !== 1)
    throw new Error('run.started must appear exactly once');
  if (events.filter((event) => event.type === 'run.finished').length > 1)
    throw new Error('run.finished appears more than once');
}
