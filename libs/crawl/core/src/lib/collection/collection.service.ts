import { randomUUID } from 'node:crypto';
import { scrapeCredits, type CreditsService } from '@quarry/billing';
import {
  AppError,
  hasFormat,
  isAcceptableHttpUrl,
  LIMITS,
  ROBOTS_WARNING,
  scrapeRequestSchema,
  type ActiveCrawlsResponse,
  type BatchScrapeRequest,
  type CollectionErrorsResponse,
  type CollectionStartResponse,
  type CollectionStatus,
  type CollectionStatusResponse,
  type CrawlRequest,
  type CrawlTaskMessage,
  type JobStatus,
  type ScrapeDocument,
  type ScrapeRequest,
} from '@quarry/contracts';
import type { JobRecord, JobRepository } from '@quarry/jobs';
import type { MessageBus } from '@quarry/platform/bus';
import type { PlatformMetrics } from '@quarry/platform/observability';
import type { AddressPolicy } from '@quarry/platform/net';
import { isIP } from 'node:net';
import type { Dispatcher } from '../frontier/dispatcher';
import type { FrontierRepository } from '../frontier/frontier.repository';
import type { CollectionKind, CollectionOptions, CollectionRow, NewPage } from '../frontier/frontier.types';
import { crawlUrlKey, originOf, parseHttpUrl } from '../url/crawl-url.util';
import type { CollectionEvents } from '../webhooks/collection-events';
import { IdempotencyConflict, type CollectionRepository } from './collection.repository';
import type { CrawlPromptInterpreter } from './crawl-prompt.interpreter';
import type { PromptOptions } from './prompt-options.util';

/** Who is asking (the API's AuthContext, narrowed to what collections need). */
export interface Caller {
  teamId: string;
  apiKeyId?: string;
  zeroDataRetention: boolean;
  concurrencyLimit?: number;
  canOverrideRobots: boolean;
}

export interface CollectionServiceSettings {
  publicUrl: string;
  retentionHours: number;
  defaultTeamConcurrency: number;
  /** The outbound policy: batch URLs it refuses outright are listed as invalid. */
  addressPolicy: AddressPolicy;
}

export interface CollectionServiceDeps {
  collections: CollectionRepository;
  frontier: FrontierRepository;
  jobs: JobRepository;
  credits: CreditsService;
  dispatcher: Dispatcher;
  events: CollectionEvents;
  bus: MessageBus;
  /** Reads crawler options from a crawl's `prompt` (a language model when configured, else rules). */
  prompts: CrawlPromptInterpreter;
  settings: CollectionServiceSettings;
  /** Counts crawls and batch scrapes started (`quarry_jobs_queued_total`). */
  metrics?: PlatformMetrics;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PATHS: Record<CollectionKind, string> = { crawl: 'crawl', batch_scrape: 'batch/scrape' };

/**
 * Crawls and batch scrapes as the API sees them (compat §8, §9): start (credits, limits,
 * idempotency), status pages with `next`, cancel, errors and the active list.
 */
export class CollectionService {
  constructor(private readonly deps: CollectionServiceDeps) {}

  /**
   * `POST /v2/crawl`. With a `prompt`, options read from it fill the fields the caller did not send
   * (`explicitKeys`: the body's keys; explicit fields win, compat §8.1).
   */
  async startCrawl(
    caller: Caller,
    input: CrawlRequest,
    idempotencyKey?: string,
    explicitKeys: ReadonlySet<string> = new Set(),
  ): Promise<
    CollectionStartResponse & {
      promptGeneratedOptions?: PromptOptions;
      finalCrawlerOptions?: Record<string, unknown>;
    }
  > {
    let request = input;
    let promptGeneratedOptions: PromptOptions | undefined;
    if (input.prompt) {
      promptGeneratedOptions = (await this.deps.prompts.derive(input.url, input.prompt, { teamId: caller.teamId }))
        .options;
      const applied = Object.fromEntries(
        Object.entries(promptGeneratedOptions).filter(([key]) => !explicitKeys.has(key)),
      );
      request = { ...input, ...applied };
    }
    if ((request.ignoreRobotsTxt || request.robotsUserAgent) && !caller.canOverrideRobots)
      throw new AppError('FORBIDDEN');
    const zeroDataRetention = caller.zeroDataRetention || request.zeroDataRetention;
    const template = this.template(request.url, {
      ...stripEnvelope(request.scrapeOptions),
      zeroDataRetention,
      origin: request.origin,
      integration: request.integration,
    });
    const perPage = this.pageCost(template);
    const balance = await this.deps.credits.balance(caller.teamId);
    if (balance < perPage) throw new AppError('PAYMENT_REQUIRED');
    // A crawl short of credits gets its limit lowered instead of a 402 (compat §1.3).
    const pageLimit = Math.max(1, Math.min(request.limit, Math.floor(balance / perPage)));
    const {
      url: _url,
      prompt,
      webhook,
      scrapeOptions: _scrapeOptions,
      zeroDataRetention: _zdr,
      origin,
      integration,
      ...crawler
    } = request;
    const id = randomUUID();
    const options: CollectionOptions = {
      crawler: { ...crawler, limit: pageLimit },
      request: template,
      wantsRawHtml: hasFormat(template.formats, 'rawHtml'),
      origin,
      integration,
      prompt,
    };
    await this.create({
      id,
      caller,
      kind: 'crawl',
      url: request.url.trim(),
      input: request,
      options,
      pageLimit,
      maxConcurrency: this.concurrency(caller, request.maxConcurrency),
      delayMs: request.delay ? Math.round(request.delay * 1000) : 0,
      webhook,
      zeroDataRetention,
      idempotencyKey,
      pages: [],
    });
    const kickoff: CrawlTaskMessage = { type: 'kickoff', crawlId: id, teamId: caller.teamId };
    await this.deps.bus.publish('crawlTasks', kickoff, { key: id });
    this.deps.metrics?.jobsQueued.inc({ kind: 'crawl' });
    const response = { success: true as const, id, url: this.publicUrl('crawl', id) };
    return promptGeneratedOptions
      ? { ...response, promptGeneratedOptions, finalCrawlerOptions: { ...options.crawler, prompt } }
      : response;
  }

  /** `POST /v2/crawl/params-preview` (compat §8.3): the options a prompt would set. */
  async previewParams(
    caller: Pick<Caller, 'teamId'>,
    url: string,
    prompt: string,
  ): Promise<{ success: true; data: PromptOptions & { url: string }; warning?: string }> {
    const derivation = await this.deps.prompts.derive(url, prompt, { teamId: caller.teamId });
    return {
      success: true,
      data: { url, ...derivation.options },
      ...(derivation.warning ? { warning: derivation.warning } : {}),
    };
  }

  async startBatch(
    caller: Caller,
    request: BatchScrapeRequest,
    idempotencyKey?: string,
  ): Promise<CollectionStartResponse> {
    const valid: string[] = [];
    const invalid: string[] = [];
    request.urls.forEach((raw) => (this.acceptableBatchUrl(raw) ? valid.push(raw) : invalid.push(raw)));
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
    const template = this.template(valid[0], { ...scrapeOptions, zeroDataRetention, origin, integration });
    await this.deps.credits.ensureAvailable(caller.teamId, valid.length * this.pageCost(template));
    const invalidURLs = invalid.length > 0 ? invalid : undefined;

    if (appendToId) {
      const existing = await this.deps.frontier.loadCollection(appendToId);
      if (!existing || existing.teamId !== caller.teamId || existing.kind !== 'batch_scrape')
        throw new AppError('JOB_NOT_FOUND');
      const outcome = await this.deps.collections.append(
        appendToId,
        caller.teamId,
        batchPages(valid, Date.now() * 1_000),
      );
      if (outcome === 'not-found') throw new AppError('JOB_NOT_FOUND');
      if (outcome === 'ended')
        throw new AppError('CONFLICT', { message: 'Batch scrape has already ended; start a new one' });
      this.deps.dispatcher.kick(appendToId);
      return {
        success: true,
        id: appendToId,
        url: this.publicUrl('batch_scrape', appendToId),
        ...(invalidURLs ? { invalidURLs } : {}),
      };
    }

    const id = randomUUID();
    await this.create({
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
      maxConcurrency: this.concurrency(caller, maxConcurrency),
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
      url: this.publicUrl('batch_scrape', id),
      ...(invalidURLs ? { invalidURLs } : {}),
    };
  }

  async status(
    caller: Caller,
    kind: CollectionKind,
    id: string,
    page: { skip?: number; limit?: number } = {},
  ): Promise<CollectionStatusResponse> {
    const { job, collection } = await this.find(caller, kind, id);
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
    // Our rule (compat §8.2): `next` only when completed documents exist beyond this page now.
    if (returnedUpTo < stored && data.length > 0) {
      body.next = `${this.publicUrl(kind, id)}?skip=${returnedUpTo}${page.limit !== undefined ? `&limit=${size}` : ''}`;
    }
    return body;
  }

  /** The status object without documents (WebSocket `catchup` and `done`). */
  async summary(
    caller: Caller,
    kind: CollectionKind,
    id: string,
  ): Promise<{ job: JobRecord; collection: CollectionRow; status: CollectionStatusResponse }> {
    const { job, collection } = await this.find(caller, kind, id);
    const counts = await this.deps.collections.counts(id);
    return { job, collection, status: this.statusBody(job, collection, counts, []) };
  }

  async cancel(caller: Caller, kind: CollectionKind, id: string): Promise<{ status: 'cancelled' }> {
    await this.find(caller, kind, id);
    if (!(await this.deps.collections.cancel(id)))
      throw new AppError('CONFLICT', { message: 'Crawl is already completed' });
    return { status: 'cancelled' };
  }

  async errors(caller: Caller, kind: CollectionKind, id: string): Promise<CollectionErrorsResponse> {
    await this.find(caller, kind, id);
    const stored = await this.deps.collections.errors(id, 10_000);
    return {
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

  static parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
    const value = Array.isArray(header) ? header[0] : header;
    if (value === undefined || value === '') return undefined;
    if (!UUID.test(value.trim()))
      throw new AppError('BAD_REQUEST', { message: 'Idempotency key must be a UUID' });
    return value.trim().toLowerCase();
  }

  // --- helpers -----------------------------------------------------------------------------------

  private async create(input: {
    id: string;
    caller: Caller;
    kind: CollectionKind;
    url: string | null;
    input: unknown;
    options: CollectionOptions;
    pageLimit: number;
    maxConcurrency: number;
    delayMs: number;
    webhook?: CollectionRow['webhook'];
    zeroDataRetention: boolean;
    idempotencyKey?: string;
    pages: NewPage[];
  }): Promise<void> {
    const webhook = input.webhook ?? undefined;
    try {
      await this.deps.collections.create({
        id: input.id,
        teamId: input.caller.teamId,
        apiKeyId: input.caller.apiKeyId,
        kind: input.kind,
        url: input.url,
        input: input.input,
        options: input.options,
        pageLimit: input.pageLimit,
        maxConcurrency: input.maxConcurrency,
        delayMs: input.delayMs,
        webhook,
        zeroDataRetention: input.zeroDataRetention,
        idempotencyKey: input.idempotencyKey,
        expiresAt: new Date(Date.now() + this.deps.settings.retentionHours * 3_600_000),
        pages: input.pages,
        started: this.deps.events.started({ kind: input.kind, webhook: webhook ?? null }),
      });
    } catch (error) {
      if (error instanceof IdempotencyConflict)
        throw new AppError('CONFLICT', { message: 'Idempotency key already used' });
      throw error;
    }
  }

  private async find(
    caller: Caller,
    kind: CollectionKind,
    id: string,
  ): Promise<{ job: JobRecord; collection: CollectionRow }> {
    const job = await this.deps.jobs.findForTeam(id, caller.teamId, kind);
    const collection = job ? await this.deps.frontier.loadCollection(id) : undefined;
    if (!job || !collection) throw new AppError('JOB_NOT_FOUND');
    return { job, collection };
  }

  private statusBody(
    job: JobRecord,
    collection: CollectionRow,
    counts: { inFlight: number; queued: number; robotsBlocked: number },
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
    // A completed crawl that found (almost) nothing below a non-root start path (compat §8.2); not
    // when it already crawled the entire domain, nor for failed (the error says why) or cancelled ones.
    if (
      collection.kind === 'crawl' &&
      job.status === 'completed' &&
      completed <= 1 &&
      collection.url &&
      !collection.options.crawler?.crawlEntireDomain
    ) {
      const start = parseHttpUrl(collection.url);
      if (start && start.pathname !== '/' && start.pathname !== '') {
        warnings.push(
          `Only ${completed} result(s) found. For broader coverage, try crawling with crawlEntireDomain=true or start from a higher-level path like ${start.origin}/`,
        );
      }
    }
    if (warnings.length > 0) body.warning = warnings.join(' ');
    return body;
  }

  private template(url: string, options: Record<string, unknown>): Omit<ScrapeRequest, 'url'> {
    const { url: _url, ...template } = scrapeRequestSchema.parse({ ...options, url: url.trim() });
    return template;
  }

  private pageCost(template: Omit<ScrapeRequest, 'url'>): number {
    return scrapeCredits({
      formats: template.formats,
      zeroDataRetention: template.zeroDataRetention,
      redactPII: template.redactPII,
      lockdown: template.lockdown,
    });
  }

  private concurrency(caller: Caller, requested: number | undefined): number {
    const team = caller.concurrencyLimit ?? this.deps.settings.defaultTeamConcurrency;
    return Math.max(1, Math.min(requested ?? team, team));
  }

  private acceptableBatchUrl(raw: string): boolean {
    const value = raw.trim();
    if (!isAcceptableHttpUrl(value)) return false;
    const host = new URL(value).hostname.replace(/^\[|\]$/g, '');
    // Literal addresses the outbound guard would refuse are dropped up front (names are checked when fetched).
    return !isIP(host) || this.deps.settings.addressPolicy.allows(host);
  }

  private publicUrl(kind: CollectionKind, id: string): string {
    return `${this.deps.settings.publicUrl}/v2/${PATHS[kind]}/${id}`;
  }
}

function apiStatus(status: JobStatus): CollectionStatus {
  return status === 'queued' || status === 'active' ? 'scraping' : status;
}

/** Nested scrapeOptions accept and ignore the SDK's envelope keys (compat §8.1). */
function stripEnvelope(options: CrawlRequest['scrapeOptions']): Record<string, unknown> {
  const { origin: _origin, integration: _integration, toolDetail: _toolDetail, ...rest } = options;
  return rest;
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
