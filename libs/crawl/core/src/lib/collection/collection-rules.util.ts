import { scrapeCredits } from '@quarry/billing';
import {
  AppError,
  type CollectionStatus,
  type CrawlRequest,
  type JobStatus,
  type ScrapeRequest,
  scrapeRequestSchema,
} from '@quarry/contracts';

import type { CollectionKind } from '../frontier/frontier.types';
import type { Caller, CollectionServiceSettings } from './collection.types';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PATHS: Record<CollectionKind, string> = { crawl: 'crawl', batch_scrape: 'batch/scrape' };

/** The scrape request every page of a collection runs with (validated once, at the start). */
export function pageTemplate(url: string, options: Record<string, unknown>): Omit<ScrapeRequest, 'url'> {
  const { url: _url, ...template } = scrapeRequestSchema.parse({ ...options, url: url.trim() });
  return template;
}

/** Credits one page of the collection costs. */
export function pageCost(template: Omit<ScrapeRequest, 'url'>): number {
  return scrapeCredits({
    formats: template.formats,
    zeroDataRetention: template.zeroDataRetention,
    redactPII: template.redactPII,
    lockdown: template.lockdown,
    checkPromptInjection: template.checkPromptInjection,
  });
}

/** The collection's concurrency: what the caller asked for, never above the team's limit. */
export function collectionConcurrency(
  caller: Caller,
  requested: number | undefined,
  settings: CollectionServiceSettings,
): number {
  const team = caller.concurrencyLimit ?? settings.defaultTeamConcurrency;
  return Math.max(1, Math.min(requested ?? team, team));
}

/** The collection's status URL as this caller addresses the API. */
export function collectionUrl(
  caller: Pick<Caller, 'publicUrl' | 'apiPath'>,
  settings: CollectionServiceSettings,
  kind: CollectionKind,
  id: string,
): string {
  return `${caller.publicUrl ?? settings.publicUrl}${caller.apiPath ?? '/v2'}/${PATHS[kind]}/${id}`;
}

export function apiStatus(status: JobStatus): CollectionStatus {
  return status === 'queued' || status === 'active' ? 'scraping' : status;
}

/** Nested scrapeOptions accept and ignore the SDK's envelope keys (docs/crawl.md#crawl-options). */
export function stripEnvelope(options: CrawlRequest['scrapeOptions']): Record<string, unknown> {
  const { origin: _origin, integration: _integration, toolDetail: _toolDetail, ...rest } = options;
  return rest;
}

/** The `x-idempotency-key` header: a UUID (lower-cased), or undefined when absent. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value === '') return undefined;
  if (!UUID.test(value.trim()))
    throw new AppError('BAD_REQUEST', { message: 'Idempotency key must be a UUID' });
  return value.trim().toLowerCase();
}
