import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import {
  crawlParamsPreviewSchema,
  crawlRequestSchema,
  type CrawlParamsPreviewRequest,
  type CrawlRequest,
} from '@quarry/contracts';
import { CollectionService } from '@quarry/crawl';
import type { AuthContext } from '@quarry/identity';
import { ZodValidationPipe } from '@quarry/platform/http';
import { Auth, CurrentAuth } from '../auth/auth.decorator';
import { defineOperations } from '../openapi/openapi.registry';
import { callerOf } from './caller.util';
import { parsePaging } from './paging.util';

defineOperations(
  {
    method: 'post',
    path: '/v2/crawl',
    summary: 'Start a crawl',
    tag: 'crawl',
    body: crawlRequestSchema,
    statuses: [402, 409],
  },
  {
    method: 'post',
    path: '/v2/crawl/params-preview',
    summary: 'Crawler options a prompt would set',
    tag: 'crawl',
    body: crawlParamsPreviewSchema,
  },
  { method: 'get', path: '/v2/crawl/active', summary: 'Running crawls of the team', tag: 'crawl' },
  {
    method: 'get',
    path: '/v2/crawl/ongoing',
    summary: 'Running crawls of the team (alias of /active)',
    tag: 'crawl',
  },
  {
    method: 'get',
    path: '/v2/crawl/{jobId}',
    summary: 'Crawl status and documents (skip/limit paging, WebSocket watcher on the same path)',
    tag: 'crawl',
    uuidParams: ['jobId'],
  },
  {
    method: 'delete',
    path: '/v2/crawl/{jobId}',
    summary: 'Cancel a crawl',
    tag: 'crawl',
    uuidParams: ['jobId'],
    statuses: [409],
  },
  {
    method: 'get',
    path: '/v2/crawl/{jobId}/errors',
    summary: 'Failed and robots-blocked pages of a crawl',
    tag: 'crawl',
    uuidParams: ['jobId'],
  },
);

@Controller('v2/crawl')
export class CrawlController {
  constructor(@Inject(CollectionService) private readonly collections: CollectionService) {}

  @Post()
  @HttpCode(200)
  @Auth({ scope: 'crawl', rateLimit: 'crawl' })
  start(
    @CurrentAuth() auth: AuthContext,
    @Headers('x-idempotency-key') idempotencyKey: string | undefined,
    @Body(new ZodValidationPipe(crawlRequestSchema)) request: CrawlRequest,
    @Body() raw: unknown,
  ) {
    const explicit = new Set(raw && typeof raw === 'object' ? Object.keys(raw) : []);
    return this.collections.startCrawl(
      callerOf(auth),
      request,
      CollectionService.parseIdempotencyKey(idempotencyKey),
      explicit,
    );
  }

  @Post('params-preview')
  @HttpCode(200)
  @Auth({ scope: 'crawl', rateLimit: 'crawl' })
  preview(
    @CurrentAuth() auth: AuthContext,
    @Body(new ZodValidationPipe(crawlParamsPreviewSchema)) request: CrawlParamsPreviewRequest,
  ) {
    return this.collections.previewParams(callerOf(auth), request.url, request.prompt);
  }

  @Get('active')
  @Auth({ scope: 'crawl', rateLimit: 'status' })
  active(@CurrentAuth() auth: AuthContext) {
    return this.collections.active(callerOf(auth));
  }

  @Get('ongoing')
  @Auth({ scope: 'crawl', rateLimit: 'status' })
  ongoing(@CurrentAuth() auth: AuthContext) {
    return this.collections.active(callerOf(auth));
  }

  @Get(':jobId')
  @Auth({ scope: 'crawl', rateLimit: 'status', uuidParams: ['jobId'] })
  status(
    @CurrentAuth() auth: AuthContext,
    @Param('jobId') jobId: string,
    @Query('skip') skip?: string,
    @Query('limit') limit?: string,
  ) {
    return this.collections.status(callerOf(auth), 'crawl', jobId, parsePaging(skip, limit));
  }

  @Delete(':jobId')
  @Auth({ scope: 'crawl', rateLimit: 'status', uuidParams: ['jobId'] })
  cancel(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.collections.cancel(callerOf(auth), 'crawl', jobId);
  }

  @Get(':jobId/errors')
  @Auth({ scope: 'crawl', rateLimit: 'status', uuidParams: ['jobId'] })
  errors(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.collections.errors(callerOf(auth), 'crawl', jobId);
  }
}
