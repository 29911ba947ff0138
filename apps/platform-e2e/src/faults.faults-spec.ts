import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import Firecrawl from '@mendable/firecrawl-js';
import { Kafka, logLevel } from 'kafkajs';

import type { FixtureServer } from '@quarry/testing';

import {
  countBy,
  load,
  type Outcome,
  PAGE_DELAY_MS,
  PAGES,
  percentiles,
  PROXY_PORT,
  scrapeThrough,
  SPEC_ERROR_FIELDS,
  startPageSite,
} from './support/faults-support';
import { type ClusterService, LocalCluster, waitFor } from './support/local-cluster';
import { REPO_ROOT } from './support/service-process';

/**
 * Fault tests on the local cluster (`make test-faults`): 2 gateways behind a round-robin proxy,
 * 3 scrape workers, the agent orchestrator and the doc-parser, 3 Kafka brokers (replication 3,
 * min.insync.replicas 2) and a PostgreSQL cluster of its own on 25432. Each scenario breaks one part under load and checks what clients
 * and the data see. Figures are printed and written to .cache/faults/report.json.
 *
 * The worker scenario is a real crawl (the Firecrawl SDK against the round-robin proxy) of a site of
 * exactly 500 pages reached by links; its pages travel on crawl.tasks to the three workers.
 */
const report: Record<string, unknown> = {};
let cluster: LocalCluster;
let site: FixtureServer;

const scrape = (url: string, options: { timeoutMs?: number; clientTimeoutMs?: number } = {}) =>
  scrapeThrough(cluster, url, options);

async function teamId(): Promise<string> {
  const [team] = await cluster.sql<{ id: string }>(undefined, `SELECT id FROM teams WHERE name = 'default'`);
  return team.id;
}

/** Jobs, documents and charges of the scrapes of `urls`: each job stored once, charged once. */
async function ledgerOf(urls: string[]) {
  const rows = await cluster.sql<{
    id: string;
    status: string;
    credits_used: number;
    documents: string;
    charges: string;
    charged: string | null;
    source_url: string | null;
  }>(
    undefined,
    `SELECT j.id, j.status, j.credits_used,
            (SELECT count(*) FROM documents d WHERE d.job_id = j.id) AS documents,
            (SELECT count(*) FROM credit_ledger l WHERE l.job_id = j.id AND l.amount < 0) AS charges,
            (SELECT sum(-l.amount) FROM credit_ledger l WHERE l.job_id = j.id AND l.amount < 0) AS charged,
            j.input->>'url' AS source_url
       FROM jobs j WHERE j.kind = 'scrape' AND j.input->>'url' = ANY($1)`,
    [urls],
  );
  return rows.map((row) => ({
    ...row,
    documents: Number(row.documents),
    charges: Number(row.charges),
    charged: Number(row.charged ?? 0),
  }));
}

beforeAll(async () => {
  const started = Date.now();
  site = await startPageSite();
  cluster = await LocalCluster.start({
    gateways: 2,
    workers: 3,
    basePort: PROXY_PORT,
    env: {
      ALLOW_PRIVATE_NETWORKS: 'true',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      DATABASE_POOL_SIZE: '10',
      // The crawl's `next` links and URLs point at the proxy; its pages may be 60 in flight.
      PUBLIC_URL: `http://127.0.0.1:${PROXY_PORT}`,
      TEAM_CONCURRENCY_LIMIT: '60',
    },
    log: (line) => process.stdout.write(`[cluster] ${line}\n`),
  });
  report['clusterStartSeconds'] = (Date.now() - started) / 1000;
  // Warm-up: topics, consumer groups and connections in place before the faults.
  const warm = await load(12, 12, (index) => scrape(`${site.url}/page/${100_000 + index}`));
  expect(warm.map((outcome) => outcome.status)).toEqual(new Array(12).fill(200));
}, 600_000);

afterAll(async () => {
  try {
    mkdirSync(join(REPO_ROOT, '.cache/faults/logs'), { recursive: true });
    for (const [name, lines] of cluster?.logs ?? [])
      writeFileSync(join(REPO_ROOT, '.cache/faults/logs', `${name}.log`), `${lines.join('\n')}\n`);
    writeFileSync(join(REPO_ROOT, '.cache/faults/report.json'), `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`\nfault-test figures:\n${JSON.stringify(report, null, 2)}\n`);
  } finally {
    // Whatever happened (a failed test, a broker killed, PostgreSQL stopped): the services, and the
    // brokers and PostgreSQL this run started, are stopped rather than left running.
    await cluster?.stop({ infrastructure: 'stop-started' });
    await site?.close();
  }
}, 600_000);

const worker = (name: string): ClusterService =>
  cluster.workers.find((candidate) => candidate.name === name) as ClusterService;

it(`kill -9 of a scrape worker mid-crawl of ${PAGES} pages: every page exactly once, one charge per page, the crawl completed`, async () => {
  const firecrawl = new Firecrawl({ apiKey: cluster.apiKey, apiUrl: cluster.url });
  const team = await teamId();
  const balance = async () =>
    Number(
      (
        await cluster.sql<{ credits: number }>(undefined, `SELECT credits FROM teams WHERE id = $1`, [team])
      )[0].credits,
    );
  const balanceBefore = await balance();
  const victim = worker('worker-2');
  const expectedUrls = [
    `${site.url}/`,
    ...Array.from({ length: PAGES - 1 }, (_, index) => `${site.url}/p/${index + 1}`),
  ].sort();
  try {
    const started = Date.now();
    const crawl = await firecrawl.startCrawl(`${site.url}/`, {
      limit: 1_000,
      maxConcurrency: 60,
      sitemap: 'skip',
    });
    // Kill a worker once a fifth of the pages are stored: it holds pages in flight and uncommitted offsets.
    await waitFor(
      async () => {
        const [row] = await cluster.sql<{ done: string }>(
          undefined,
          `SELECT count(*) AS done FROM crawl_pages WHERE crawl_id = $1 AND status = 'completed'`,
          [crawl.id],
        );
        return Number(row.done) >= PAGES / 5 ? true : undefined;
      },
      180_000,
      `${PAGES / 5} stored pages`,
    );
    const [atKill] = await cluster.sql<{ dispatched: string; completed: string }>(
      undefined,
      `SELECT count(*) FILTER (WHERE status = 'dispatched') AS dispatched, count(*) FILTER (WHERE status = 'completed') AS completed FROM crawl_pages WHERE crawl_id = $1`,
      [crawl.id],
    );
    const killedAt = Date.now();
    await cluster.killService(victim, 'SIGKILL');
    const done = await waitFor(
      async () => {
        const status = await firecrawl.getCrawlStatus(crawl.id, { autoPaginate: false });
        return status.status === 'scraping' ? undefined : status;
      },
      300_000,
      'the crawl to end',
    );
    const finished = Date.now();
    const all = await firecrawl.getCrawlStatus(crawl.id); // every page, following `next`

    const [stored] = await cluster.sql<{
      rows: string;
      completed: string;
      other: string;
      distinct_keys: string;
      documents: string;
      distinct_document_urls: string;
      charges: string;
      distinct_charge_keys: string;
      charged: string;
      credits_used: number;
      finished_at: Date;
    }>(
      undefined,
      `SELECT (SELECT count(*) FROM crawl_pages WHERE crawl_id = $1 AND status NOT IN ('duplicate', 'alias')) AS rows,
              (SELECT count(*) FROM crawl_pages WHERE crawl_id = $1 AND status = 'completed') AS completed,
              (SELECT count(*) FROM crawl_pages WHERE crawl_id = $1 AND status NOT IN ('completed', 'duplicate', 'alias')) AS other,
              (SELECT count(DISTINCT url_key) FROM crawl_pages WHERE crawl_id = $1 AND status = 'completed') AS distinct_keys,
              (SELECT count(*) FROM documents WHERE job_id = $1) AS documents,
              (SELECT count(DISTINCT source_url) FROM documents WHERE job_id = $1) AS distinct_document_urls,
              (SELECT count(*) FROM credit_ledger WHERE job_id = $1 AND amount < 0) AS charges,
              (SELECT count(DISTINCT idempotency_key) FROM credit_ledger WHERE job_id = $1 AND amount < 0) AS distinct_charge_keys,
              (SELECT coalesce(-sum(amount), 0) FROM credit_ledger WHERE job_id = $1 AND amount < 0) AS charged,
              (SELECT credits_used FROM jobs WHERE id = $1) AS credits_used,
              (SELECT finished_at FROM jobs WHERE id = $1) AS finished_at`,
      [crawl.id],
    );
    const balanceAfter = await balance();
    const crawlHits = [...site.hits].filter(([path]) => path === '/' || path.startsWith('/p/'));
    report['workerKillMidCrawl'] = {
      pages: PAGES,
      crawl: { limit: 1_000, maxConcurrency: 60, pageDelayMs: PAGE_DELAY_MS, workers: 3 },
      pagesStoredWhenKilled: Number(atKill.completed),
      pagesInFlightWhenKilled: Number(atKill.dispatched),
      status: done.status,
      completed: done.completed,
      documentsReturned: all.data.length,
      pagesFetchedMoreThanOnce: crawlHits.filter(([, count]) => count > 1).length,
      fetches: crawlHits.reduce((sum, [, count]) => sum + count, 0),
      crawlPageRows: Number(stored.rows),
      documents: Number(stored.documents),
      charges: Number(stored.charges),
      creditsCharged: balanceBefore - balanceAfter,
      seconds: (finished - started) / 1000,
      secondsFromKillToEnd: (finished - killedAt) / 1000,
      pagesPerSecond: Math.round((PAGES / ((finished - started) / 1000)) * 10) / 10,
    };

    expect(Number(atKill.dispatched)).toBeGreaterThan(0);
    expect(done.status).toBe('completed');
    expect(done.completed).toBe(PAGES);
    // Exactly the site's pages, each once, each with its own content.
    const urls = all.data.map((document) => String(document.metadata?.sourceURL));
    expect(urls.length).toBe(PAGES);
    expect([...urls].sort()).toEqual(expectedUrls);
    for (const document of all.data) {
      const path = new URL(String(document.metadata?.sourceURL)).pathname;
      expect(document.markdown).toContain(`marker-crawl-${path === '/' ? 0 : path.slice(3)}`);
    }
    // One frontier row, one document and one ledger charge per page; the balance moved by exactly that.
    expect(Number(stored.rows)).toBe(PAGES);
    expect(Number(stored.completed)).toBe(PAGES);
    expect(Number(stored.other)).toBe(0);
    expect(Number(stored.distinct_keys)).toBe(PAGES);
    expect(Number(stored.documents)).toBe(PAGES);
    expect(Number(stored.distinct_document_urls)).toBe(PAGES);
    expect(Number(stored.charges)).toBe(PAGES);
    expect(Number(stored.distinct_charge_keys)).toBe(PAGES);
    expect(Number(stored.charged)).toBe(PAGES); // one credit per markdown page
    expect(stored.credits_used).toBe(PAGES);
    expect(done.creditsUsed).toBe(PAGES);
    expect(balanceBefore - balanceAfter).toBe(PAGES);
    // The survivors finished the crawl after the kill.
    expect(new Date(stored.finished_at).getTime()).toBeGreaterThan(killedAt);
  } finally {
    if (!victim.running) await cluster.startService(victim);
  }
});

it('restart of a Kafka broker (kill -9, 10 s down) under load: no lost jobs', async () => {
  const admin = new Kafka({
    clientId: 'faults',
    brokers: cluster.brokers,
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  const topic = `${cluster.env['BUS_TOPIC_PREFIX']}scrape.jobs`;
  const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
  const leaders = metadata.topics[0].partitions.map((partition) => partition.leader);
  // The broker leading the most scrape-job partitions (ties: the lowest id) is the one to break.
  const broker = ([1, 2, 3] as const).reduce(
    (best, id) =>
      leaders.filter((leader) => leader === id).length > leaders.filter((leader) => leader === best).length
        ? id
        : best,
    1 as 1 | 2 | 3,
  );
  await admin.disconnect();

  const total = 400;
  const urls = Array.from({ length: total }, (_, index) => `${site.url}/page/${10_000 + index}?delay=100`);
  const started = Date.now();
  let killedAt = 0;
  let restartedAt = 0;
  const fault = (async () => {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    killedAt = Date.now();
    cluster.kafka('kill', broker);
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    cluster.kafka('start', broker);
    restartedAt = Date.now();
  })();
  const outcomes = await load(total, 40, (index) => scrape(urls[index]));
  await fault;
  const finished = Date.now();
  const duringFault = outcomes.filter(
    (outcome) => outcome.startedAt + outcome.ms >= killedAt && outcome.startedAt <= restartedAt,
  );
  const ledger = await ledgerOf(urls);
  report['brokerRestart'] = {
    broker,
    requests: total,
    clientConcurrency: 40,
    statuses: countBy(outcomes),
    seconds: (finished - started) / 1000,
    requestsPerSecond: Math.round((total / ((finished - started) / 1000)) * 10) / 10,
    latencyMs: percentiles(outcomes.map((outcome) => outcome.ms)),
    latencyDuringFaultMs: percentiles(duringFault.map((outcome) => outcome.ms)),
    jobs: ledger.length,
    jobsNotCompleted: ledger.filter((row) => row.status !== 'completed').length,
  };

  expect(countBy(outcomes)).toEqual({ '200': total });
  expect(ledger).toHaveLength(total);
  expect(
    ledger.filter((row) => row.status !== 'completed' || row.documents !== 1 || row.charges !== 1),
  ).toEqual([]);
  await waitFor(
    async () => {
      const cluster3 = new Kafka({
        clientId: 'faults',
        brokers: cluster.brokers,
        logLevel: logLevel.NOTHING,
      }).admin();
      await cluster3.connect();
      const described = await cluster3.describeCluster();
      await cluster3.disconnect();
      return described.brokers.length === 3 ? true : undefined;
    },
    120_000,
    'the restarted broker to rejoin',
  );
});

it('PostgreSQL stopped for 10 s: 503 in the spec shape, then recovery without restarting anything', async () => {
  const pids = cluster.services.map((service) => service.process?.pid);
  // Slow pages in flight when the database goes away.
  const inFlight = Promise.all(
    Array.from({ length: 20 }, (_, index) =>
      scrape(`${site.url}/page/${20_000 + index}?delay=3000`, { timeoutMs: 120_000 }),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const stoppedAt = Date.now();
  cluster.postgres('stop');
  const during: Outcome[] = [];
  const readiness: number[] = [];
  try {
    while (Date.now() - stoppedAt < 10_000) {
      during.push(await scrape(`${site.url}/page/${21_000 + during.length}`, { clientTimeoutMs: 30_000 }));
      readiness.push((await fetch(`${cluster.gateways[0].url}/readyz`)).status);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    cluster.postgres('start');
  }
  const startedAt = Date.now();
  const recovered = await waitFor(
    async () => {
      const outcome = await scrape(`${site.url}/page/${22_000 + Math.floor(Math.random() * 1e6)}`, {
        clientTimeoutMs: 60_000,
      });
      return outcome.status === 200 ? outcome : undefined;
    },
    120_000,
    'a successful scrape after PostgreSQL came back',
  );
  const recoverySeconds = (Date.now() - startedAt) / 1000;
  const afterwards = await load(40, 20, (index) => scrape(`${site.url}/page/${23_000 + index}`));
  const inFlightOutcomes = await inFlight;
  let notReady: string[] = [];
  const readyAgain = await waitFor(
    async () => {
      const answers = await Promise.all(
        cluster.services.map((service) =>
          fetch(`${service.url}/readyz`).then(
            async (response) => ({
              service: service.name,
              status: response.status,
              body: await response.text(),
            }),
            () => ({ service: service.name, status: 0, body: '' }),
          ),
        ),
      );
      notReady = answers
        .filter((answer) => answer.status !== 200)
        .map((answer) => `${answer.service} ${answer.status} ${answer.body}`);
      return notReady.length === 0 ? answers : undefined;
    },
    60_000,
    'every service ready again',
  ).catch((error: unknown) => {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}; not ready: ${notReady.join(' | ')}`,
    );
  });
  report['postgresStop'] = {
    downSeconds: (startedAt - stoppedAt) / 1000,
    requestsDuringOutage: countBy(during),
    outageBodies: [
      ...new Set(
        during.map(
          (outcome) => `${outcome.status} ${JSON.stringify(outcome.body)} retry-after=${outcome.retryAfter}`,
        ),
      ),
    ],
    maxLatencyDuringOutageMs: Math.max(...during.map((outcome) => outcome.ms)),
    readyzDuringOutage: readiness.reduce<Record<string, number>>(
      (counts, status) => ((counts[status] = (counts[status] ?? 0) + 1), counts),
      {},
    ),
    firstSuccessAfterRestartSeconds: recoverySeconds,
    requestsInFlightAtStop: countBy(inFlightOutcomes),
    requestsAfterRecovery: countBy(afterwards),
    processesRestarted: cluster.services.filter((service, index) => service.process?.pid !== pids[index])
      .length,
  };

  expect(during.length).toBeGreaterThan(3);
  for (const outcome of during) {
    expect(outcome.status).toBe(503);
    // docs/compatibility.md#errors: {success:false, error:"Service Unavailable"}, optional code/details/retry_after_seconds.
    expect(outcome.body).toMatchObject({ success: false, error: 'Service Unavailable' });
    expect(Object.keys(outcome.body).filter((key) => !SPEC_ERROR_FIELDS.includes(key))).toEqual([]);
    expect(Number(outcome.retryAfter)).toBeGreaterThan(0);
    expect(outcome.ms).toBeLessThan(10_000);
  }
  expect(readiness.every((status) => status === 503)).toBe(true);
  expect(recovered.body.success).toBe(true);
  expect(countBy(afterwards)).toEqual({ '200': 40 });
  expect(readyAgain).toHaveLength(cluster.services.length);
  // No process was restarted: the pools reconnected by themselves.
  expect(cluster.services.map((service) => service.process?.pid)).toEqual(pids);
  expect(cluster.services.every((service) => service.running)).toBe(true);
  // Requests in flight at the stop ended (no hang): answered, or refused in the spec shape.
  for (const outcome of inFlightOutcomes) expect([200, 503, 504]).toContain(outcome.status);
});

it('kill -9 of a gateway with requests in flight: clients get errors, not hangs, and retries succeed', async () => {
  const victim = cluster.gateways[0];
  const urls = Array.from({ length: 40 }, (_, index) => `${site.url}/page/${30_000 + index}?delay=4000`);
  const running = Promise.all(urls.map((url) => scrape(url, { clientTimeoutMs: 60_000 })));
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const killedAt = Date.now();
  await cluster.killService(victim, 'SIGKILL');
  let outcomes: Outcome[];
  let retried: Outcome[];
  let meanwhile: Outcome[];
  try {
    outcomes = await running;
    retried = await Promise.all(
      outcomes.filter((outcome) => outcome.status !== 200).map((outcome) => scrape(outcome.url)),
    );
    // New requests while the gateway is down go to the other one.
    meanwhile = await load(20, 10, (index) => scrape(`${site.url}/page/${31_000 + index}`));
  } finally {
    await cluster.startService(victim);
  }
  const failed = outcomes.filter((outcome) => outcome.status !== 200);
  const errorDelays = failed.map((outcome) => outcome.startedAt + outcome.ms - killedAt);
  const afterRestart = await load(20, 10, (index) => scrape(`${site.url}/page/${32_000 + index}`));
  // The jobs of the requests that died with the gateway still ran (nothing is lost), and were charged:
  // the client's retry is a new scrape (synchronous scrapes have no idempotency key).
  const orphaned = await ledgerOf(failed.map((outcome) => outcome.url));
  report['gatewayKill'] = {
    inFlight: urls.length,
    // Per page whose first request died: its orphaned job and the retry's job.
    jobsForPagesWhoseRequestDied: orphaned.length,
    completedAndChargedOfThose: orphaned.filter((row) => row.status === 'completed' && row.charges === 1)
      .length,
    statuses: countBy(outcomes),
    errorBodies: [...new Set(failed.map((outcome) => `${outcome.status} ${JSON.stringify(outcome.body)}`))],
    secondsFromKillToLastError: errorDelays.length ? Math.max(...errorDelays) / 1000 : 0,
    retries: countBy(retried),
    whileDown: countBy(meanwhile),
    afterRestart: countBy(afterRestart),
  };

  // About half the requests were on the killed gateway: they fail fast with a spec-shaped 502.
  expect(failed.length).toBeGreaterThan(0);
  expect(failed.length).toBeLessThan(outcomes.length);
  for (const outcome of failed) {
    expect(outcome.status).toBe(502);
    expect(outcome.body).toMatchObject({ success: false, error: 'Bad Gateway' });
    expect(Object.keys(outcome.body).filter((key) => !SPEC_ERROR_FIELDS.includes(key))).toEqual([]);
  }
  expect(Math.max(...errorDelays)).toBeLessThan(2_000);
  expect(countBy(retried)).toEqual({ '200': failed.length });
  expect(countBy(meanwhile)).toEqual({ '200': 20 });
  expect(countBy(afterRestart)).toEqual({ '200': 20 });
});
