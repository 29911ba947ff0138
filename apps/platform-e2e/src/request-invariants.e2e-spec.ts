import { createHash } from 'node:crypto';

import { type FixtureServer, startBasicSite } from '@quarry/testing';

import { call } from './support/api-client';
import { type Platform, startCluster } from './support/platform';
import { createTeamKey, sql as platformSql } from './support/teams';

interface Scraped {
  success: boolean;
  data: { markdown?: string; metadata: { scrapeId?: string; cacheState?: string; creditsUsed?: number } };
}

/**
 * The invariants of the synchronous request path across gateway replicas (docs/architecture.md
 * "Credits, keys and cache hits"): two gateways, one worker, Kafka and PostgreSQL.
 */
describe('request path invariants across two gateways', () => {
  let platform: Platform;
  let site: FixtureServer;

  beforeAll(async () => {
    site = await startBasicSite();
    platform = await startCluster({ gateways: 2, workers: 1 });
  });
  afterAll(async () => {
    await platform?.stop();
    await site?.close();
  });

  const sql = <T>(query: string, params: unknown[] = []) => platformSql<T>(platform, query, params);
  const scrapeOn = (gateway: number, apiKey: string, body: Record<string, unknown>) =>
    call<Scraped>(platform.gateways[gateway].url, 'POST', '/v2/scrape', { apiKey, body });

  it('never overdraws a team with concurrent hits and scrapes, and every hit is retrievable at once on the other gateway', async () => {
    const team = await createTeamKey(platform, { credits: 7 });
    const page = { url: `${site.url}/article`, formats: ['markdown'], maxAge: 3_600_000 };
    // A miss through the workers: holds its price, stores the page, charged 1 (6 left).
    const first = await scrapeOn(0, team.apiKey, page);
    expect(first.status).toBe(200);
    expect(first.body.data.metadata.cacheState).toBe('miss');

    // 14 hits at once through both gateways, with 4 fresh scrapes (maxAge 0) racing them: the 6
    // credits left pay for 6 of them, whichever they are; the others are refused with 402.
    const answers = await Promise.all([
      ...Array.from({ length: 14 }, (_, index) => scrapeOn(index % 2, team.apiKey, page)),
      ...Array.from({ length: 4 }, (_, index) => scrapeOn(index % 2, team.apiKey, { ...page, maxAge: 0 })),
    ]);
    const paid = answers.filter((answer) => answer.status === 200);
    expect(paid).toHaveLength(6);
    expect(answers.filter((answer) => answer.status === 402)).toHaveLength(12);
    const [row] = await sql<{ credits: number; reserved_credits: number }>(
      'SELECT credits, reserved_credits FROM teams WHERE name = $1',
      [team.name],
    );
    expect(row).toEqual({ credits: 0, reserved_credits: 0 });

    // Each answered hit is a job the other gateway serves by id right away.
    for (const [index, answer] of answers.entries()) {
      if (answer.status !== 200 || answer.body.data.metadata.cacheState !== 'hit') continue;
      const byId = await call<Scraped>(
        platform.gateways[(index + 1) % 2].url,
        'GET',
        `/v2/scrape/${answer.body.data.metadata.scrapeId}`,
        { apiKey: team.apiKey },
      );
      expect(byId.status).toBe(200);
      expect(byId.body.data.markdown).toBe(answer.body.data.markdown);
    }
    const [charges] = await sql<{ n: number; total: number }>(
      `SELECT count(*)::int AS n, coalesce(-sum(amount), 0)::int AS total FROM credit_ledger l
       JOIN teams t ON t.id = l.team_id WHERE t.name = $1 AND l.kind = 'charge'`,
      [team.name],
    );
    expect(charges).toEqual({ n: 7, total: 7 });
  });

  it('refuses a revoked key within a second on both gateways', async () => {
    const team = await createTeamKey(platform);
    const usage = (gateway: number) =>
      call(platform.gateways[gateway].url, 'GET', '/v2/team/credit-usage', { apiKey: team.apiKey });
    // Both gateways have the key in their cache.
    for (const gateway of [0, 1]) expect((await usage(gateway)).status).toBe(200);
    await sql('UPDATE api_keys SET revoked_at = now() WHERE hash = $1', [
      createHash('sha256').update(team.apiKey, 'utf8').digest('hex'),
    ]);
    const revoked = Date.now();
    const refusedAfter = await Promise.all(
      [0, 1].map(async (gateway) => {
        while (Date.now() - revoked < 5_000) {
          if ((await usage(gateway)).status === 401) return Date.now() - revoked;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return Number.POSITIVE_INFINITY;
      }),
    );
    // Within the second of the key generation's age, plus one request's time on a loaded machine.
    for (const after of refusedAfter) expect(after).toBeLessThan(1_250);
  });
});
