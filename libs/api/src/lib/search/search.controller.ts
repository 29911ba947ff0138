import { Body, Controller, HttpCode, Inject, Post, type PipeTransform } from '@nestjs/common';
import {
  AppError,
  scrapeRequestSchema,
  SEARCH_VALIDATION_MESSAGE,
  searchRequestSchema,
  UNRECOGNIZED_KEY_MESSAGE,
  type ScrapeOptions,
  type SearchRequest,
} from '@quarry/contracts';
import { SearchService } from '@quarry/crawl';
import type { AuthContext } from '@quarry/identity';
import { parseOrThrow } from '@quarry/platform/http';
import { Auth, CurrentAuth } from '../auth/auth.decorator';
import { defineOperations } from '../openapi/openapi.registry';
import { ScrapeService } from '../scrape/scrape.service';

defineOperations({
  method: 'post',
  path: '/v2/search',
  summary: 'Web search and the team index, optionally scraping results',
  tag: 'search',
  body: searchRequestSchema,
  statuses: [402, 408],
});

/** Search answers validation failures with "Invalid request body" (compat §11) unless a key is unknown. */
class SearchValidationPipe implements PipeTransform<unknown, SearchRequest> {
  transform(value: unknown): SearchRequest {
    try {
      return parseOrThrow(searchRequestSchema, value ?? {});
    } catch (error) {
      if (error instanceof AppError && error.message !== UNRECOGNIZED_KEY_MESSAGE) {
        throw new AppError('BAD_REQUEST', { message: SEARCH_VALIDATION_MESSAGE, details: error.details });
      }
      throw error;
    }
  }
}

@Controller('v2/search')
export class SearchController {
  constructor(
    @Inject(SearchService) private readonly searches: SearchService,
    @Inject(ScrapeService) private readonly scrapes: ScrapeService,
  ) {}

  @Post()
  @HttpCode(200)
  @Auth({ scope: 'search', rateLimit: 'search' })
  search(@CurrentAuth() auth: AuthContext, @Body(new SearchValidationPipe()) request: SearchRequest) {
    const scrapeRequest = (url: string, options: ScrapeOptions, timeoutMs = options.timeout) => {
      const {
        origin: _origin,
        integration: _integration,
        toolDetail: _toolDetail,
        ...scrapeOptions
      } = options;
      const timeout = Math.max(1_000, Math.min(scrapeOptions.timeout, timeoutMs));
      return scrapeRequestSchema.parse({
        ...scrapeOptions,
        url,
        timeout,
        waitFor: Math.min(scrapeOptions.waitFor, Math.floor(timeout / 2)),
      });
    };
    return this.searches.search(
      { teamId: auth.teamId, apiKeyId: auth.apiKeyId, zeroDataRetention: auth.zeroDataRetention },
      request,
      async (url, options, timeoutMs) =>
        (await this.scrapes.scrape(auth, scrapeRequest(url, options, timeoutMs))).data,
      (url, options) => this.scrapes.start(auth, scrapeRequest(url, options)),
    );
  }
}
