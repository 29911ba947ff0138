import { Controller, Headers, Inject, Param, Query } from '@nestjs/common';

import {
  type BatchScrapeRequest,
  batchScrapeRequestSchema,
  collectionCancelResponseSchema,
  collectionErrorsResponseSchema,
  collectionStartResponseSchema,
  collectionStatusResponseSchema,
} from '@quarry/contracts';
import { CollectionService } from '@quarry/crawl';
import type { AuthContext } from '@quarry/identity';

import { CurrentAuth, RequestPublicUrl } from '../auth/auth.decorator';
import { callerOf } from '../crawl/caller.util';
import { parsePaging } from '../crawl/paging.util';
import { Route } from '../openapi/route.decorator';
import { RouteBody } from '../openapi/route-input.decorator';

@Controller('v2/batch/scrape')
export class BatchScrapeController {
  constructor(@Inject(CollectionService) private readonly collections: CollectionService) {}

  @Route({
    method: 'post',
    summary: 'Start a batch scrape',
    tag: 'batch',
    body: batchScrapeRequestSchema,
    statuses: [402, 404, 409],
    auth: { scope: 'scrape', rateLimit: 'batch' },
    response: collectionStartResponseSchema,
  })
  start(
    @CurrentAuth() auth: AuthContext,
    @RequestPublicUrl() publicUrl: string | undefined,
    @Headers('x-idempotency-key') idempotencyKey: string | undefined,
    @RouteBody() request: BatchScrapeRequest,
  ) {
    return this.collections.startBatch(
      callerOf(auth, publicUrl),
      request,
      CollectionService.parseIdempotencyKey(idempotencyKey),
    );
  }

  @Route({
    method: 'get',
    path: ':jobId',
    summary: 'Batch status and documents (skip/limit paging, WebSocket watcher on the same path)',
    tag: 'batch',
    auth: { scope: 'scrape', rateLimit: 'status', uuidParams: ['jobId'] },
    response: collectionStatusResponseSchema,
  })
  status(
    @CurrentAuth() auth: AuthContext,
    @RequestPublicUrl() publicUrl: string | undefined,
    @Param('jobId') jobId: string,
    @Query('skip') skip?: string,
    @Query('limit') limit?: string,
  ) {
    return this.collections.status(
      callerOf(auth, publicUrl),
      'batch_scrape',
      jobId,
      parsePaging(skip, limit),
    );
  }

  @Route({
    method: 'delete',
    path: ':jobId',
    summary: 'Cancel a batch scrape',
    tag: 'batch',
    statuses: [409],
    auth: { scope: 'scrape', rateLimit: 'status', uuidParams: ['jobId'] },
    response: collectionCancelResponseSchema,
  })
  cancel(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.collections.cancel(callerOf(auth), 'batch_scrape', jobId);
  }

  @Route({
    method: 'get',
    path: ':jobId/errors',
    summary: 'Failed pages of a batch scrape',
    tag: 'batch',
    auth: { scope: 'scrape', rateLimit: 'status', uuidParams: ['jobId'] },
    response: collectionErrorsResponseSchema,
  })
  errors(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.collections.errors(callerOf(auth), 'batch_scrape', jobId);
  }
}
