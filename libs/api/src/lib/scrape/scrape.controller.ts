import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { scrapeRequestSchema, scrapeResponseSchema, type ScrapeRequest } from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { ZodValidationPipe } from '@quarry/platform/http';
import { Auth, CurrentAuth } from '../auth/auth.decorator';
import { defineOperations } from '../openapi/openapi.registry';
import { ScrapeService } from './scrape.service';

defineOperations(
  { method: 'post', path: '/v2/scrape', summary: 'Scrape one URL', tag: 'scrape', body: scrapeRequestSchema, response: scrapeResponseSchema, statuses: [402, 404, 408] },
  { method: 'get', path: '/v2/scrape/{jobId}', summary: 'A past scrape of the team', tag: 'scrape', uuidParams: ['jobId'], response: scrapeResponseSchema },
);

@Controller('v2/scrape')
export class ScrapeController {
  constructor(@Inject(ScrapeService) private readonly scrapes: ScrapeService) {}

  @Post()
  @HttpCode(200)
  @Auth({ scope: 'scrape', rateLimit: 'scrape' })
  scrape(@CurrentAuth() auth: AuthContext, @Body(new ZodValidationPipe(scrapeRequestSchema)) request: ScrapeRequest) {
    return this.scrapes.scrape(auth, request);
  }

  @Get(':jobId')
  @Auth({ scope: 'scrape', rateLimit: 'status', uuidParams: ['jobId'] })
  get(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.scrapes.get(auth, jobId);
  }
}
