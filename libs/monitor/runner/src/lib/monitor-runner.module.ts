import { Module } from '@nestjs/common';

import { CollectionService } from '@quarry/crawl';
import { JobRepository } from '@quarry/jobs';
import { LLM_PROVIDER, LlmModule, type LlmProvider } from '@quarry/llm';
import {
  ChangeJudge,
  CheckNotifier,
  CheckRunner,
  EmailSubscriptionRepository,
  MonitorRepository,
  MonitorScheduler,
} from '@quarry/monitor';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { LOGGER, type Logger, PlatformMetrics } from '@quarry/platform/observability';
import { SearchService } from '@quarry/search';
import { CrawlModule } from '@quarry/wiring/crawl';
import { MonitorModule } from '@quarry/wiring/monitor';
import { SearchModule } from '@quarry/wiring/search';

import { MonitorCheckConsumer } from './monitor-check.consumer';

/** How often a running check reads the status of its crawls and batches. */
const COLLECTION_POLL_MS = 1_000;

/**
 * What an agent orchestrator (or the one-process mode) contributes to monitors: the scheduler and
 * the `monitor.checks` consumer that runs checks through the crawl and batch machinery.
 */
@Module({
  imports: [MonitorModule, CrawlModule, SearchModule, LlmModule],
  providers: [
    {
      provide: ChangeJudge,
      useFactory: (llm: LlmProvider, logger: Logger) =>
        new ChangeJudge(llm, logger.child({ component: 'monitor-judge' })),
      inject: [LLM_PROVIDER, LOGGER],
    },
    {
      provide: CheckRunner,
      useFactory: (
        monitors: MonitorRepository,
        collections: CollectionService,
        search: SearchService,
        jobs: JobRepository,
        judge: ChangeJudge,
        notifier: CheckNotifier,
        config: AppConfig,
        logger: Logger,
        metrics: PlatformMetrics,
      ) =>
        new CheckRunner({
          monitors,
          collections,
          search,
          jobs,
          judge,
          notifier,
          settings: {
            leaseMs: config.monitor.checkLeaseMs,
            timeoutMs: config.monitor.checkTimeoutMs,
            pollMs: COLLECTION_POLL_MS,
            maxAttempts: config.monitor.checkMaxAttempts,
          },
          metrics,
          logger: logger.child({ component: 'monitor-checks' }),
        }),
      inject: [
        MonitorRepository,
        CollectionService,
        SearchService,
        JobRepository,
        ChangeJudge,
        CheckNotifier,
        APP_CONFIG,
        LOGGER,
        PlatformMetrics,
      ],
    },
    {
      provide: MonitorScheduler,
      useFactory: (
        monitors: MonitorRepository,
        subscriptions: EmailSubscriptionRepository,
        bus: MessageBus,
        config: AppConfig,
        logger: Logger,
      ) =>
        new MonitorScheduler({
          monitors,
          subscriptions,
          bus,
          settings: { intervalMs: config.monitor.schedulerIntervalMs, leaseMs: config.monitor.checkLeaseMs },
          logger: logger.child({ component: 'monitor-scheduler' }),
        }),
      inject: [MonitorRepository, EmailSubscriptionRepository, MESSAGE_BUS, APP_CONFIG, LOGGER],
    },
    MonitorCheckConsumer,
  ],
  exports: [CheckRunner, MonitorScheduler],
})
export class MonitorRunnerModule {}
