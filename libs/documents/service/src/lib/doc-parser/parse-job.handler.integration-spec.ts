import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pino from 'pino';

import { CreditsService } from '@quarry/billing';
import {
  type DocumentParseJobMessage,
  type DocumentParseResultEvent,
  type JobEvent,
  parseRequestSchema,
} from '@quarry/contracts';
import type { DocumentToolkit } from '@quarry/documents/parsing';
import { DocumentRepository, JobClaims, JobOutcomeStore, JobRepository, SuspectGate } from '@quarry/jobs';
import { BlobStore } from '@quarry/platform/blob';
import { MemoryBus } from '@quarry/platform/bus';
import type { Database } from '@quarry/platform/database';
import { PlatformMetrics } from '@quarry/platform/observability';
import { createTestDatabase, testConfig, type TestDatabase } from '@quarry/testing';

import { closeDocumentToolkit, startDocumentToolkit } from '../document-toolkit.factory';
import { ParseJobHandler } from './parse-job.handler';

jest.setTimeout(120_000);

/** The doc-parser's handler on real PostgreSQL, the in-memory bus, a blob directory and the real parsing engines. */
describe('ParseJobHandler', () => {
  let database: TestDatabase;
  let db: Database;
  let blobDir: string;
  let blobs: BlobStore;
  let bus: MemoryBus;
  let toolkit: DocumentToolkit;
  let jobs: JobRepository;
  let documents: DocumentRepository;
  let credits: CreditsService;
  let sut: ParseJobHandler;
  const jobEvents: JobEvent[] = [];
  const results: DocumentParseResultEvent[] = [];
  const teamId = randomUUID();
  const request = parseRequestSchema.parse({ timeout: 60_000 });

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await database.open();
    blobDir = await mkdtemp(join(tmpdir(), 'parse-handler-'));
    blobs = new BlobStore({ dir: blobDir, publicUrl: 'http://blobs.test', signingSecret: 's'.repeat(32) });
    const logger = pino({ level: 'silent' });
    const metrics = new PlatformMetrics({ service: 'parse-handler-test' });
    toolkit = (await startDocumentToolkit(testConfig(), logger, metrics)).toolkit;
    bus = new MemoryBus(logger);
    await bus.start();
    await bus.subscribe<JobEvent>('jobEvents', { group: 'test', concurrency: 8 }, async (m) => {
      jobEvents.push(m.value);
    });
    await bus.subscribe<DocumentParseResultEvent>(
      'documentParseResults',
      { group: 'test', concurrency: 8 },
      async (m) => {
        results.push(m.value);
      },
    );
    jobs = new JobRepository(db);
    documents = new DocumentRepository(db);
    credits = new CreditsService(db);
    const outcomes = new JobOutcomeStore(db);
    sut = new ParseJobHandler({
      toolkit: () => toolkit,
      enrichers: [],
      blobs,
      bus,
      jobs,
      claims: new JobClaims(jobs, outcomes, metrics, logger, 3, new SuspectGate()),
      outcomes,
      metrics,
      logger,
    });
    await db.prisma.team.create({ data: { id: teamId, name: 'parse-handler' } });
    await credits.grant(teamId, 100);
  });

  afterAll(async () => {
    await bus.stop();
    await closeDocumentToolkit(toolkit);
    await db.close();
    await database.drop();
    await rm(blobDir, { recursive: true, force: true });
  });

  const settle = async <T extends { jobId: string }>(list: T[], jobId: string, count = 1): Promise<T[]> => {
    for (let i = 0; i < 150 && list.filter((e) => e.jobId === jobId).length < count; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    return list.filter((e) => e.jobId === jobId);
  };

  /** An uploaded CSV in the blob store, its queued job row and the message the gateway publishes. */
  const upload = async (deadlineInMs = 60_000): Promise<DocumentParseJobMessage> => {
    const jobId = randomUUID();
    const data = Buffer.from('city,population\nLyon,522000\nNantes,320000\n');
    const blob = await blobs.put(`parse-inputs/${jobId}`, data, 'text/csv', 60_000);
    await jobs.create({
      id: jobId,
      teamId,
      kind: 'parse',
      input: { options: request },
      zeroDataRetention: false,
    });
    return {
      parseId: randomUUID(),
      jobId,
      teamId,
      input: {
        blobKey: blob.key,
        kind: 'csv',
        filename: 'cities.csv',
        contentType: 'text/csv',
        sizeBytes: data.length,
      },
      pdf: null,
      reply: { type: 'job', request },
      deadline: Date.now() + deadlineInMs,
      enqueuedAt: Date.now(),
    };
  };

  it('parses an upload: document and charge stored, input blob removed, completion announced', async () => {
    const message = await upload();
    const balance = await credits.balance(teamId);
    await sut.handle(message);
    expect(await jobs.find(message.jobId)).toMatchObject({ status: 'completed' });
    const stored = await documents.findByJob(message.jobId);
    expect(stored?.document.markdown).toContain('Lyon');
    expect(stored?.document.markdown).toContain('522000');
    expect(await credits.balance(teamId)).toBeLessThan(balance);
    expect(await blobs.get(message.input.blobKey)).toBeUndefined();
    expect(await settle(jobEvents, message.jobId)).toEqual([
      expect.objectContaining({ status: 'completed', kind: 'parse' }),
    ]);
  });

  it('a redelivered upload only re-announces: no second charge', async () => {
    const message = await upload();
    await sut.handle(message);
    const balance = await credits.balance(teamId);
    await sut.handle(message);
    expect(await credits.balance(teamId)).toBe(balance);
    expect((await settle(jobEvents, message.jobId, 2)).map((e) => e.status)).toEqual([
      'completed',
      'completed',
    ]);
  });

  it('an upload past its deadline fails as a timeout; one whose blob is gone fails as invalid', async () => {
    const late = await upload(-1);
    await sut.handle(late);
    expect(await jobs.find(late.jobId)).toMatchObject({
      status: 'failed',
      error: { code: 'SCRAPE_TIMEOUT' },
    });
    expect(await settle(jobEvents, late.jobId)).toEqual([expect.objectContaining({ status: 'failed' })]);

    const gone = await upload();
    await blobs.delete(gone.input.blobKey);
    await sut.handle(gone);
    expect(await jobs.find(gone.jobId)).toMatchObject({
      status: 'failed',
      error: { code: 'DOCUMENT_INVALID' },
    });
  });

  it("a scrape's PDF asked raw (pdf: null) is stored as a result blob and announced to the scrape worker", async () => {
    const jobId = randomUUID();
    const data = Buffer.from('%PDF-1.4 raw bytes');
    const blob = await blobs.put(`parse-inputs/${jobId}`, data, 'application/pdf', 60_000);
    const message: DocumentParseJobMessage = {
      parseId: randomUUID(),
      jobId,
      teamId,
      input: { blobKey: blob.key, kind: 'pdf', sizeBytes: data.length },
      pdf: null,
      reply: { type: 'result' },
      deadline: Date.now() + 60_000,
      enqueuedAt: Date.now(),
    };
    await sut.handle(message);
    const [event] = await settle(results, jobId);
    expect(event).toMatchObject({ parseId: message.parseId, status: 'completed' });
    const result = await blobs.get(event.resultKey ?? '');
    expect(JSON.parse(result?.data.toString() ?? '{}')).toMatchObject({ markdown: data.toString('base64') });
    expect(await blobs.get(blob.key)).toBeUndefined();
  });

  it('a message without a job row is skipped', async () => {
    const message = { ...(await upload()), jobId: randomUUID() };
    await sut.handle(message);
    expect(await jobs.find(message.jobId)).toBeUndefined();
    expect(await settle(jobEvents, message.jobId)).toEqual([]);
  });
});
