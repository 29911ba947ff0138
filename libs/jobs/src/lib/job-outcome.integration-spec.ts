import { CreditsService } from '@quarry/billing';
import { IdentityRepository } from '@quarry/identity';
import type { Database } from '@quarry/platform/database';
import { createTestDatabase, type TestDatabase } from '@quarry/testing';
import { randomUUID } from 'node:crypto';
import { DocumentRepository } from './document.repository';
import { JobOutcomeStore } from './job-outcome.store';
import { JobRepository } from './job.repository';

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
    document: { markdown: '# A', metadata: { sourceURL: 'https://example.com/a', url: 'https://example.com/a', statusCode: 200, scrapeId: jobId } },
  });

  it('stores the outcome, the document and the charge once, whatever the redeliveries', async () => {
    const jobs = new JobRepository(db);
    const sut = new JobOutcomeStore(db, new DocumentRepository(db), new CreditsService(db));
    const jobId = randomUUID();
    await jobs.create({ id: jobId, teamId, kind: 'scrape', input: { url: 'https://example.com/a' }, zeroDataRetention: false });
    expect(await jobs.start(jobId)).toBe(true);
    const attempts = await Promise.all([1, 2, 3].map(() => sut.complete({ jobId, teamId, kind: 'scrape', credits: 3, documents: [document(jobId)] })));
    expect(attempts.filter(Boolean)).toHaveLength(1);
    expect(await sut.fail(jobId, { code: 'SCRAPE_TIMEOUT', message: 'late' })).toBe(false);
    const job = await jobs.find(jobId);
    expect(job).toMatchObject({ status: 'completed', creditsUsed: 3, attempts: 1 });
    expect(await jobs.start(jobId)).toBe(false);
    const stored = await new DocumentRepository(db).findByJob(jobId);
    expect(stored?.document.markdown).toBe('# A');
    expect(await new CreditsService(db).balance(teamId)).toBe(47);
  });

  it('records failures without charging and never stores zero-data-retention input', async () => {
    const jobs = new JobRepository(db);
    const sut = new JobOutcomeStore(db, new DocumentRepository(db), new CreditsService(db));
    const jobId = randomUUID();
    await jobs.create({ id: jobId, teamId, kind: 'scrape', input: { url: 'https://secret.example/' }, zeroDataRetention: true });
    expect(await sut.fail(jobId, { code: 'SCRAPE_SITE_ERROR', message: 'down' })).toBe(true);
    const job = await jobs.find(jobId);
    expect(job).toMatchObject({ status: 'failed', input: null, error: { code: 'SCRAPE_SITE_ERROR', message: 'down' } });
    expect(await new CreditsService(db).balance(teamId)).toBe(47);
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
    const sut = new JobOutcomeStore(db, new DocumentRepository(db), credits);
    const before = await credits.balance(teamId);
    const hitId = randomUUID();
    await sut.recordFinished(
      { id: hitId, teamId, kind: 'scrape', input: { url: 'https://example.com/a' }, zeroDataRetention: false },
      { credits: 2, result: { cachedDocumentId: 'd-1' } },
    );
    expect(await jobs.find(hitId)).toMatchObject({ status: 'completed', creditsUsed: 2, result: { cachedDocumentId: 'd-1' } });
    const missId = randomUUID();
    await sut.recordFinished(
      { id: missId, teamId, kind: 'scrape', input: { url: 'https://secret.example/' }, zeroDataRetention: true },
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
  });
});
