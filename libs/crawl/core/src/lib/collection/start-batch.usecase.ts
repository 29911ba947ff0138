import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';

import {
  AppError,
  type BatchScrapeRequest,
  type CollectionStartResponse,
  hasFormat,
  isAcceptableHttpUrl,
} from '@quarry/contracts';

import type { NewPage } from '../frontier/frontier.types';
import { crawlUrlKey, originOf, parseHttpUrl } from '../url/crawl-url.util';
import type { Caller, CollectionServiceDeps } from './collection.types';
import { recordCollection } from './collection-records.util';
import { collectionConcurrency, collectionUrl, pageCost, pageTemplate } from './collection-rules.util';

/**
 * `POST /v2/batch/scrape` (docs/crawl.md#batch-scrape): URL validation (`ignoreInvalidURLs`), credits for every page,
 * a new batch dispatched at once, or pages appended to a running one (`appendToId`).
 */
export class StartBatchUseCase {
  constructor(private readonly deps: CollectionServiceDeps) {}

  async execute(
    caller: Caller,
    request: BatchScrapeRequest,
    idempotencyKey?: string,
  ): Promise<CollectionStartResponse> {
    if (request.webhook) await this.deps.webhookTargets.assertAllowed(request.webhook.url);
    const valid: string[] = [];
    const invalid: string[] = [];
    request.urls.forEach((raw) => (this.acceptableUrl(raw) ? valid.push(raw) : invalid.push(raw)));
    if (invalid.length > 0 && !request.ignoreInvalidURLs) {
      const index = request.urls.indexOf(invalid[0]);
      throw new AppError('INVALID_URL', {
        details: [{ code: 'custom', path: ['urls', index], message: 'Invalid URL' }],
      });
    }
    if (valid.length === 0)
      throw new AppError('BAD_REQUEST', {
        message: 'No valid URLs provided',
        details: invalid.length ? { invalidURLs: invalid } : undefined,
      });
    const {
      urls: _urls,
      webhook,
      appendToId,
      ignoreInvalidURLs: _ignore,
      maxConcurrency,
      zeroDataRetention: requestedZdr,
      origin,
      integration,
      ...scrapeOptions
    } = request;
    const zeroDataRetention = caller.zeroDataRetention || requestedZdr;
    const template = pageTemplate(valid[0], { ...scrapeOptions, zeroDataRetention, origin, integration });
    await this.deps.credits.ensureAvailable(caller.teamId, valid.length * pageCost(template));
    const invalidURLs = invalid.length > 0 ? { invalidURLs: invalid } : {};
    if (appendToId) return { ...(await this.append(caller, appendToId, valid)), ...invalidURLs };

    const id = randomUUID();
    await recordCollection(this.deps, {
      id,
      caller,
      kind: 'batch_scrape',
      url: null,
      input: request,
      options: {
        request: template,
        wantsRawHtml: hasFormat(template.formats, 'rawHtml'),
        origin,
        integration,
      },
      pageLimit: valid.length,
      maxConcurrency: collectionConcurrency(caller, maxConcurrency, this.deps.settings),
      delayMs: 0,
      webhook,
      zeroDataRetention,
      idempotencyKey,
      pages: batchPages(valid, 0),
    });
    this.deps.metrics?.jobsQueued.inc({ kind: 'batch_scrape' });
    await this.deps.dispatcher.dispatch(id);
    return {
      success: true,
      id,
      url: collectionUrl(caller, this.deps.settings, 'batch_scrape', id),
      ...invalidURLs,
    };
  }

  /** `appendToId`: the URLs join the caller's running batch. */
  private async append(caller: Caller, id: string, urls: string[]): Promise<CollectionStartResponse> {
    const existing = await this.deps.frontier.loadCollection(id);
    if (!existing || existing.teamId !== caller.teamId || existing.kind !== 'batch_scrape')
      throw new AppError('JOB_NOT_FOUND');
    const outcome = await this.deps.collections.append(
      id,
      caller.teamId,
      batchPages(urls, Date.now() * 1_000),
    );
    if (outcome === 'not-found') throw new AppError('JOB_NOT_FOUND');
    if (outcome === 'ended')
      throw new AppError('CONFLICT', { message: 'Batch scrape has already ended; start a new one' });
    this.deps.dispatcher.kick(id);
    return { success: true, id, url: collectionUrl(caller, this.deps.settings, 'batch_scrape', id) };
  }

  private acceptableUrl(raw: string): boolean {
    const value = raw.trim();
    if (!isAcceptableHttpUrl(value)) return false;
    const host = new URL(value).hostname.replace(/^\[|\]$/g, '');
    // Literal addresses the outbound guard would refuse are dropped up front (names are checked when fetched).
    return !isIP(host) || this.deps.settings.addressPolicy.allows(host);
  }
}

/** Batch rows: every URL is its own page, even when listed twice (the key carries a unique prefix). */
function batchPages(urls: string[], rankBase: number): NewPage[] {
  return urls.map((raw, index) => {
    const parsed = parseHttpUrl(raw.trim()) as URL;
    return {
      url: raw.trim(),
      urlKey: `#${randomUUID()} ${crawlUrlKey(parsed, { ignoreQueryParameters: false, deduplicateSimilarURLs: false })}`,
      origin: originOf(parsed),
      depth: 0,
      trapRun: 0,
      rank: rankBase + index,
      status: 'queued' as const,
    };
  });
}
