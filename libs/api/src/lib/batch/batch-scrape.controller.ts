import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { batchScrapeRequestSchema, type BatchScrapeRequest } from '@quarry/contracts';
import { CollectionService } from '@quarry/crawl';
import type { AuthContext } from '@quarry/identity';
import { ZodValidationPipe } from '@quarry/platform/http';
import { Auth, CurrentAuth } from '../auth/auth.decorator';
import { callerOf } from '../crawl/caller.util';
import { parsePaging } from '../crawl/paging.util';

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
