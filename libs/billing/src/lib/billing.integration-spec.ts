import { AppError } from '@quarry/contracts';
import { IdentityRepository } from '@quarry/identity';
import type { Database } from '@quarry/platform/database';
import { createTestDatabase, type TestDatabase } from '@quarry/testing';

import { CreditsService, MAX_TEAM_CREDITS } from './credits.service';
import { permitBlock, RateLimiter } from './rate-limiter';

describe('credits ledger and rate limiter on PostgreSQL', () => {
  let testDb: TestDatabase;
  let db: Database;
  let teamId: string;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await testDb.open();
    teamId = (await new IdentityRepository(db).ensureTeam('ledger-team')).id;
  });
  afterAll(async () => {
    await db.close();
    await testDb.drop();
  });

  it('keeps the balance equal to the sum of the ledger, charging each idempotency key once', async () => {
    const sut = new CreditsService(db);
    await sut.grant(teamId, 100, 'initial', 'grant-1');
    await sut.grant(teamId, 100, 'initial', 'grant-1');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        sut.charge({ teamId, amount: 2, idempotencyKey: `job:${index % 10}` }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(10);
    expect(await sut.balance(teamId)).toBe(80);
    const rows = await db.sql.query<{ total: string }>(
      'SELECT sum(amount)::text AS total FROM credit_ledger WHERE team_id = $1',
      [teamId],
    );
    expect(Number(rows[0].total)).toBe(80);
  });

  it('refuses work with 402 when credits are short', async () => {
    const sut = new CreditsService(db);
    await expect(sut.ensureAvailable(teamId, 81)).rejects.toMatchObject({
      code: 'PAYMENT_REQUIRED',
      status: 402,
    });
    await expect(sut.ensureAvailable(teamId, 80)).resolves.toBe(80);
  });

  it('refuses with 409, recording nothing, a grant past the largest balance or an adjustment below the held credits', async () => {
    const sut = new CreditsService(db);
    const team = (await new IdentityRepository(db).ensureTeam('bounded-team')).id;
    const ledgerRows = async () =>
      Number(
        (
          await db.sql.query<{ n: string }>(
            'SELECT count(*)::text AS n FROM credit_ledger WHERE team_id = $1',
            [team],
          )
        )[0].n,
      );
    await sut.grant(team, 1_000_000_000);
    await sut.grant(team, 1_000_000_000);
    await expect(sut.grant(team, 1_000_000_000)).rejects.toMatchObject({
      code: 'CONFLICT',
      status: 409,
      message: expect.stringContaining('above 2,147,483,647 credits (balance 2000000000, grant 1000000000)'),
    });
    expect(await sut.balance(team)).toBe(2_000_000_000);
    expect(await ledgerRows()).toBe(2);
    await sut.grant(team, MAX_TEAM_CREDITS - 2_000_000_000); // exactly the largest balance
    expect(await sut.balance(team)).toBe(MAX_TEAM_CREDITS);

    // 50 credits held for an unfinished job: the balance may not go under them
    await sut.grant(team, 100 - MAX_TEAM_CREDITS);
    await db.sql.query('UPDATE teams SET reserved_credits = 50 WHERE id = $1', [team]);
    await expect(sut.grant(team, -51)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining(
        'below the 50 credits held for its unfinished jobs (balance 100, adjustment -51)',
      ),
    });
    await sut.grant(team, -50);
    expect(await sut.balance(team)).toBe(50);
    expect(await ledgerRows()).toBe(5);
  });

  it('limits requests per team per minute across instances, with Retry-After', async () => {
    const replicas = [new RateLimiter(db), new RateLimiter(db)];
    const now = Date.UTC(2026, 0, 1, 12, 0, 30);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) => replicas[index % 2].consume(teamId, 'scrape', 4, now)),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(4);
    const rejected = outcomes.find(
      (outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
    );
    expect(rejected?.reason).toBeInstanceOf(AppError);
    expect((rejected?.reason as AppError).retryAfterSeconds).toBe(30);
    await expect(replicas[0].consume(teamId, 'scrape', 4, now + 60_000)).resolves.toBeUndefined();
    await expect(replicas[0].consume(teamId, 'crawl', 4, now)).resolves.toBeUndefined();
  });

  it('counts concurrent requests of several replicas exactly when each counts its requests in batches', async () => {
    const replicas = [new RateLimiter(db), new RateLimiter(db), new RateLimiter(db)];
    const now = Date.UTC(2026, 0, 1, 13, 0, 10);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 90 }, (_, index) =>
        replicas[index % 3].consume(teamId, index % 2 === 0 ? 'batch-even' : 'batch-odd', 20, now),
      ),
    );
    // 45 requests per bucket, 20 allowed in each: exactly 40 pass, whatever the batching.
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(40);
    const counters = await db.sql.query<{ bucket: string; count: number }>(
      'SELECT bucket, count FROM rate_limit_windows WHERE team_id = $1 AND bucket LIKE $2 ORDER BY bucket',
      [teamId, 'batch-%'],
    );
    // The counter holds the permits handed out: one per request below a limit of 64, none after a refusal.
    for (const row of counters) expect(Number(row.count)).toBeGreaterThanOrEqual(20);
  });

  it('spends permits taken in blocks from memory, never more than the limit across replicas', async () => {
    const limit = 320; // blocks of up to 10 permits
    expect(permitBlock(limit)).toBe(10);
    const replicas = [new RateLimiter(db), new RateLimiter(db), new RateLimiter(db)];
    const now = Date.UTC(2026, 0, 1, 14, 0, 5);
    const statements = () =>
      db.sql.query<{ count: number }>(
        'SELECT count FROM rate_limit_windows WHERE team_id = $1 AND bucket = $2',
        [teamId, 'blocks'],
      );
    // Sequential requests of one replica: a statement per block, not per request.
    for (let index = 0; index < 40; index += 1) await replicas[0].consume(teamId, 'blocks', limit, now);
    expect(Number((await statements())[0].count)).toBeLessThanOrEqual(40 + 10);
    // Then all three at once, in waves, well past the limit: exactly the limit passes (every replica
    // keeps asking, so none keeps unspent permits), and each one refused asks nothing more.
    let passed = 40;
    for (let wave = 0; wave < 20; wave += 1) {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 30 }, (_, index) => replicas[index % 3].consume(teamId, 'blocks', limit, now)),
      );
      passed += outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    }
    expect(passed).toBe(limit);
  });
});
