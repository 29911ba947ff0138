import { randomUUID } from 'node:crypto';

import type { Logger } from 'pino';

import { AppError, urlKey } from '@quarry/contracts';
import { pageVerdict } from '@quarry/jobs';
import { type Database, type SqlExecutor, storableJson } from '@quarry/platform/database';

import type { CompletedPage, CompletionResult, FrontierRepository } from './frontier.repository';
import type { NewPage } from './frontier.types';
import { num, type Raw } from './sql-rows';

/** A stored page with the links it discovered (added to the frontier in the same batch). */
export interface PageOutcome extends Omit<CompletedPage, 'added'> {
  discovered: NewPage[];
}

interface Pending {
  outcome: PageOutcome;
  resolve: (result: CompletionResult) => void;
  reject: (error: unknown) => void;
}

export interface OutcomeWriterOptions {
  /** Most outcomes in one transaction. */
  maxBatch: number;
  /** How long the first outcome of a batch waits for company. */
  lingerMs: number;
}

class BatchAbort extends Error {}

const firstString = (value: unknown): string | null =>
  typeof value === 'string'
    ? value.slice(0, 2_000)
    : Array.isArray(value) && typeof value[0] === 'string'
      ? value[0].slice(0, 2_000)
      : null;

/**
 * Stores page outcomes in batches: one transaction writes the frontier states, documents, new
 * frontier rows, ledger charges, team balances, job credits, crawl counters and webhook events of
 * up to `maxBatch` pages, so the shared rows (team, job, crawl) are locked once per batch instead
 * of once per page and a page costs a fraction of a round trip. Each page keeps its own guarantee:
 * it is stored only if it was still `dispatched` (redelivery stores nothing twice), and its charge
 * carries its own idempotency key. When a batch cannot be written as a whole (credits short, a job
 * cancelled meanwhile, a deadlock), its pages are written one by one with the single-page path.
 */
export class PageOutcomeWriter {
  private queue: Pending[] = [];
  private timer?: NodeJS.Timeout;
  private flushing = false;

  constructor(
    private readonly db: Database,
    private readonly frontier: FrontierRepository,
    private readonly logger: Logger,
    private readonly options: OutcomeWriterOptions = { maxBatch: 32, lingerMs: 5 },
  ) {}

  /**
   * Rejects (AppError `SCRAPE_SITE_ERROR`) a page that is a browser error page; a page answering a
   * refused target is stored at no charge (`pageVerdict`: what no engine may leak into the index or ledger).
   */
  submit(submitted: PageOutcome): Promise<CompletionResult> {
    const verdict = pageVerdict(submitted.document);
    if (verdict === 'error-page') {
      return Promise.reject(
        new AppError('SCRAPE_SITE_ERROR', {
          message:
            'The target could not be loaded: the browser showed its own error page instead of a page of the target',
        }),
      );
    }
    const outcome =
      verdict === 'refused'
        ? {
            ...submitted,
            credits: 0,
            document: { ...submitted.document, metadata: { ...submitted.document.metadata, creditsUsed: 0 } },
          }
        : submitted;
    // Stored as jsonb and text: U+0000 (binary bodies, some PDF fonts) would fail the whole batch.
    const storable = { ...outcome, document: storableJson(outcome.document) };
    return new Promise((resolve, reject) => {
      this.queue.push({ outcome: storable, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.flushing || this.timer) return;
    if (this.queue.length >= this.options.maxBatch) {
      void this.flush();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.options.lingerMs);
  }

  private async flush(): Promise<void> {
    if (this.flushing || this.queue.length === 0) return;
    this.flushing = true;
    const batch = this.queue.splice(0, this.options.maxBatch);
    try {
      let results: CompletionResult[] | undefined;
      try {
        results = await this.db.sql.transaction((tx) =>
          this.write(
            tx,
            batch.map((entry) => entry.outcome),
          ),
        );
      } catch (error) {
        if (!(error instanceof BatchAbort))
          this.logger.debug(
            { err: error, pages: batch.length },
            'batched page outcomes fell back to single writes',
          );
      }
      if (results) batch.forEach((entry, index) => entry.resolve((results as CompletionResult[])[index]));
      else
        await Promise.all(batch.map((entry) => this.single(entry.outcome).then(entry.resolve, entry.reject)));
    } finally {
      this.flushing = false;
      if (this.queue.length > 0) this.schedule();
    }
  }

  private async single(outcome: PageOutcome): Promise<CompletionResult> {
    const { discovered, ...rest } = outcome;
    const added =
      discovered.length > 0
        ? await this.frontier.addDiscovered(outcome.page.crawlId, outcome.page.teamId, discovered)
        : 0;
    return this.frontier.completePage({ ...rest, added });
  }

  private async write(tx: SqlExecutor, outcomes: PageOutcome[]): Promise<CompletionResult[]> {
    // 1. claim: only pages still dispatched are stored (a redelivered page was stored already)
    const claimedRows = await tx.query<Raw>(
      `UPDATE crawl_pages SET status = 'completed', finished_at = now(), credits = v.credits
       FROM unnest($1::uuid[], $2::int[]) AS v(id, credits)
       WHERE crawl_pages.id = v.id AND crawl_pages.status = 'dispatched' RETURNING crawl_pages.id`,
      [outcomes.map((outcome) => outcome.page.id), outcomes.map((outcome) => outcome.credits)],
      { prepareAs: 'crawl_outcomes_claim' },
    );
    const claimed = new Set(claimedRows.map((row) => String(row['id'])));
    // a page delivered twice at once (lease expiry while still running) is stored by its first outcome only
    const live = outcomes.filter((outcome) => claimed.delete(outcome.page.id));
    const documentIds = new Map<string, string>();

    // 2. documents
    const stored = live.filter((outcome) => outcome.store);
    if (stored.length > 0) {
      for (const outcome of stored) documentIds.set(outcome.page.id, randomUUID());
      const metadata = stored.map((outcome) => outcome.document.metadata);
      await tx.query(
        `INSERT INTO documents (id, team_id, job_id, source_url, url, url_key, status_code, title, description, content)
         SELECT v.id, v.team_id, v.job_id, v.source_url, v.url, v.url_key, v.status_code, v.title, v.description, v.content::jsonb
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[], $10::text[])
           AS v(id, team_id, job_id, source_url, url, url_key, status_code, title, description, content)`,
        [
          stored.map((outcome) => documentIds.get(outcome.page.id)),
          stored.map((outcome) => outcome.page.teamId),
          stored.map((outcome) => outcome.page.crawlId),
          metadata.map((meta) => meta.sourceURL),
          metadata.map((meta) => meta.url),
          metadata.map((meta) => urlKey(meta.url)),
          metadata.map((meta) => meta.statusCode),
          metadata.map((meta) => firstString(meta.title)),
          metadata.map((meta) => firstString(meta.description)),
          stored.map((outcome) => JSON.stringify(outcome.document)),
        ],
        { prepareAs: 'crawl_outcomes_documents' },
      );
    }

    // 3. discovered links of every page, one statement, in key order (see FrontierRepository.insertPagesIn)
    const added = new Map<string, number>();
    const links = new Map<string, { crawlId: string; teamId: string; page: NewPage }>();
    for (const outcome of live) {
      for (const page of outcome.discovered)
        links.set(`${outcome.page.crawlId} ${page.urlKey}`, {
          crawlId: outcome.page.crawlId,
          teamId: outcome.page.teamId,
          page,
        });
    }
    if (links.size > 0) {
      const rows = [...links.values()];
      const inserted = await tx.query<Raw>(
        `INSERT INTO crawl_pages (crawl_id, team_id, url, url_key, host, depth, trap_run, rank, status)
         SELECT u.crawl_id, u.team_id, u.url, u.url_key, u.host, u.depth, u.trap_run, u.rank, u.status
         FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::bigint[], $9::text[])
           AS u(crawl_id, team_id, url, url_key, host, depth, trap_run, rank, status)
         ORDER BY u.crawl_id, u.url_key
         ON CONFLICT (crawl_id, url_key) DO NOTHING RETURNING crawl_id`,
        [
          rows.map((row) => row.crawlId),
          rows.map((row) => row.teamId),
          rows.map((row) => row.page.url),
          rows.map((row) => row.page.urlKey),
          rows.map((row) => row.page.origin),
          rows.map((row) => row.page.depth),
          rows.map((row) => row.page.trapRun),
          rows.map((row) => row.page.rank),
          rows.map((row) => row.page.status),
        ],
        { prepareAs: 'crawl_outcomes_links' },
      );
      for (const row of inserted)
        added.set(String(row['crawl_id']), (added.get(String(row['crawl_id'])) ?? 0) + 1);
    }

    // 4. charges: one ledger row per page (its own idempotency key), then each team's balance once
    const charged = live.filter((outcome) => outcome.credits > 0);
    if (charged.length > 0) {
      const rows = await tx.query<Raw>(
        `INSERT INTO credit_ledger (team_id, amount, kind, idempotency_key, job_id, api_key_id, description)
         SELECT v.team_id, v.amount, 'charge', v.key, v.job_id, v.api_key_id, v.description
         FROM unnest($1::uuid[], $2::int[], $3::text[], $4::uuid[], $5::uuid[], $6::text[]) AS v(team_id, amount, key, job_id, api_key_id, description)
         ON CONFLICT (idempotency_key) DO NOTHING RETURNING team_id, amount`,
        [
          charged.map((outcome) => outcome.page.teamId),
          charged.map((outcome) => -outcome.credits),
          charged.map((outcome) => `page:${outcome.page.id}`),
          charged.map((outcome) => outcome.page.crawlId),
          charged.map((outcome) => outcome.collection.apiKeyId),
          charged.map((outcome) => outcome.collection.kind),
        ],
        { prepareAs: 'crawl_outcomes_charges' },
      );
      const perTeam = new Map<string, number>();
      for (const row of rows)
        perTeam.set(String(row['team_id']), (perTeam.get(String(row['team_id'])) ?? 0) - num(row['amount']));
      for (const [teamId, amount] of [...perTeam.entries()].sort(([a], [b]) => a.localeCompare(b))) {
        const team = await tx.query(
          `UPDATE teams SET credits = credits - $2 WHERE id = $1 AND credits - reserved_credits >= $2 RETURNING id`,
          [teamId, amount],
          { prepareAs: 'crawl_outcomes_balance' },
        );
        if (team.length === 0) throw new BatchAbort('credits');
      }
    }

    // 5. jobs still running get the credits; a job cancelled meanwhile aborts the batch
    const perCrawl = new Map<string, { credits: number; pages: PageOutcome[] }>();
    for (const outcome of live) {
      const entry = perCrawl.get(outcome.page.crawlId) ?? { credits: 0, pages: [] };
      entry.credits += outcome.credits;
      entry.pages.push(outcome);
      perCrawl.set(outcome.page.crawlId, entry);
    }
    const crawlIds = [...perCrawl.keys()].sort();
    const results = new Map<string, CompletionResult>();
    if (crawlIds.length > 0) {
      const jobs = await tx.query(
        `UPDATE jobs SET credits_used = jobs.credits_used + v.credits, status = 'active', started_at = coalesce(jobs.started_at, now())
         FROM unnest($1::uuid[], $2::int[]) AS v(id, credits)
         WHERE jobs.id = v.id AND jobs.status IN ('queued', 'active') RETURNING jobs.id`,
        [crawlIds, crawlIds.map((id) => (perCrawl.get(id) as { credits: number }).credits)],
        { prepareAs: 'crawl_outcomes_jobs' },
      );
      if (jobs.length !== crawlIds.length) throw new BatchAbort('inactive');

      // 6. finish-order sequence per crawl, and the frontier size
      const counters = await tx.query<Raw>(
        `UPDATE crawls SET completed_count = crawls.completed_count + v.pages, frontier_size = crawls.frontier_size + v.added
         FROM unnest($1::uuid[], $2::int[], $3::int[]) AS v(id, pages, added)
         WHERE crawls.job_id = v.id RETURNING crawls.job_id, crawls.completed_count`,
        [
          crawlIds,
          crawlIds.map((id) => (perCrawl.get(id) as { pages: PageOutcome[] }).pages.length),
          crawlIds.map((id) => added.get(id) ?? 0),
        ],
        { prepareAs: 'crawl_outcomes_counters' },
      );
      const ids: string[] = [];
      const seqs: number[] = [];
      const documents: (string | null)[] = [];
      for (const row of counters) {
        const entry = perCrawl.get(String(row['job_id'])) as { pages: PageOutcome[] };
        let seq = num(row['completed_count']) - entry.pages.length;
        for (const outcome of entry.pages) {
          seq += 1;
          ids.push(outcome.page.id);
          seqs.push(seq);
          documents.push(documentIds.get(outcome.page.id) ?? null);
          results.set(outcome.page.id, {
            stored: true,
            completedSeq: seq,
            documentId: documentIds.get(outcome.page.id),
          });
        }
      }
      await tx.query(
        `UPDATE crawl_pages SET completed_seq = v.seq, document_id = v.document_id FROM unnest($1::uuid[], $2::int[], $3::uuid[]) AS v(id, seq, document_id) WHERE crawl_pages.id = v.id`,
        [ids, seqs, documents],
        { prepareAs: 'crawl_outcomes_sequence' },
      );

      // 7. webhook page events, naming their documents
      const events = live.filter((outcome) => outcome.event);
      if (events.length > 0) {
        await tx.query(
          `INSERT INTO webhook_deliveries (id, job_id, team_id, type, payload)
           SELECT v.id, v.job_id, v.team_id, v.type, v.payload::jsonb FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[]) AS v(id, job_id, team_id, type, payload)`,
          [
            events.map(() => randomUUID()),
            events.map((outcome) => outcome.page.crawlId),
            events.map((outcome) => outcome.page.teamId),
            events.map((outcome) => outcome.event?.type),
            events.map((outcome) => {
              const documentId = documentIds.get(outcome.page.id);
              return JSON.stringify(
                storableJson(documentId ? { ...outcome.event?.payload, documentId } : outcome.event?.payload),
              );
            }),
          ],
          { prepareAs: 'crawl_outcomes_webhooks' },
        );
      }
    }
    return outcomes.map(
      (outcome) => results.get(outcome.page.id) ?? { stored: false, reason: 'already-handled' },
    );
  }
}
