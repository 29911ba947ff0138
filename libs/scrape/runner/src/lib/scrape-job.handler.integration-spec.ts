import { randomUUID } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';

import pino from 'pino';

import { CreditsService } from '@quarry/billing';
import { type JobEvent, type ScrapeJobMessage, scrapeRequestSchema } from '@quarry/contracts';
import { DocumentRepository, JobClaims, JobOutcomeStore, JobRepository, SuspectGate } from '@quarry/jobs';
import { MemoryBus } from '@quarry/platform/bus';
import type { Database } from '@quarry/platform/database';
import { AddressPolicy, GuardedHttpClient } from '@quarry/platform/net';
import { PlatformMetrics } from '@quarry/platform/observability';
import { HttpEngine, PipelineExtensions, ScrapePipeline } from '@quarry/scrape/engine';
import {
  createTestDatabase,
  type FixtureServer,
  html,
  startFixtureServer,
  type TestDatabase,
} from '@quarry/testing';

import { ScrapeJobHandler } from './scrape-job.handler';

jest.setTimeout(60_000);

/** The scrape worker's handler on real PostgreSQL, the in-memory bus and a fixture site on 127.0.0.1. */
describe('ScrapeJobHandler', () => {
  let database: TestDatabase;
  let db: Database;
  let site: FixtureServer;
  let bus: MemoryBus;
  let jobs: JobRepository;
  let documents: DocumentRepository;
  let credits: CreditsService;
  let sut: ScrapeJobHandler;
  const events: JobEvent[] = [];
  const teamId = randomUUID();

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await database.open();
    site = await startFixtureServer({
      '/article': html('<h1>Quarry handler</h1><p>The handler stores this paragraph.</p>'),
    });
    const logger = pino({ level: 'silent' });
    const metrics = new PlatformMetrics({ service: 'scrape-handler-test' });
    bus = new MemoryBus(logger);
    await bus.start();
    await bus.subscribe<JobEvent>('jobEvents', { group: 'test', concurrency: 8 }, async (message) => {
      events.push(message.value);
    });
    jobs = new JobRepository(db);
    documents = new DocumentRepository(db);
    credits = new CreditsService(db);
    const outcomes = new JobOutcomeStore(db);
    const client = new GuardedHttpClient(new AddressPolicy(false, ['127.0.0.1']), {
      userAgent: 'test',
      maxBytes: 5_000_000,
    });
    sut = new ScrapeJobHandler({
      pipeline: new ScrapePipeline(new HttpEngine(client), new PipelineExtensions()),
      jobs,
      outcomes,
      bus,
      metrics,
      logger,
      claims: new JobClaims(jobs, outcomes, metrics, logger, 3, new SuspectGate()),
    });
    await db.prisma.team.create({ data: { id: teamId, name: 'handler' } });
    await credits.grant(teamId, 100);
  });

  afterAll(async () => {
    await bus.stop();
    await site.close();
    await db.close();
    await database.drop();
  });

  /** A queued job row and the message a gateway would publish for it. */
  const queued = async (path: string, deadlineInMs = 20_000): Promise<ScrapeJobMessage> => {
    const jobId = randomUUID();
    const request = scrapeRequestSchema.parse({ url: `${site.url}${path}`, timeout: 20_000 });
    await jobs.create({ id: jobId, teamId, kind: 'scrape', input: request, zeroDataRetention: false });
    return { jobId, teamId, request, deadline: Date.now() + deadlineInMs, enqueuedAt: Date.now() };
  };
  const eventsOf = async (jobId: string, count = 1): Promise<JobEvent[]> => {
    for (let i = 0; i < 100 && events.filter((e) => e.jobId === jobId).length < count; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    return events.filter((e) => e.jobId === jobId);
  };

  it('stores the document and the charge, then announces the completion', async () => {
    const message = await queued('/article');
    const before = await credits.balance(teamId);
    await sut.handle(message);
    const job = await jobs.find(message.jobId);
    expect(job).toMatchObject({ status: 'completed' });
    const stored = await documents.findByJob(message.jobId);
    expect(stored?.document.markdown).toContain('The handler stores this paragraph.');
    expect(stored?.document.metadata).toMatchObject({ statusCode: 200, creditsUsed: 1 });
    expect(await credits.balance(teamId)).toBe(before - 1);
    // A small result travels in the event too, exactly as stored: the waiting request reads nothing back.
    const [event] = await eventsOf(message.jobId);
    expect(event).toMatchObject({ status: 'completed', kind: 'scrape', teamId });
    expect(event.inlineResult).toEqual(stored?.document);
  });

  it('charges a job from its hold and gives the hold back', async () => {
    const message = await queued('/article');
    await db.sql.query('DELETE FROM jobs WHERE id = $1', [message.jobId]);
    await jobs.create({
      id: message.jobId,
      teamId,
      kind: 'scrape',
      input: message.request,
      zeroDataRetention: false,
      holdCredits: 1,
    });
    const before = await credits.balance(teamId);
    expect(await credits.available(teamId)).toBe(before - 1);
    await sut.handle(message);
    expect(await credits.balance(teamId)).toBe(before - 1);
    expect(await credits.available(teamId)).toBe(before - 1);
    const [row] = await db.sql.query<{ reserved_credits: number }>(
      'SELECT reserved_credits FROM teams WHERE id = $1',
      [teamId],
    );
    expect(Number(row.reserved_credits)).toBe(0);
  });

  it('a redelivered job only re-announces its outcome: no second fetch, no second charge', async () => {
    const message = await queued('/article');
    await sut.handle(message);
    const fetches = site.hits.get('/article');
    const balance = await credits.balance(teamId);
    await sut.handle(message);
    expect(site.hits.get('/article')).toBe(fetches);
    expect(await credits.balance(teamId)).toBe(balance);
    expect((await eventsOf(message.jobId, 2)).map((event) => event.status)).toEqual([
      'completed',
      'completed',
    ]);
  });

  it('a job past its deadline fails as a timeout without fetching, uncharged', async () => {
    const message = await queued('/article', -1);
    const fetches = site.hits.get('/article');
    const balance = await credits.balance(teamId);
    await sut.handle(message);
    expect(site.hits.get('/article')).toBe(fetches);
    expect(await jobs.find(message.jobId)).toMatchObject({
      status: 'failed',
      error: { code: 'SCRAPE_TIMEOUT' },
    });
    expect(await credits.balance(teamId)).toBe(balance);
    expect(await eventsOf(message.jobId)).toEqual([expect.objectContaining({ status: 'failed' })]);
  });

  it('a target that refuses the connection is the job’s own failure: stored as failed, not charged, announced', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const jobId = randomUUID();
    const request = scrapeRequestSchema.parse({ url: `http://127.0.0.1:${port}/gone`, timeout: 20_000 });
    await jobs.create({ id: jobId, teamId, kind: 'scrape', input: request, zeroDataRetention: false });
    const balance = await credits.balance(teamId);
    await sut.handle({ jobId, teamId, request, deadline: Date.now() + 20_000, enqueuedAt: Date.now() });
    const job = await jobs.find(jobId);
    expect(job?.status).toBe('failed');
    expect(job?.error?.code).toBeTruthy();
    expect(await credits.balance(teamId)).toBe(balance);
    expect(await eventsOf(jobId)).toEqual([expect.objectContaining({ status: 'failed', error: job?.error })]);
  });

  it('a message without a job row is skipped', async () => {
    const message = { ...(await queued('/article')), jobId: randomUUID() };
    await sut.handle(message);
    expect(await jobs.find(message.jobId)).toBeUndefined();
    expect(await eventsOf(message.jobId)).toEqual([]);
  });
});
