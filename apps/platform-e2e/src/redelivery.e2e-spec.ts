import { Client } from 'pg';

import { type FixtureServer, startFixtureServer } from '@quarry/testing';

import { call } from './support/api-client';
import { type Platform, startCluster } from './support/platform';

/**
 * At-least-once delivery made exactly-once in effect: a worker killed while it executes a scrape
 * never committed its Kafka offset, so the job is redelivered to another worker; the waiting
 * request is answered once, and the team is charged once.
 */
describe('a scrape worker killed mid-job', () => {
  let platform: Platform;
  let site: FixtureServer;
  let releaseFirst: () => void = () => undefined;

  beforeAll(async () => {
    let calls = 0;
    site = await startFixtureServer({
      '/held': (_request, response) => {
        calls += 1;
        if (calls === 1) {
          // The first worker's fetch hangs until the test kills that worker.
          releaseFirst = () => response.destroy();
          return;
        }
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            '<html><body><main><h1>Delivered once</h1><p>The second worker got it.</p></main></body></html>',
          );
      },
    });
    platform = await startCluster({ gateways: 1, workers: 1 });
  });
  afterAll(async () => {
    releaseFirst();
    await platform?.stop();
    await site?.close();
  });

  it('redelivers to another worker, answers once and charges once', async () => {
    const pending = call<{ success: boolean; data: { markdown: string; metadata: Record<string, unknown> } }>(
      platform.url(),
      'POST',
      '/v2/scrape',
      {
        apiKey: platform.apiKey,
        body: { url: `${site.url}/held`, timeout: 150_000 },
      },
    );
    const deadline = Date.now() + 30_000;
    while (!site.hits.get('/held') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(site.hits.get('/held')).toBe(1);
    await platform.workers[0].kill();
    releaseFirst();
    await platform.startWorker();

    const response = await pending;
    expect(response.status).toBe(200);
    expect(response.body.data.markdown).toContain('Delivered once');
    expect(site.hits.get('/held')).toBe(2);

    const jobId = String(response.body.data.metadata['scrapeId']);
    const db = new Client({ connectionString: platform.database?.url });
    await db.connect();
    try {
      const job = await db.query('SELECT status, attempts FROM jobs WHERE id = $1', [jobId]);
      expect(job.rows[0]).toEqual({ status: 'completed', attempts: 2 });
      const charges = await db.query('SELECT amount FROM credit_ledger WHERE job_id = $1', [jobId]);
      expect(charges.rows).toEqual([{ amount: -1 }]);
      const documents = await db.query('SELECT count(*)::int AS n FROM documents WHERE job_id = $1', [jobId]);
      expect(documents.rows[0].n).toBe(1);
    } finally {
      await db.end();
    }
  });
});
