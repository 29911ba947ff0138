import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { batchScrapeRequestSchema, type BatchScrapeRequest } from '@quarry/contracts';
import { CollectionService } from '@quarry/crawl';
import type { AuthContext } from '@quarry/identity';
import { ZodValidationPipe } from '@quarry/platform/http';
import { Auth, CurrentAuth } from '../auth/auth.decorator';
import { callerOf } from '../crawl/caller.util';
import { parsePaging } from '../crawl/paging.util';
import { defineOperations } from '../openapi/openapi.registry';

defineOperations(
  { method: 'post', path: '/v2/batch/scrape', summary: 'Start a batch scrape', tag: 'batch', body: batchScrapeRequestSchema, statuses: [402, 404, 409] },
  { method: 'get', path: '/v2/batch/scrape/{jobId}', summary: 'Batch status and documents (skip/limit paging, WebSocket watcher on the same path)', tag: 'batch', uuidParams: ['jobId'] },
  { method: 'delete', path: '/v2/batch/scrape/{jobId}', summary: 'Cancel a batch scrape', tag: 'batch', uuidParams: ['jobId'], statuses: [409] },
  { method: 'get', path: '/v2/batch/scrape/{jobId}/errors', summary: 'Failed pages of a batch scrape', tag: 'batch', uuidParams: ['jobId'] },
);

@Controller('v2/batch/scrape')
export class BatchScrapeController {
  constructor(@Inject(CollectionService) private readonly collections: CollectionService) {}

  @Post()
  @HttpCode(200)
  @Auth({ scope: 'scrape', rateLimit: 'batch' })
  start(
    @CurrentAuth() auth: AuthContext,
    @Headers('x-idempotency-key') idempotencyKey: string | undefined,
    @Body(new ZodValidationPipe(batchScrapeRequestSchema)) request: BatchScrapeRequest,
  ) {
    return this.collections.startBatch(callerOf(auth), request, CollectionService.parseIdempotencyKey(idempotencyKey));
  }

  @Get(':jobId')
  @Auth({ scope: 'scrape', rateLimit: 'status', uuidParams: ['jobId'] })
  status(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string, @Query('skip') skip?: string, @Query('limit') limit?: string) {
    return this.collections.status(callerOf(auth), 'batch_scrape', jobId, parsePaging(skip, limit));
  }

  @Delete(':jobId')
  @Auth({ scope: 'scrape', rateLimit: 'status', uuidParams: ['jobId'] })
  cancel(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.collections.cancel(callerOf(auth), 'batch_scrape', jobId);
  }

  @Get(':jobId/errors')
  @Auth({ scope: 'scrape', rateLimit: 'status', uuidParams: ['jobId'] })
  errors(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.collections.errors(callerOf(auth), 'batch_scrape', jobId);
  }
}
