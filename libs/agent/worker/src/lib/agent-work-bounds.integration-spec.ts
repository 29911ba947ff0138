import { randomUUID } from 'node:crypto';

import pino from 'pino';

import {
  type AgentRunRecord,
  AgentRunRepository,
  initialMemory,
  scrapeJobId,
  startRound,
  taskId,
  type TaskInput,
} from '@quarry/agent/domain';
import { CreditsService } from '@quarry/billing';
import { type AgentRequestInput, agentRequestSchema, type AgentWorkMessage } from '@quarry/contracts';
import { DocumentRepository, JobOutcomeStore, JobRepository, JobWaiter } from '@quarry/jobs';
import { OfflineProvider } from '@quarry/llm';
import { MemoryBus } from '@quarry/platform/bus';
import type { Database } from '@quarry/platform/database';
import { PlatformMetrics } from '@quarry/platform/observability';
import { ExtractionService } from '@quarry/scrape/model-formats';
import { createTestDatabase, testConfig, type TestDatabase, uniqueName } from '@quarry/testing';
import { WebhookOutboxRepository } from '@quarry/webhooks';

import { AgentRunner } from './agent-runner';
import { AgentSweeper } from './agent-sweeper';
import { IndexSearch } from './index-search';
import { ScrapeGateway } from './scrape-gateway';
import { TaskRunner } from './task-runner';

jest.setTimeout(120_000);

const logger = pino({ level: 'silent' });
const MAX_ATTEMPTS = 2;
const LEASE_MS = 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Every agent run terminates (issue 12): what cannot be read is never read, tool failures are
 * failed tool calls, and work whose executors keep dying is quarantined after WORK_MAX_ATTEMPTS.
 * Real PostgreSQL, the in-memory bus, the real scrape path up to the bus (no scrape worker runs:
 * pages that would need one are not read here).
 */
describe('agent work is bounded (PostgreSQL)', () => {
  let database: TestDatabase;
  let db: Database;
  let bus: MemoryBus;
  let waiter: JobWaiter;
  let runs: AgentRunRepository;
  let credits: CreditsService;
  let runner: AgentRunner;
  let tasks: TaskRunner;
  let sweeper: AgentSweeper;
  let teamId: string;
  const published: AgentWorkMessage[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await database.open();
    credits = new CreditsService(db);
    runs = new AgentRunRepository(db, credits, new WebhookOutboxRepository(db));
    teamId = (await db.prisma.team.create({ data: { name: uniqueName('team') } })).id;
    await credits.grant(teamId, 1_000);
    bus = new MemoryBus(logger);
    await bus.start();
    await bus.subscribe<AgentWorkMessage>('agentWork', { group: 'test', concurrency: 1 }, async (message) => {
      published.push(message.value);
    });
    const jobs = new JobRepository(db);
    const documents = new DocumentRepository(db);
    waiter = new JobWaiter(bus, jobs, logger);
    await waiter.start();
    const config = testConfig({
      WORK_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      AGENT_LEASE_MS: String(LEASE_MS),
      AGENT_RUN_TIMEOUT_MS: '600000',
    });
    const metrics = new PlatformMetrics({ service: 'test', defaultMetrics: false });
    const scrapes = new ScrapeGateway({
      jobs,
      documents,
      outcomes: new JobOutcomeStore(db),
      waiter,
      bus,
      metrics,
      retentionHours: 24,
    });
    runner = new AgentRunner({
      runs,
      documents,
      extraction: new ExtractionService(new OfflineProvider(4_096, 100_000)),
      llm: new OfflineProvider(4_096, 100_000),
      index: new IndexSearch(db),
      bus,
      config,
      metrics,
      logger,
    });
    tasks = new TaskRunner({ runs, scrapes, bus, config, metrics, logger });
    sweeper = new AgentSweeper({ runs, bus, config, logger, runner });
  });
  afterAll(async () => {
    await bus.stop();
    await db.close();
    await database.drop();
  });

  const newRun = async (input: Partial<AgentRequestInput> = {}) => {
    const id = randomUUID();
    const request = agentRequestSchema.parse({ prompt: 'ledger totals for march', ...input });
    await runs.create({
      id,
      teamId,
      request,
      memory: initialMemory(request.urls ?? [], 'deterministic'),
      expiresAt: new Date(Date.now() + 3_600_000),
      events: [],
    });
    return id;
  };
  /** A run already reading `url` in round 1 (as one planned before the planner filtered such URLs). */
  const readingRun = async (url: string, input: Partial<TaskInput> = {}) => {
    const runId = await newRun();
    const run = (await runs.find(runId)) as AgentRunRecord;
    const id = taskId(runId, 1, url);
    await runs.update(runId, {
      state: 'running',
      step: 2,
      memory: startRound({ ...run.memory, searched: true }, [{ url, reason: 'index', score: 1 }]),
      tasks: [{ id, round: 1, input: { url, name: 'reader-1.1', scrapeJobId: scrapeJobId(id), ...input } }],
    });
    return { runId, taskId: id };
  };
  const types = async (runId: string) => (await runs.events(runId)).map((event) => event.type);
  const charges = (jobId: string) =>
    db.sql.query<{ amount: number }>('SELECT amount FROM credit_ledger WHERE job_id = $1', [jobId]);
  const insertDocument = (url: string, title: string, markdown: string) =>
    db.sql.query(
      `INSERT INTO documents (id, team_id, source_url, url, url_key, status_code, title, content)
       VALUES (gen_random_uuid(), $1, $2, $2, $2, 200, $3, $4)`,
      [teamId, url, title, JSON.stringify({ markdown, metadata: { url, sourceURL: url, statusCode: 200 } })],
    );

  it('never reads an index hit that is not a web page: an upload named ledger.html, a browser error page', async () => {
    await insertDocument('ledger.html', 'Ledger', 'Ledger totals for march: 1200 EUR.');
    await insertDocument(
      'chrome-error://chromewebdata/',
      'Ledger blocked',
      'ledger totals for march is blocked',
    );
    expect(await new IndexSearch(db).search(teamId, 'ledger totals march')).toEqual([]);

    const runId = await newRun();
    await runner.advance(runId);
    const run = await runs.find(runId);
    // Nothing readable matched: refused at once, no sub-agent was started.
    expect(run).toMatchObject({ state: 'failed', outcome: 'refused' });
    expect(await runs.tasksOfRound(runId, 1)).toEqual([]);
    const search = (await runs.events(runId)).find(
      (event) =>
        event.type === 'tool_call.finished' && (event as { toolName?: string }).toolName === 'search_index',
    );
    expect(search).toMatchObject({ result: { hits: [] } });
    expect(await charges(runId)).toEqual([]);
  });

  it('turns a URL that is not a web page, and any exception of the scrape tool, into a failed tool call', async () => {
    const upload = await readingRun('ledger.html');
    await tasks.run(upload.runId, teamId, upload.taskId);
    expect(await runs.findTask(upload.taskId)).toMatchObject({
      state: 'failed',
      result: { ok: false, error: 'not a web page address (http or https): ledger.html' },
    });
    expect(await types(upload.runId)).toEqual([
      'agent.started',
      'tool_call.started',
      'tool_call.finished',
      'error.occurred',
      'agent.finished',
    ]);
    expect(published).toContainEqual({ type: 'advance', runId: upload.runId, teamId });

    // Scrape options the scrape contract refuses: the gateway throws (a ZodError), the task fails with it.
    const refused = await readingRun('https://shop.example/ledger', { scrapeOptions: { waitFor: 999_999 } });
    await tasks.run(refused.runId, teamId, refused.taskId);
    const task = await runs.findTask(refused.taskId);
    expect(task).toMatchObject({ state: 'failed', result: { ok: false } });
    expect(task?.result?.error).toMatch(/^the scrape tool failed: /);

    // The run absorbs the failed round and ends failed, unbilled.
    await runner.advance(upload.runId);
    expect(await runs.find(upload.runId)).toMatchObject({ state: 'failed', outcome: 'failed' });
    expect(await charges(upload.runId)).toEqual([]);
  });

  it('quarantines a task whose executors died WORK_MAX_ATTEMPTS times, and never hands it out again', async () => {
    const { runId, taskId: id } = await readingRun('https://shop.example/poison');
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      // an executor takes the task and dies with it (its lease lapses)
      expect(await runs.claimTask(id, LEASE_MS, MAX_ATTEMPTS)).toMatchObject({ attempts: attempt });
      await sleep(LEASE_MS + 100);
    }
    expect(await runs.claimTask(id, LEASE_MS, MAX_ATTEMPTS)).toBeUndefined();
    published.length = 0;
    await tasks.run(runId, teamId, id);
    const task = await runs.findTask(id);
    expect(task).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS, result: { ok: false } });
    expect(task?.result?.error).toBe(
      `quarantined after ${MAX_ATTEMPTS} attempts: reading this page failed or ended its orchestrator process every time, so it is not retried`,
    );
    expect(published).toEqual([{ type: 'advance', runId, teamId }]);
    const finished = (await runs.events(runId)).filter((event) => event.type === 'tool_call.finished');
    expect(finished).toHaveLength(1);
    // A later delivery of the same task changes nothing and is not re-published by the sweeper.
    await tasks.run(runId, teamId, id);
    expect((await runs.events(runId)).filter((event) => event.type === 'tool_call.finished')).toHaveLength(1);
    expect((await runs.staleTasks(0)).map((stale) => stale.id)).not.toContain(id);
  });

  it('quarantines a run whose step was attempted WORK_MAX_ATTEMPTS times without finishing: failed with the reason, not billed', async () => {
    const runId = await newRun({ urls: ['https://shop.example/'] });
    // Two orchestrators took the step and died (their leases lapse); a clean attempt would have given it back.
    for (const owner of ['dead-1', 'dead-2']) {
      expect(await runs.acquireLease(runId, owner, 200)).toBeDefined();
      await sleep(300);
    }
    expect((await runs.find(runId))?.stepAttempts).toBe(MAX_ATTEMPTS);
    await runner.advance(runId);
    const run = await runs.find(runId);
    expect(run).toMatchObject({ state: 'failed', outcome: 'failed', errorCode: 'internal' });
    expect(run?.errorMessage).toBe(
      `The agent run was quarantined: its step 0 was attempted ${MAX_ATTEMPTS} times and no attempt finished (each failed or ended its orchestrator process), so it is not retried. Nothing was billed.`,
    );
    expect(await db.prisma.job.findUnique({ where: { id: runId } })).toMatchObject({
      status: 'failed',
      creditsUsed: 0,
    });
    expect(await types(runId)).toEqual(['error.occurred', 'agent.finished', 'run.finished']);
    expect(await charges(runId)).toEqual([]);
    // Finished runs are never swept again.
    expect((await runs.staleRuns(0)).map((stale) => stale.id)).not.toContain(runId);
  });

  it('counts only attempts that did not end: a clean attempt gives its count back, a new step starts at one', async () => {
    const runId = await newRun({ urls: ['https://shop.example/'] });
    await runs.acquireLease(runId, 'a', 10_000);
    await runs.releaseLease(runId, 'a');
    expect((await runs.find(runId))?.stepAttempts).toBe(0);
    await runs.acquireLease(runId, 'b', 10_000);
    await runs.releaseLease(runId, 'b', false);
    await runs.acquireLease(runId, 'c', 10_000);
    expect((await runs.find(runId))?.stepAttempts).toBe(2);
    expect(await runs.update(runId, { whenStep: 0, step: 1 })).toBe(true);
    expect((await runs.find(runId))?.stepAttempts).toBe(1);
  });

  it('ends a run past its time budget from the sweeper, also while another process holds it', async () => {
    const runId = await newRun({ urls: ['https://shop.example/'] });
    await runs.acquireLease(runId, 'stuck-process', 600_000);
    await db.sql.query(`UPDATE agent_runs SET created_at = now() - interval '11 minutes' WHERE id = $1`, [
      runId,
    ]);
    await sweeper.sweep();
    const run = await runs.find(runId);
    expect(run).toMatchObject({ state: 'failed', outcome: 'failed' });
    expect(run?.errorMessage).toBe(
      'The agent run did not finish within its time budget (600 s, AGENT_RUN_TIMEOUT_MS) and was stopped. Nothing was billed.',
    );
    expect(await charges(runId)).toEqual([]);
  });
});
