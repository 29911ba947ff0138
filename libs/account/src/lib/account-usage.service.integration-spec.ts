import { randomUUID } from 'node:crypto';

import { CreditsService } from '@quarry/billing';
import { IdentityRepository } from '@quarry/identity';
import type { Database } from '@quarry/platform/database';
import { createTestDatabase, type TestDatabase } from '@quarry/testing';

import { AccountUsageService, billingPeriod } from './account-usage.service';

describe('AccountUsageService on PostgreSQL', () => {
  let testDb: TestDatabase;
  let db: Database;
  let teamId: string;
  let sut: AccountUsageService;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await testDb.open();
    teamId = (await new IdentityRepository(db).ensureTeam('usage-team')).id;
    const credits = new CreditsService(db);
    await credits.grant(teamId, 100, 'initial', 'usage-grant');
    await credits.charge({ teamId, amount: 30, idempotencyKey: 'job:usage-1' });
    sut = new AccountUsageService(db, 3);
  });
  afterAll(async () => {
    await db.close();
    await testDb.drop();
  });

  it('bounds billing periods by calendar months in UTC', () => {
    const period = billingPeriod(new Date(Date.UTC(2026, 11, 31, 23, 59)));
    expect(period.start.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(period.end.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('answers credit usage from the balance and the granted credits', async () => {
    const usage = await sut.creditUsage({ teamId });
    expect(usage.data).toMatchObject({ remainingCredits: 70, planCredits: 100 });
  });

  it('lists twelve monthly periods, the charges counted in the current one', async () => {
    const history = await sut.creditHistory({ teamId }, false);
    expect(history.periods).toHaveLength(12);
    expect(history.periods.at(-1)?.creditsUsed).toBe(30);
    expect(history.periods.slice(0, -1).every((period) => period.creditsUsed === 0)).toBe(true);
  });

  it('counts queued and active jobs of the team against its concurrency', async () => {
    await db.sql.query(
      `INSERT INTO jobs (id, team_id, kind, status) VALUES ($1, $2, 'scrape', 'queued'), ($3, $2, 'scrape', 'active')`,
      [randomUUID(), teamId, randomUUID()],
    );
    const queue = await sut.queueStatus({ teamId });
    expect(queue).toMatchObject({
      jobsInQueue: 2,
      activeJobsInQueue: 1,
      waitingJobsInQueue: 1,
      maxConcurrency: 3,
    });
    expect(await sut.concurrency({ teamId, concurrencyLimit: 5 })).toEqual({
      success: true,
      concurrency: 1,
      maxConcurrency: 5,
    });
  });
});
