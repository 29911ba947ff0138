import type { PipeTransform } from '@nestjs/common';

import { AppError, type ScrapeRequest, scrapeRequestSchema } from '@quarry/contracts';
import { parseOrThrow } from '@quarry/platform/runtime';

/**
 * `POST /v2/scrape` bodies. An `alexandria` body (the reference's hosted data-provider execution,
 * sent by its MCP server instead of a `url`) is answered 403 "Exchange is not enabled for this team."
 * as the reference answers a team without it; anything else is validated against the contract.
 */
export class ScrapeRequestPipe implements PipeTransform<unknown, ScrapeRequest> {
  transform(value: unknown): ScrapeRequest {
    if (value && typeof value === 'object' && 'alexandria' in value)
      throw new AppError('EXCHANGE_NOT_ENABLED');
    return parseOrThrow(scrapeRequestSchema, value ?? {});
  }
}
