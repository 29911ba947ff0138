import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { scrapeRequestSchema, type ScrapeRequest } from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { ZodValidationPipe } from '@quarry/platform/http';
import { Auth, CurrentAuth } from '../auth/auth.decorator';
import { ScrapeService } from './scrape.service';

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
