import type { CreditsService } from '@quarry/billing';
import type { JobOutcomeStore, JobRepository } from '@quarry/jobs';
import type { Logger, PlatformMetrics } from '@quarry/platform/observability';

import type { DocumentIndexRepository } from './document-index.repository';
import type { SearchProvider } from './search-provider';

/** What `/v2/map` and `/v2/search` jobs both need: the team's index, the web provider, job records and billing. */
export interface IndexJobDeps {
  index: DocumentIndexRepository;
  provider?: SearchProvider;
  jobs: JobRepository;
  outcomes: JobOutcomeStore;
  credits: CreditsService;
  logger: Logger;
  /** Counts the jobs by kind (running, finished, duration, credits). */
  metrics?: PlatformMetrics;
  retentionHours: number;
}
