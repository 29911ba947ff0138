import Firecrawl from '@mendable/firecrawl-js';

import { CRAWL_SITE, type CrawlSite, startCrawlSite } from '@quarry/testing';

import { type CrawlCluster, eventually, query, startCrawlCluster } from './support/crawl-support';

/** Crawl pages a worker is running now (its own `quarry_jobs_running` gauge). */
async function runningPages(workerUrl: string): Promise<number> {
  const metrics = await (await fetch(`${workerUrl}/metrics`)).text();
  const running = /^quarry_jobs_running\{[^}]*kind="crawl_page"[^}]*\} (\d+)/m.exec(metrics);
  return running ? Number(running[1]) : 0;
}

/**
 * Fault tolerance (docs/crawl.md#how-a-crawl-runs): three workers share a crawl over Kafka; one is killed with SIGKILL
 * while pages are in flight. The crawl must still complete with every page stored exactly once and
 * charged exactly once.
 */
describe('crawl survives a killed worker', () => {
  let site: CrawlSite;
  let platform: CrawlCluster;

  beforeAll(async () => {
    site = await startCrawlSite({ latencyMs: 250 });
    platform = await startCrawlCluster({
      workers: 3,
      env: { TEAM_CONCURRENCY_LIMIT: '12', CRAWL_WORKER_CONCURRENCY: '6', CRAWL_PAGE_LEASE_MS: '15000' },
    });
  }, 240_000);

  afterAll(async () => {
    await platform?.stop();
    await site?.close();
  });

  it('completes with every page exactly once and no double charge after SIGKILL of one of three workers', async () => {
    const firecrawl = new Firecrawl({ apiKey: platform.apiKey, apiUrl: platform.publicUrl });
    const [before] = await query<{ credits: number }>(
      platform,
      `SELECT t.credits FROM teams t JOIN api_keys k ON k.team_id = t.id ORDER BY k.created_at LIMIT 1`,
    );
    const started = await firecrawl.startCrawl(`${site.url}/docs/`, { limit: 1_000, sitemap: 'skip' });
    await eventually(
      async () =>
        (await firecrawl.getCrawlStatus(started.id, { autoPaginate: false })).completed >= 60
          ? true
          : undefined,
      120_000,
    );
    const [inFlight] = await query<{ count: string }>(
      platform,
      `SELECT count(*) FROM crawl_pages WHERE crawl_id = $1 AND status = 'dispatched'`,
      [started.id],
    );
    expect(Number(inFlight.count)).toBeGreaterThan(0);
    // Freeze the fetches in flight at the site, let the workers finish whatever else they were
    // doing, then kill a worker that still runs pages: those pages are caught mid-fetch, so the
    // kill demonstrably interrupts work (a worker idle at that moment, e.g. during a consumer-group
    // rebalance, would leave nothing to recover).
    site.pause();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const victim = await eventually(async () => {
      for (const worker of platform.workers) if ((await runningPages(worker.url)) > 0) return worker;
      return undefined;
    }, 30_000);
    await victim.kill();
    site.resume();
    const killedAt = Date.now();

    const done = await eventually(
      async () => {
        const status = await firecrawl.getCrawlStatus(started.id);
        return status.status === 'scraping' ? undefined : status;
      },
      240_000,
      1_000,
    );
    const expected = CRAWL_SITE.docs + 1; // the index and its 300 pages
    expect(done.status).toBe('completed');
    expect(done.completed).toBe(expected);
    const urls = done.data.map((document) => String(document.metadata?.sourceURL));
    expect(urls).toHaveLength(expected);
    expect(new Set(urls).size).toBe(expected);

    const [stored] = await query<{
      pages: string;
      documents: string;
      distinct_urls: string;
      charges: string;
      distinct_keys: string;
      charged: string;
      credits_used: number;
    }>(
      platform,
      `SELECT (SELECT count(*) FROM crawl_pages WHERE crawl_id = $1 AND status = 'completed') AS pages,
              (SELECT count(*) FROM documents WHERE job_id = $1) AS documents,
              (SELECT count(DISTINCT source_url) FROM documents WHERE job_id = $1) AS distinct_urls,
              (SELECT count(*) FROM credit_ledger WHERE job_id = $1) AS charges,
              (SELECT count(DISTINCT idempotency_key) FROM credit_ledger WHERE job_id = $1) AS distinct_keys,
              (SELECT -sum(amount) FROM credit_ledger WHERE job_id = $1) AS charged,
              (SELECT credits_used FROM jobs WHERE id = $1) AS credits_used`,
      [started.id],
    );
    expect(Number(stored.pages)).toBe(expected);
    expect(Number(stored.documents)).toBe(expected);
    expect(Number(stored.distinct_urls)).toBe(expected);
    expect(Number(stored.charges)).toBe(expected);
    expect(Number(stored.distinct_keys)).toBe(expected);
    expect(Number(stored.charged)).toBe(expected);
    expect(stored.credits_used).toBe(expected);
    const [after] = await query<{ credits: number }>(
      platform,
      `SELECT t.credits FROM teams t JOIN api_keys k ON k.team_id = t.id ORDER BY k.created_at LIMIT 1`,
    );
    expect(before.credits - after.credits).toBe(expected);

    // the kill interrupted work: some page the victim held ran again on a survivor (its message
    // redelivered after the rebalance, or re-sent once its lease ran out) and was fetched again,
    // yet was stored and charged once (above)
    const [rerun] = await query<{ count: string }>(
      platform,
      `SELECT count(*) FROM crawl_pages WHERE crawl_id = $1 AND (starts > 1 OR attempts > 1)`,
      [started.id],
    );
    expect(Number(rerun.count)).toBeGreaterThan(0);
    const refetched = [...site.hits.entries()].filter(
      ([key, count]) => key.startsWith('localhost /docs/page-') && count > 1,
    );
    expect(refetched.length).toBeGreaterThan(0);
    // the survivors finished the crawl after the kill
    expect(
      Date.parse(
        String(
          (
            await query<{ finished_at: Date }>(platform, `SELECT finished_at FROM jobs WHERE id = $1`, [
              started.id,
            ])
          )[0].finished_at,
        ),
      ),
    ).toBeGreaterThan(killedAt);
  });
});
