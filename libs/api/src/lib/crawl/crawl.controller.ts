import { Body, Controller, Headers, Inject, Param, Query } from '@nestjs/common';

import {
  activeCrawlsResponseSchema,
  collectionCancelResponseSchema,
  collectionErrorsResponseSchema,
  collectionStartResponseSchema,
  collectionStatusResponseSchema,
  type CrawlParamsPreviewRequest,
  crawlParamsPreviewResponseSchema,
  crawlParamsPreviewSchema,
  type CrawlRequest,
  crawlRequestSchema,
} from '@quarry/contracts';
import { CollectionService } from '@quarry/crawl';
import type { AuthContext } from '@quarry/identity';

import { CurrentAuth, RequestPublicUrl } from '../auth/auth.decorator';
import { Route } from '../openapi/route.decorator';
import { RouteBody } from '../openapi/route-input.decorator';
import { callerOf } from './caller.util';
import { parsePaging } from './paging.util';

@Controller('v2/crawl')
export class CrawlController {
  constructor(@Inject(CollectionService) private readonly collections: CollectionService) {}

  @Route({
    method: 'post',
    summary: 'Start a crawl',
    tag: 'crawl',
    body: crawlRequestSchema,
    statuses: [402, 409],
    auth: { scope: 'crawl', rateLimit: 'crawl' },
    response: collectionStartResponseSchema,
  })
  start(
    @CurrentAuth() auth: AuthContext,
    @RequestPublicUrl() publicUrl: string | undefined,
    @Headers('x-idempotency-key') idempotencyKey: string | undefined,
    @RouteBody() request: CrawlRequest,
    @Body() raw: unknown,
  ) {
    const explicit = new Set(raw && typeof raw === 'object' ? Object.keys(raw) : []);
    return this.collections.startCrawl(
      callerOf(auth, publicUrl),
      request,
      CollectionService.parseIdempotencyKey(idempotencyKey),
      explicit,
    );
  }

  @Route({
    method: 'post',
    path: 'params-preview',
    summary: 'Crawler options a prompt would set',
    tag: 'crawl',
    body: crawlParamsPreviewSchema,
    auth: { scope: 'crawl', rateLimit: 'crawl' },
    response: crawlParamsPreviewResponseSchema,
  })
  preview(@CurrentAuth() auth: AuthContext, @RouteBody() request: CrawlParamsPreviewRequest) {
    return this.collections.previewParams(callerOf(auth), request.url, request.prompt);
  }

  @Route({
    method: 'get',
    path: 'active',
    summary: 'Running crawls of the team',
    tag: 'crawl',
    auth: { scope: 'crawl', rateLimit: 'status' },
    response: activeCrawlsResponseSchema,
  })
  active(@CurrentAuth() auth: AuthContext) {
    return this.collections.active(callerOf(auth));
  }

  @Route({
    method: 'get',
    path: 'ongoing',
    summary: 'Running crawls of the team (alias of /active)',
    tag: 'crawl',
    auth: { scope: 'crawl', rateLimit: 'status' },
    response: activeCrawlsResponseSchema,
  })
  ongoing(@CurrentAuth() auth: AuthContext) {
    return this.collections.active(callerOf(auth));
  }

  @Route({
    method: 'get',
    path: ':jobId',
    summary: 'Crawl status and documents (skip/limit paging, WebSocket watcher on the same path)',
    tag: 'crawl',
    auth: { scope: 'crawl', rateLimit: 'status', uuidParams: ['jobId'] },
    response: collectionStatusResponseSchema,
  })
  status(
    @CurrentAuth() auth: AuthContext,
    @RequestPublicUrl() publicUrl: string | undefined,
    @Param('jobId') jobId: string,
    @Query('skip') skip?: string,
    @Query('limit') limit?: string,
  ) {
    return this.collections.status(callerOf(auth, publicUrl), 'crawl', jobId, parsePaging(skip, limit));
  }

  @Route({
    method: 'delete',
    path: ':jobId',
    summary: 'Cancel a crawl',
    tag: 'crawl',
    statuses: [409],
    auth: { scope: 'crawl', rateLimit: 'status', uuidParams: ['jobId'] },
    response: collectionCancelResponseSchema,
  })
  cancel(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.collections.cancel(callerOf(auth), 'crawl', jobId);
  }

  @Route({
    method: 'get',
    path: ':jobId/errors',
    summary: 'Failed and robots-blocked pages of a crawl',
    tag: 'crawl',
    auth: { scope: 'crawl', rateLimit: 'status', uuidParams: ['jobId'] },
    response: collectionErrorsResponseSchema,
  })
  errors(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.collections.errors(callerOf(auth), 'crawl', jobId);
  }
}
