import { randomUUID } from 'node:crypto';

import pino from 'pino';

import { CreditsService } from '@quarry/billing';
import { IdentityRepository } from '@quarry/identity';
import type { Database } from '@quarry/platform/database';
import { PlatformMetrics } from '@quarry/platform/observability';
import { createTestDatabase, type TestDatabase } from '@quarry/testing';

import { AbandonedJobSweeper } from './abandoned-job.sweeper';
import { DocumentRepository } from './document.repository';
import { JobRepository } from './job.repository';
import { JobClaims } from './job-claims';
import { JobOutcomeStore } from './job-outcome.store';
import { SuspectGate } from './suspect-gate';

describe('JobOutcomeStore on PostgreSQL', () => {
  let testDb: TestDatabase;
  let db: Database;
  let teamId: string;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await testDb.open();
    teamId = (await new IdentityRepository(db).ensureTeam('jobs-team')).id;
    await new CreditsService(db).grant(teamId, 50);
  });
  afterAll(async () => {
    await db.close();
    await testDb.drop();
  });

  const document = (jobId: string) => ({
    sourceUrl: 'https://example.com/a',
    url: 'https://example.com/a',
    urlKey: 'https://example.com/a',
    statusCode: 200,
    document: {
      markdown: '# A',
      metadata: {
        sourceURL: 'https://example.com/a',
        url: 'https://example.com/a',
        statusCode: 200,
        scrapeId: jobId,
      },
    },
  });

  it('stores the outcome, the document and the charge once, whatever the redeliveries', async () => {
    const jobs = new JobRepository(db);
    const sut = new JobOutcomeStore(db);
    const jobId = randomUUID();
    await jobs.create({
      id: jobId,
      teamId,
      kind: 'scrape',
      input: { url: 'https://example.com/a' },
      zeroDataRetention: false,
    });
    expect(await jobs.start(jobId, 2)).toBe('started');
    const attempts = await Promise.all(
      [1, 2, 3].map(() =>
        sut.complete({ jobId, teamId, kind: 'scrape', credits: 3, documents: [document(jobId)] }),
      ),
    );
    expect(attempts.filter(Boolean)).toHaveLength(1);
    expect(await sut.fail(jobId, { code: 'SCRAPE_TIMEOUT', message: 'late' })).toBe(false);
    const job = await jobs.find(jobId);
    expect(job).toMatchObject({ status: 'completed', creditsUsed: 3, attempts: 1 });
    expect(await jobs.start(jobId, 2)).toBe('finished');
    const stored = await new DocumentRepository(db).findByJob(jobId);
    expect(stored?.document.markdown).toBe('# A');
    expect(await new CreditsService(db).balance(teamId)).toBe(47);
  });

  it('records failures without charging and never stores zero-data-retention input', async () => {
    const jobs = new JobRepository(db);
    const sut = new JobOutcomeStore(db);
    const jobId = randomUUID();
    await jobs.create({
      id: jobId,
      teamId,
      kind: 'scrape',
      input: { url: 'https://secret.example/' },
      zeroDataRetention: true,
    });
    expect(await sut.fail(jobId, { code: 'SCRAPE_SITE_ERROR', message: 'down' })).toBe(true);
    const job = await jobs.find(jobId);
    expect(job).toMatchObject({
      status: 'failed',
      input: null,
      error: { code: 'SCRAPE_SITE_ERROR', message: 'down' },
    });
    expect(await new CreditsService(db).balance(teamId)).toBe(47);
  });

  it('never stores a browser error page and keeps a refused target only as the answer: no cache key, no charge', async () => {
    const jobs = new JobRepository(db);
    const credits = new CreditsService(db);
    const sut = new JobOutcomeStore(db);
    const before = await credits.balance(teamId);
    const rows = (jobId: string) =>
      db.sql.query<{ cache_key: string | null; status_code: number }>(
        'SELECT cache_key, status_code FROM documents WHERE job_id = $1',
        [jobId],
      );

    const errorPageJob = randomUUID();
    await jobs.create({
      id: errorPageJob,
      teamId,
      kind: 'scrape',
      input: { url: 'https://example.com/a' },
      zeroDataRetention: false,
    });
    await jobs.start(errorPageJob, 2);
    const errorPage = {
      ...document(errorPageJob),
      url: 'chrome-error://chromewebdata/',
      urlKey: 'chrome-error://chromewebdata/',
      cacheKey: 'cache-key-of-the-request',
      document: {
        markdown: '127.0.0.2 is blocked',
        metadata: {
          sourceURL: 'https://example.com/a',
          url: 'chrome-error://chromewebdata/',
          statusCode: 200,
          scrapeId: errorPageJob,
          creditsUsed: 1,
        },
      },
    };
    await expect(
      sut.complete({ jobId: errorPageJob, teamId, kind: 'scrape', credits: 1, documents: [errorPage] }),
    ).rejects.toMatchObject({ code: 'SCRAPE_SITE_ERROR', message: expect.stringContaining('error page') });
    expect(await rows(errorPageJob)).toEqual([]);
    expect(await jobs.find(errorPageJob)).toMatchObject({ status: 'active', creditsUsed: 0 });

    const refusedJob = randomUUID();
    await jobs.create({
      id: refusedJob,
      teamId,
      kind: 'scrape',
      input: { url: 'https://example.com/a' },
      zeroDataRetention: false,
    });
    await jobs.start(refusedJob, 2);
    const refusal =
      'Blocked insecure target URL: http://127.0.0.2/secret resolves to a private, loopback, link-local or metadata address';
    const refused = {
      ...document(refusedJob),
      statusCode: 403,
      cacheKey: 'cache-key-of-the-request',
      document: {
        markdown: '',
        metadata: {
          sourceURL: 'https://example.com/a',
          url: 'https://example.com/a',
          statusCode: 403,
          error: refusal,
          scrapeId: refusedJob,
          creditsUsed: 1,
        },
      },
    };
    expect(
      await sut.complete({ jobId: refusedJob, teamId, kind: 'scrape', credits: 1, documents: [refused] }),
    ).toBe(true);
    expect(await rows(refusedJob)).toEqual([{ cache_key: null, status_code: 403 }]);
    expect(await jobs.find(refusedJob)).toMatchObject({ status: 'completed', creditsUsed: 0 });
    expect((await new DocumentRepository(db).findByJob(refusedJob))?.document.metadata).toMatchObject({
      creditsUsed: 0,
      error: refusal,
    });
    expect(await credits.balance(teamId)).toBe(before);

    // An upload is not a web page: it keeps its file name as URL (kind parse).
    const uploadJob = randomUUID();
    await jobs.create({ id: uploadJob, teamId, kind: 'parse', zeroDataRetention: false });
    await jobs.start(uploadJob, 2);
    const upload = {
      sourceUrl: 'ledger.html',
      url: 'ledger.html',
      urlKey: `upload:${uploadJob}`,
      statusCode: 200,
      document: {
        markdown: '# Ledger',
        metadata: { sourceURL: 'ledger.html', url: 'ledger.html', statusCode: 200, scrapeId: uploadJob },
      },
    };
    expect(
      await sut.complete({ jobId: uploadJob, teamId, kind: 'parse', credits: 1, documents: [upload] }),
    ).toBe(true);
    expect(await rows(uploadJob)).toEqual([{ cache_key: null, status_code: 200 }]);
    expect(await credits.balance(teamId)).toBe(before - 1);
  });

  it('scopes jobs to their team', async () => {
    const jobs = new JobRepository(db);
    const jobId = randomUUID();
    await jobs.create({ id: jobId, teamId, kind: 'scrape', zeroDataRetention: false });
    const otherTeam = (await new IdentityRepository(db).ensureTeam('someone-else')).id;
    expect(await jobs.findForTeam(jobId, teamId)).toBeDefined();
    expect(await jobs.findForTeam(jobId, otherTeam)).toBeUndefined();
  });
  it('records a job that ends as it is recorded, with its charge, in one transaction', async () => {
    const jobs = new JobRepository(db);
    const credits = new CreditsService(db);
    const sut = new JobOutcomeStore(db);
    const before = await credits.balance(teamId);
    const hitId = randomUUID();
    await sut.recordFinished(
      {
        id: hitId,
        teamId,
        kind: 'scrape',
        input: { url: 'https://example.com/a' },
        zeroDataRetention: false,
      },
      { credits: 2, result: { cachedDocumentId: 'd-1' } },
    );
    expect(await jobs.find(hitId)).toMatchObject({
      status: 'completed',
      creditsUsed: 2,
      result: { cachedDocumentId: 'd-1' },
    });
    // One ledger row per recorded job, keyed by the job id, described by the job kind.
    expect(
      await db.prisma.creditLedgerEntry.findMany({
        where: { jobId: hitId },
        select: { amount: true, kind: true, idempotencyKey: true, description: true, teamId: true },
      }),
    ).toEqual([
      { amount: -2, kind: 'charge', idempotencyKey: `job:${hitId}`, description: 'scrape', teamId },
    ]);
    const missId = randomUUID();
    await sut.recordFinished(
      {
        id: missId,
        teamId,
        kind: 'scrape',
        input: { url: 'https://secret.example/' },
        zeroDataRetention: true,
      },
      { credits: 1, error: { code: 'SCRAPE_LOCKDOWN_CACHE_MISS', message: 'miss' } },
    );
    expect(await jobs.find(missId)).toMatchObject({
      status: 'failed',
      input: null,
      creditsUsed: 1,
      error: { code: 'SCRAPE_LOCKDOWN_CACHE_MISS' },
    });
    expect(await credits.balance(teamId)).toBe(before - 3);
    // The same job id again: the transaction fails whole, nothing is charged twice.
    await expect(
      sut.recordFinished({ id: hitId, teamId, kind: 'scrape', zeroDataRetention: false }, { credits: 2 }),
    ).rejects.toThrow();
    expect(await credits.balance(teamId)).toBe(before - 3);
    // A free outcome: the job is recorded, no ledger row, the balance untouched.
    const freeId = randomUUID();
    await sut.recordFinished(
      { id: freeId, teamId, kind: 'scrape', zeroDataRetention: false },
      { credits: 0 },
    );
    expect(await jobs.find(freeId)).toMatchObject({
      status: 'completed',
      creditsUsed: 0,
      input: null,
      result: null,
    });
    expect(await db.prisma.creditLedgerEntry.count({ where: { jobId: freeId } })).toBe(0);
    expect(await credits.balance(teamId)).toBe(before - 3);
  });

  it('quarantines a job whose every allowed run ended without an outcome, and not one given back', async () => {
    const jobs = new JobRepository(db);
    const outcomes = new JobOutcomeStore(db);
    const metrics = new PlatformMetrics({ service: 'test', defaultMetrics: false });
    const sut = new JobClaims(jobs, outcomes, metrics, pino({ level: 'silent' }), 2, new SuspectGate());
    const jobId = randomUUID();
    await jobs.create({ id: jobId, teamId, kind: 'scrape', zeroDataRetention: false });
    expect(await sut.claim(jobId, 'scrape')).toEqual({ outcome: 'run' });
    await sut.release(jobId); // the database failed under this run: it does not count
    expect(await sut.claim(jobId, 'scrape')).toEqual({ outcome: 'run' });
    // the process died here, twice: no outcome was recorded
    expect(await sut.claim(jobId, 'scrape')).toEqual({ outcome: 'run' });
    const quarantined = await sut.claim(jobId, 'scrape');
    expect(quarantined).toMatchObject({ outcome: 'quarantined', error: { code: 'SCRAPE_RETRY_LIMIT' } });
    expect(await jobs.find(jobId)).toMatchObject({
      status: 'failed',
      attempts: 2,
      error: { code: 'SCRAPE_RETRY_LIMIT', message: expect.stringContaining('Quarantined after 2 attempts') },
    });
    expect(await sut.claim(jobId, 'scrape')).toEqual({ outcome: 'finished' });
    expect(await metrics.registry.getSingleMetricAsString('quarry_work_quarantined_total')).toContain(
      'quarry_work_quarantined_total{kind="scrape",service="test"} 1',
    );
  });

  it('closes bus jobs abandoned long past any deadline, and only those', async () => {
    const jobs = new JobRepository(db);
    const sut = new AbandonedJobSweeper(jobs, pino({ level: 'silent' }));
    const stale = randomUUID();
    const fresh = randomUUID();
    await jobs.create({ id: stale, teamId, kind: 'scrape', zeroDataRetention: false });
    await jobs.create({ id: fresh, teamId, kind: 'scrape', zeroDataRetention: false });
    await db.sql.query(`UPDATE jobs SET created_at = now() - interval '1 hour' WHERE id = $1`, [stale]);
    expect(await sut.sweep()).toBeGreaterThanOrEqual(1);
    expect(await jobs.find(stale)).toMatchObject({ status: 'failed', error: { code: 'SCRAPE_TIMEOUT' } });
    expect(await jobs.find(fresh)).toMatchObject({ status: 'queued' });
  });
});
