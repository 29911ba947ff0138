import type { Logger } from 'pino';

import type { CollectionService } from '@quarry/crawl';
import type { JobRepository } from '@quarry/jobs';
import type { PlatformMetrics } from '@quarry/platform/observability';
import type { SearchService } from '@quarry/search';

import type { CheckNotifier } from '../notify/check-notifier';
import type { MonitorRepository } from '../persistence/monitor.repository';
import type { ChangeJudge } from './change-judge';

export interface CheckRunnerSettings {
  /** Lease on a running check; renewed while it waits. */
  leaseMs: number;
  /** A check still waiting after this long cancels its collections and reports what it has. */
  timeoutMs: number;
  /** How often the collections' status is read while waiting. */
  pollMs: number;
  /** Runners a check may have; the next one quarantines it (WORK_MAX_ATTEMPTS). */
  maxAttempts: number;
}

export interface CheckRunnerDeps {
  monitors: MonitorRepository;
  collections: CollectionService;
  search: SearchService;
  jobs: JobRepository;
  judge: ChangeJudge;
  notifier: CheckNotifier;
  settings: CheckRunnerSettings;
  metrics: PlatformMetrics;
  logger: Logger;
}
