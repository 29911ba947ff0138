import { Inject, Injectable } from '@nestjs/common';

import { AccountUsageService } from '@quarry/account';
import { ExtractService } from '@quarry/agent/extract';
import {
  batchScrapeRequestSchema,
  type CollectionStatusResponse,
  crawlRequestSchema,
  extractRequestSchema,
  mapRequestSchema,
  scrapeRequestSchema,
  toV1CreditUsage,
  toV1Document,
  toV1TokenUsage,
  type V1BatchScrapeRequest,
  v1BatchToV2,
  type V1CrawlRequest,
  v1CrawlToV2,
  type V1ExtractRequest,
  v1ExtractToV2,
  type V1MapRequest,
  v1MapToV2,
  type V1ScrapeRequest,
  v1ScrapeToV2,
  type V1SearchRequest,
  v1SearchToV2,
} from '@quarry/contracts';
import { type Caller, CollectionService } from '@quarry/crawl';
import type { AuthContext } from '@quarry/identity';
import { parseOrThrow } from '@quarry/platform/runtime';
import { MapService, SearchService } from '@quarry/search';

import { callerOf } from '../crawl/caller.util';
import { ScrapeService } from '../scrape/scrape.service';
import { SearchValidationPipe } from '../search/search.controller';
import { searchResultScrapers } from '../search/search-scrapers.util';

type CollectionKind = 'crawl' | 'batch_scrape';

/**
 * The v1 API as a translation onto the v2 services (docs/v1.md): each call turns its v1 body into
 * the v2 body, validates that with the v2 contract, calls the same service as the v2 route, and
 * renders the answer in its v1 shape. No v1-specific engine, store or billing exists.
 */
@Injectable()
export class V1ApiService {
  private readonly searchBodies = new SearchValidationPipe();

  constructor(
    @Inject(ScrapeService) private readonly scrapes: ScrapeService,
    @Inject(CollectionService) private readonly collections: CollectionService,
    @Inject(MapService) private readonly maps: MapService,
    @Inject(SearchService) private readonly searches: SearchService,
    @Inject(ExtractService) private readonly extracts: ExtractService,
    @Inject(AccountUsageService) private readonly usage: AccountUsageService,
  ) {}

  async scrape(auth: AuthContext, request: V1ScrapeRequest) {
    const { body, outputs } = v1ScrapeToV2(request);
    const result = await this.scrapes.scrape(auth, parseOrThrow(scrapeRequestSchema, body));
    return { success: true as const, data: toV1Document(result.data, outputs) };
  }

  startCrawl(
    auth: AuthContext,
    publicUrl: string | undefined,
    request: V1CrawlRequest,
    idempotencyKey?: string,
  ) {
    const body = v1CrawlToV2(request);
    const v2 = parseOrThrow(crawlRequestSchema, body);
    return this.collections.startCrawl(
      this.caller(auth, publicUrl),
      v2,
      idempotencyKey,
      new Set(Object.keys(body)),
    );
  }

  startBatch(
    auth: AuthContext,
    publicUrl: string | undefined,
    request: V1BatchScrapeRequest,
    idempotencyKey?: string,
  ) {
    const v2 = parseOrThrow(batchScrapeRequestSchema, v1BatchToV2(request).body);
    return this.collections.startBatch(this.caller(auth, publicUrl), v2, idempotencyKey);
  }

  /** Crawl and batch status pages: v2's, with v1 documents and `next` links under `/v1`. */
  async status(
    auth: AuthContext,
    publicUrl: string | undefined,
    kind: CollectionKind,
    id: string,
    page: { skip?: number; limit?: number },
  ) {
    const status: CollectionStatusResponse = await this.collections.status(
      this.caller(auth, publicUrl),
      kind,
      id,
      page,
    );
    return { ...status, data: status.data.map((document) => toV1Document(document)) };
  }

  cancel(auth: AuthContext, kind: CollectionKind, id: string) {
    return this.collections.cancel(this.caller(auth), kind, id);
  }

  errors(auth: AuthContext, kind: CollectionKind, id: string) {
    return this.collections.errors(this.caller(auth), kind, id);
  }

  activeCrawls(auth: AuthContext) {
    return this.collections.active(this.caller(auth));
  }

  /** `POST /v1/map`: v1 answers the links as plain URLs. */
  async map(auth: AuthContext, request: V1MapRequest) {
    const v2 = parseOrThrow(mapRequestSchema, v1MapToV2(request));
    const result = await this.maps.map(
      { teamId: auth.teamId, apiKeyId: auth.apiKeyId, zeroDataRetention: auth.zeroDataRetention },
      v2,
    );
    return {
      success: true as const,
      links: result.links.map((link) => link.url),
      ...(result.warning ? { warning: result.warning } : {}),
    };
  }

  /** `POST /v1/search`: the web results as one flat list (scraped fields merged when formats were named). */
  async search(auth: AuthContext, request: V1SearchRequest) {
    const v2 = this.searchBodies.transform(v1SearchToV2(request));
    const { scrape, start } = searchResultScrapers(this.scrapes, auth);
    const result = await this.searches.search(
      { teamId: auth.teamId, apiKeyId: auth.apiKeyId, zeroDataRetention: auth.zeroDataRetention },
      v2,
      scrape,
      start,
    );
    const data = (result.data.web ?? []).map(({ position: _position, category: _category, ...item }) =>
      item.metadata
        ? {
            ...toV1Document({ ...item, metadata: item.metadata }),
            title: item.title,
            description: item.description,
          }
        : item,
    );
    const warning = result.warning ?? (data.length === 0 ? 'No search results found' : undefined);
    return { success: true as const, data, id: result.id, ...(warning ? { warning } : {}) };
  }

  startExtract(auth: AuthContext, request: V1ExtractRequest) {
    return this.extracts.start(auth, parseOrThrow(extractRequestSchema, v1ExtractToV2(request)));
  }

  extractStatus(auth: AuthContext, id: string) {
    return this.extracts.status(auth, id);
  }

  async creditUsage(auth: AuthContext) {
    return toV1CreditUsage(await this.usage.creditUsage(auth));
  }

  async tokenUsage(auth: AuthContext) {
    return toV1TokenUsage(await this.usage.tokenUsage(auth));
  }

  creditHistory(auth: AuthContext, byApiKey: boolean) {
    return this.usage.creditHistory(auth, byApiKey);
  }

  tokenHistory(auth: AuthContext, byApiKey: boolean) {
    return this.usage.tokenHistory(auth, byApiKey);
  }

  queueStatus(auth: AuthContext) {
    return this.usage.queueStatus(auth);
  }

  concurrency(auth: AuthContext) {
    return this.usage.concurrency(auth);
  }

  private caller(auth: AuthContext, publicUrl?: string): Caller {
    return { ...callerOf(auth, publicUrl), apiPath: '/v1' };
  }
}
