import {
  type ActiveCrawlsResponse,
  type CollectionErrorsResponse,
  type CollectionStatusResponse,
  LIMITS,
  ROBOTS_WARNING,
  type ScrapeDocument,
} from '@quarry/contracts';
import type { JobRecord } from '@quarry/jobs';

import type { CollectionKind, CollectionRow } from '../frontier/frontier.types';
import { parseHttpUrl } from '../url/crawl-url.util';
import type { Caller, CollectionServiceDeps } from './collection.types';
import { findCollection } from './collection-records.util';
import { apiStatus, collectionUrl } from './collection-rules.util';

type PageCounts = { inFlight: number; queued: number; robotsBlocked: number };

/** What callers read of crawls and batches (docs/crawl.md#status-paging-cancel-errors, docs/crawl.md#batch-scrape): status pages with `next`, errors, the active list, WebSocket frames. */
export class ReadCollectionUseCase {
  constructor(private readonly deps: CollectionServiceDeps) {}

  async status(
    caller: Caller,
    kind: CollectionKind,
    id: string,
    page: { skip?: number; limit?: number } = {},
  ): Promise<CollectionStatusResponse> {
    const { job, collection } = await findCollection(this.deps, caller, kind, id);
    const skip = Math.max(0, page.skip ?? 0);
    const size = Math.min(Math.max(1, page.limit ?? LIMITS.crawl.statusPageSize), 1_000);
    const counts = await this.deps.collections.counts(id);
    const documents = collection.zeroDataRetention
      ? []
      : await this.deps.collections.documents(id, skip, size);
    const data: ScrapeDocument[] = [];
    let bytes = 0;
    for (const entry of documents) {
      if (data.length > 0 && bytes + entry.bytes > LIMITS.crawl.statusPageBytes) break;
      bytes += entry.bytes;
      data.push(entry.document);
    }
    const stored = collection.zeroDataRetention ? 0 : collection.completedCount;
    const returnedUpTo = skip + data.length;
    const body = this.statusBody(job, collection, counts, data);
    const webhookDelivery = collection.webhook ? await this.deps.collections.webhookDelivery(id) : undefined;
    if (webhookDelivery) body.webhookDelivery = webhookDelivery;
    // Our rule (docs/crawl.md#status-paging-cancel-errors): `next` only when completed documents exist beyond this page now.
    if (returnedUpTo < stored && data.length > 0) {
      body.next = `${collectionUrl(caller, this.deps.settings, kind, id)}?skip=${returnedUpTo}${page.limit !== undefined ? `&limit=${size}` : ''}`;
    }
    return body;
  }

  /** The status object without documents (WebSocket `catchup` and `done`). */
  async summary(
    caller: Caller,
    kind: CollectionKind,
    id: string,
  ): Promise<{ job: JobRecord; collection: CollectionRow; status: CollectionStatusResponse }> {
    const { job, collection } = await findCollection(this.deps, caller, kind, id);
    const counts = await this.deps.collections.counts(id);
    return { job, collection, status: this.statusBody(job, collection, counts, []) };
  }

  async errors(caller: Caller, kind: CollectionKind, id: string): Promise<CollectionErrorsResponse> {
    await findCollection(this.deps, caller, kind, id);
    const stored = await this.deps.collections.errors(id, 10_000);
    return {
      success: true,
      errors: stored.errors.map((error) => ({
        id: error.id,
        ...(error.at ? { timestamp: error.at.toISOString() } : {}),
        url: error.url,
        ...(error.code ? { code: error.code } : {}),
        error: error.error,
      })),
      robotsBlocked: stored.robotsBlocked,
    };
  }

  async active(caller: Caller): Promise<ActiveCrawlsResponse> {
    const crawls = await this.deps.collections.active(caller.teamId);
    return {
      success: true,
      crawls: crawls.map((crawl) => ({
        id: crawl.id,
        teamId: caller.teamId,
        url: crawl.url,
        created_at: crawl.createdAt.toISOString(),
        options: { ...crawl.options.crawler, scrapeOptions: crawl.options.request },
      })),
    };
  }

  /** Documents finished after `afterSeq` (WebSocket `document` frames). */
  async documentsAfter(
    id: string,
    afterSeq: number,
    limit: number,
  ): Promise<{ seq: number; document: ScrapeDocument }[]> {
    return this.deps.collections.documents(id, afterSeq, limit);
  }

  private statusBody(
    job: JobRecord,
    collection: CollectionRow,
    counts: PageCounts,
    data: ScrapeDocument[],
  ): CollectionStatusResponse {
    const completed = collection.completedCount;
    const running = job.status === 'queued' || job.status === 'active';
    const waiting = running
      ? Math.max(0, Math.min(counts.queued, collection.pageLimit - completed - counts.inFlight))
      : 0;
    const body: CollectionStatusResponse = {
      success: true,
      status: apiStatus(job.status),
      completed,
      total: completed + (running ? counts.inFlight : 0) + waiting,
      creditsUsed: job.creditsUsed,
      expiresAt: (
        job.expiresAt ?? new Date(job.createdAt.getTime() + this.deps.settings.retentionHours * 3_600_000)
      ).toISOString(),
      data,
      createdAt: job.createdAt.toISOString(),
    };
    if (job.finishedAt) {
      body.completedAt = job.finishedAt.toISOString();
      body.duration = (job.finishedAt.getTime() - job.createdAt.getTime()) / 1000;
    }
    if (job.status === 'failed' && job.error) body.error = job.error.message;
    const warnings: string[] = [];
    if (counts.robotsBlocked > 0) warnings.push(ROBOTS_WARNING);
    const narrow = narrowStartWarning(job, collection);
    if (narrow) warnings.push(narrow);
    if (warnings.length > 0) body.warning = warnings.join(' ');
    return body;
  }
}

/**
 * A completed crawl that found (almost) nothing below a non-root start path (docs/crawl.md#status-paging-cancel-errors); not when
 * it already crawled the entire domain, nor for failed (the error says why) or cancelled ones.
 */
function narrowStartWarning(job: JobRecord, collection: CollectionRow): string | undefined {
  const completed = collection.completedCount;
  if (
    collection.kind !== 'crawl' ||
    job.status !== 'completed' ||
    completed > 1 ||
    !collection.url ||
    collection.options.crawler?.crawlEntireDomain
  )
    return undefined;
  const start = parseHttpUrl(collection.url);
  if (!start || start.pathname === '/' || start.pathname === '') return undefined;
  return `Only ${completed} result(s) found. For broader coverage, try crawling with crawlEntireDomain=true or start from a higher-level path like ${start.origin}/`;
}
