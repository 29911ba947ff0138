import type { CreditsService } from '@quarry/billing';
import type { JobRepository } from '@quarry/jobs';
import type { MessageBus } from '@quarry/platform/bus';
import type { AddressPolicy, WebhookTargetPolicy } from '@quarry/platform/net';
import type { PlatformMetrics } from '@quarry/platform/observability';

import type { Dispatcher } from '../frontier/dispatcher';
import type { FrontierRepository } from '../frontier/frontier.repository';
import type { CollectionEvents } from '../webhooks/collection-events';
import type { CollectionRepository } from './collection.repository';
import type { CrawlPromptInterpreter } from './crawl-prompt.interpreter';

/** Who is asking (the API's AuthContext, narrowed to what collections need). */
export interface Caller {
  teamId: string;
  apiKeyId?: string;
  zeroDataRetention: boolean;
  concurrencyLimit?: number;
  canOverrideRobots: boolean;
  /** Base of the absolute URLs handed to this caller (`url`, `next`); default: the configured PUBLIC_URL. */
  publicUrl?: string;
  /** The API generation those URLs name (`/v1` for the v1 translation); default `/v2`. */
  apiPath?: '/v1' | '/v2';
}

export interface CollectionServiceSettings {
  publicUrl: string;
  retentionHours: number;
  defaultTeamConcurrency: number;
  /** The outbound policy: batch URLs it refuses outright are listed as invalid. */
  addressPolicy: AddressPolicy;
}

/** What the crawl and batch use cases are built from. */
export interface CollectionServiceDeps {
  collections: CollectionRepository;
  frontier: FrontierRepository;
  jobs: JobRepository;
  credits: CreditsService;
  dispatcher: Dispatcher;
  events: CollectionEvents;
  bus: MessageBus;
  /** Reads crawler options from a crawl's `prompt` (a language model when configured, else rules). */
  prompts: CrawlPromptInterpreter;
  settings: CollectionServiceSettings;
  /** Counts crawls and batch scrapes started (`quarry_jobs_queued_total`). */
  metrics?: PlatformMetrics;
  /** Refuses webhooks the outbound policy would never deliver to. */
  webhookTargets: WebhookTargetPolicy;
}
