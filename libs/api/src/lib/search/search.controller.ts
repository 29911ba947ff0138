import { Body, Controller, Inject, type PipeTransform } from '@nestjs/common';

import {
  AppError,
  SEARCH_VALIDATION_MESSAGE,
  type SearchRequest,
  searchRequestSchema,
  searchResponseSchema,
  UNRECOGNIZED_KEY_MESSAGE,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { parseOrThrow } from '@quarry/platform/runtime';
import { SearchService } from '@quarry/search';

import { CurrentAuth } from '../auth/auth.decorator';
import { Route } from '../openapi/route.decorator';
import { ScrapeService } from '../scrape/scrape.service';
import { searchResultScrapers } from './search-scrapers.util';

/** Search answers validation failures with "Invalid request body" (docs/crawl.md#search) unless a key is unknown. */
export class SearchValidationPipe implements PipeTransform<unknown, SearchRequest> {
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

  @Route({
    method: 'post',
    summary: 'Web search and the team index, optionally scraping results',
    tag: 'search',
    body: searchRequestSchema,
    statuses: [402, 408],
    auth: { scope: 'search', rateLimit: 'search' },
    response: searchResponseSchema,
  })
  search(@CurrentAuth() auth: AuthContext, @Body(new SearchValidationPipe()) request: SearchRequest) {
    const { scrape, start } = searchResultScrapers(this.scrapes, auth);
    return this.searches.search(
      { teamId: auth.teamId, apiKeyId: auth.apiKeyId, zeroDataRetention: auth.zeroDataRetention },
      request,
      scrape,
      start,
    );
  }
}
