import { Body, Controller, Inject, Param } from '@nestjs/common';

import { type ScrapeRequest, scrapeRequestSchema, scrapeResponseSchema } from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';

import { CurrentAuth } from '../auth/auth.decorator';
import { Route } from '../openapi/route.decorator';
import { ScrapeService } from './scrape.service';
import { ScrapeRequestPipe } from './scrape-request.pipe';

@Controller('v2/scrape')
export class ScrapeController {
  constructor(@Inject(ScrapeService) private readonly scrapes: ScrapeService) {}

  @Route({
    method: 'post',
    summary: 'Scrape one URL',
    tag: 'scrape',
    body: scrapeRequestSchema,
    statuses: [402, 404, 408],
    auth: { scope: 'scrape', rateLimit: 'scrape' },
    response: scrapeResponseSchema,
  })
  scrape(@CurrentAuth() auth: AuthContext, @Body(new ScrapeRequestPipe()) request: ScrapeRequest) {
    return this.scrapes.scrape(auth, request);
  }

  @Route({
    method: 'get',
    path: ':jobId',
    summary: 'A past scrape of the team',
    tag: 'scrape',
    auth: { scope: 'scrape', rateLimit: 'status', uuidParams: ['jobId'] },
    response: scrapeResponseSchema,
  })
  get(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.scrapes.get(auth, jobId);
  }
}
