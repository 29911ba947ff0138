import { Controller, Headers, Inject, Param, Query } from '@nestjs/common';

import {
  activeCrawlsResponseSchema,
  collectionCancelResponseSchema,
  collectionErrorsResponseSchema,
  collectionStartResponseSchema,
  concurrencyCheckResponseSchema,
  creditUsageHistoricalResponseSchema,
  extractStartResponseSchema,
  extractStatusResponseSchema,
  queueStatusResponseSchema,
  tokenUsageHistoricalResponseSchema,
  type V1BatchScrapeRequest,
  v1BatchScrapeRequestSchema,
  v1CollectionStatusResponseSchema,
  type V1CrawlRequest,
  v1CrawlRequestSchema,
  v1CreditUsageResponseSchema,
  type V1ExtractRequest,
  v1ExtractRequestSchema,
  type V1MapRequest,
  v1MapRequestSchema,
  v1MapResponseSchema,
  type V1ScrapeRequest,
  v1ScrapeRequestSchema,
  v1ScrapeResponseSchema,
  type V1SearchRequest,
  v1SearchRequestSchema,
  v1SearchResponseSchema,
  v1TokenUsageResponseSchema,
} from '@quarry/contracts';
import { CollectionService } from '@quarry/crawl';
import type { AuthContext } from '@quarry/identity';

import { CurrentAuth, RequestPublicUrl } from '../auth/auth.decorator';
import { parsePaging } from '../crawl/paging.util';
import { Route } from '../openapi/route.decorator';
import { RouteBody } from '../openapi/route-input.decorator';
import { V1ApiService } from './v1-api.service';

const tag = 'v1';
const idempotencyOf = (header: string | undefined) => CollectionService.parseIdempotencyKey(header);

/** The v1 API for the integrations that still call it (docs/v1.md): routes over V1ApiService. */
@Controller('v1')
export class V1Controller {
  constructor(@Inject(V1ApiService) private readonly v1: V1ApiService) {}

  @Route({
    method: 'post',
    path: 'scrape',
    summary: 'v1: scrape one URL (v1 formats and options)',
    tag,
    body: v1ScrapeRequestSchema,
    statuses: [402, 408],
    auth: { scope: 'scrape', rateLimit: 'scrape' },
    response: v1ScrapeResponseSchema,
  })
  scrape(@CurrentAuth() auth: AuthContext, @RouteBody() request: V1ScrapeRequest) {
    return this.v1.scrape(auth, request);
  }

  @Route({
    method: 'post',
    path: 'crawl',
    summary: 'v1: start a crawl',
    tag,
    body: v1CrawlRequestSchema,
    statuses: [402, 409],
    auth: { scope: 'crawl', rateLimit: 'crawl' },
    response: collectionStartResponseSchema,
  })
  crawl(
    @CurrentAuth() auth: AuthContext,
    @RequestPublicUrl() publicUrl: string | undefined,
    @Headers('x-idempotency-key') idempotencyKey: string | undefined,
    @RouteBody() request: V1CrawlRequest,
  ) {
    return this.v1.startCrawl(auth, publicUrl, request, idempotencyOf(idempotencyKey));
  }

  @Route({
    method: 'get',
    path: 'crawl/active',
    summary: 'v1: running crawls of the team',
    tag,
    auth: { scope: 'crawl', rateLimit: 'status' },
    response: activeCrawlsResponseSchema,
  })
  activeCrawls(@CurrentAuth() auth: AuthContext) {
    return this.v1.activeCrawls(auth);
  }

  @Route({
    method: 'get',
    path: 'crawl/ongoing',
    summary: 'v1: running crawls of the team (alias)',
    tag,
    auth: { scope: 'crawl', rateLimit: 'status' },
    response: activeCrawlsResponseSchema,
  })
  ongoingCrawls(@CurrentAuth() auth: AuthContext) {
    return this.v1.activeCrawls(auth);
  }

  @Route({
    method: 'get',
    path: 'crawl/:jobId',
    summary: 'v1: crawl status and documents (skip/limit paging)',
    tag,
    auth: { scope: 'crawl', rateLimit: 'status', uuidParams: ['jobId'] },
    response: v1CollectionStatusResponseSchema,
  })
  crawlStatus(
    @CurrentAuth() auth: AuthContext,
    @RequestPublicUrl() publicUrl: string | undefined,
    @Param('jobId') jobId: string,
    @Query('skip') skip?: string,
    @Query('limit') limit?: string,
  ) {
    return this.v1.status(auth, publicUrl, 'crawl', jobId, parsePaging(skip, limit));
  }

  @Route({
    method: 'delete',
    path: 'crawl/:jobId',
    summary: 'v1: cancel a crawl',
    tag,
    statuses: [409],
    auth: { scope: 'crawl', rateLimit: 'status', uuidParams: ['jobId'] },
    response: collectionCancelResponseSchema,
  })
  cancelCrawl(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.v1.cancel(auth, 'crawl', jobId);
  }

  @Route({
    method: 'get',
    path: 'crawl/:jobId/errors',
    summary: 'v1: failed and robots-blocked pages of a crawl',
    tag,
    auth: { scope: 'crawl', rateLimit: 'status', uuidParams: ['jobId'] },
    response: collectionErrorsResponseSchema,
  })
  crawlErrors(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.v1.errors(auth, 'crawl', jobId);
  }

  @Route({
    method: 'post',
    path: 'batch/scrape',
    summary: 'v1: start a batch scrape',
    tag,
    body: v1BatchScrapeRequestSchema,
    statuses: [402, 409],
    auth: { scope: 'scrape', rateLimit: 'batch' },
    response: collectionStartResponseSchema,
  })
  batch(
    @CurrentAuth() auth: AuthContext,
    @RequestPublicUrl() publicUrl: string | undefined,
    @Headers('x-idempotency-key') idempotencyKey: string | undefined,
    @RouteBody() request: V1BatchScrapeRequest,
  ) {
    return this.v1.startBatch(auth, publicUrl, request, idempotencyOf(idempotencyKey));
  }

  @Route({
    method: 'get',
    path: 'batch/scrape/:jobId',
    summary: 'v1: batch status and documents',
    tag,
    auth: { scope: 'scrape', rateLimit: 'status', uuidParams: ['jobId'] },
    response: v1CollectionStatusResponseSchema,
  })
  batchStatus(
    @CurrentAuth() auth: AuthContext,
    @RequestPublicUrl() publicUrl: string | undefined,
    @Param('jobId') jobId: string,
    @Query('skip') skip?: string,
    @Query('limit') limit?: string,
  ) {
    return this.v1.status(auth, publicUrl, 'batch_scrape', jobId, parsePaging(skip, limit));
  }

  @Route({
    method: 'delete',
    path: 'batch/scrape/:jobId',
    summary: 'v1: cancel a batch scrape',
    tag,
    statuses: [409],
    auth: { scope: 'scrape', rateLimit: 'status', uuidParams: ['jobId'] },
    response: collectionCancelResponseSchema,
  })
  cancelBatch(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.v1.cancel(auth, 'batch_scrape', jobId);
  }

  @Route({
    method: 'get',
    path: 'batch/scrape/:jobId/errors',
    summary: 'v1: failed pages of a batch scrape',
    tag,
    auth: { scope: 'scrape', rateLimit: 'status', uuidParams: ['jobId'] },
    response: collectionErrorsResponseSchema,
  })
  batchErrors(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.v1.errors(auth, 'batch_scrape', jobId);
  }

  @Route({
    method: 'post',
    path: 'map',
    summary: 'v1: URLs of a site (links as strings)',
    tag,
    body: v1MapRequestSchema,
    statuses: [402, 408],
    auth: { scope: 'map', rateLimit: 'map' },
    response: v1MapResponseSchema,
  })
  map(@CurrentAuth() auth: AuthContext, @RouteBody() request: V1MapRequest) {
    return this.v1.map(auth, request);
  }

  @Route({
    method: 'post',
    path: 'search',
    summary: 'v1: web search (one flat list of results)',
    tag,
    body: v1SearchRequestSchema,
    statuses: [402, 408],
    auth: { scope: 'search', rateLimit: 'search' },
    response: v1SearchResponseSchema,
  })
  search(@CurrentAuth() auth: AuthContext, @RouteBody() request: V1SearchRequest) {
    return this.v1.search(auth, request);
  }

  @Route({
    method: 'post',
    path: 'extract',
    summary: 'v1: start an extract job',
    tag,
    body: v1ExtractRequestSchema,
    statuses: [402, 422],
    auth: { scope: 'extract', rateLimit: 'extract' },
    response: extractStartResponseSchema,
  })
  extract(@CurrentAuth() auth: AuthContext, @RouteBody() request: V1ExtractRequest) {
    return this.v1.startExtract(auth, request);
  }

  @Route({
    method: 'get',
    path: 'extract/:jobId',
    summary: 'v1: status and result of an extract job',
    tag,
    auth: { scope: 'extract', rateLimit: 'status', uuidParams: ['jobId'] },
    response: extractStatusResponseSchema,
  })
  extractStatus(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.v1.extractStatus(auth, jobId);
  }

  @Route({
    method: 'get',
    path: 'team/credit-usage',
    summary: 'v1: remaining credits (snake_case)',
    tag,
    auth: { scope: 'account', rateLimit: 'status' },
    response: v1CreditUsageResponseSchema,
  })
  creditUsage(@CurrentAuth() auth: AuthContext) {
    return this.v1.creditUsage(auth);
  }

  @Route({
    method: 'get',
    path: 'team/credit-usage/historical',
    summary: 'v1: credits used per month',
    tag,
    auth: { scope: 'account', rateLimit: 'status' },
    response: creditUsageHistoricalResponseSchema,
  })
  creditHistory(@CurrentAuth() auth: AuthContext, @Query('byApiKey') byApiKey?: string) {
    return this.v1.creditHistory(auth, byApiKey === 'true');
  }

  @Route({
    method: 'get',
    path: 'team/token-usage',
    summary: 'v1: remaining tokens (snake_case)',
    tag,
    auth: { scope: 'account', rateLimit: 'status' },
    response: v1TokenUsageResponseSchema,
  })
  tokenUsage(@CurrentAuth() auth: AuthContext) {
    return this.v1.tokenUsage(auth);
  }

  @Route({
    method: 'get',
    path: 'team/token-usage/historical',
    summary: 'v1: tokens used per month',
    tag,
    auth: { scope: 'account', rateLimit: 'status' },
    response: tokenUsageHistoricalResponseSchema,
  })
  tokenHistory(@CurrentAuth() auth: AuthContext, @Query('byApiKey') byApiKey?: string) {
    return this.v1.tokenHistory(auth, byApiKey === 'true');
  }

  @Route({
    method: 'get',
    path: 'team/queue-status',
    summary: 'v1: active and waiting jobs',
    tag,
    auth: { scope: 'account', rateLimit: 'status' },
    response: queueStatusResponseSchema,
  })
  queueStatus(@CurrentAuth() auth: AuthContext) {
    return this.v1.queueStatus(auth);
  }

  @Route({
    method: 'get',
    path: 'concurrency-check',
    summary: 'v1: current and maximum concurrency',
    tag,
    auth: { scope: 'account', rateLimit: 'status' },
    response: concurrencyCheckResponseSchema,
  })
  concurrency(@CurrentAuth() auth: AuthContext) {
    return this.v1.concurrency(auth);
  }
}
