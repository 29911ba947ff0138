import { Module } from '@nestjs/common';

import { AgentRunRepository } from '@quarry/agent/domain';
import { ExtractSteps } from '@quarry/agent/extract';
import { CreditsService } from '@quarry/billing';
import { DocumentRepository, JobOutcomeStore, JobRepository, JobWaiter } from '@quarry/jobs';
import { LLM_PROVIDER, LlmModule, type LlmProvider } from '@quarry/llm';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import { LOGGER, type Logger, PlatformMetrics } from '@quarry/platform/observability';
import { ExtractionModule, ExtractionService } from '@quarry/scrape/model-formats';
import { MapService, type SearchProvider } from '@quarry/search';
import { WebhookOutboxRepository } from '@quarry/webhooks';
import { BillingModule, JobsModule, WebhooksModule } from '@quarry/wiring/core';
import { SEARCH_PROVIDER, SearchModule } from '@quarry/wiring/search';

import { AgentPageWork } from './agent-page-work';
import { AgentRunner } from './agent-runner';
import { AgentSweeper } from './agent-sweeper';
import { AGENT_JOB_WAITER, AgentWorkConsumer } from './agent-work.consumer';
import { IndexSearch } from './index-search';
import { ScrapeGateway } from './scrape-gateway';
import { TaskRunner } from './task-runner';

/**
 * The agent orchestrator: planner loop, sub-agent tasks, sweeper (agent-orchestrator app, one-process
 * mode). It also runs extract jobs, which reuse the crawl's map and web search provider.
 */
@Module({
  imports: [BillingModule, JobsModule, LlmModule, ExtractionModule, SearchModule, WebhooksModule],
  providers: [
    {
      provide: AgentPageWork,
      useFactory: (config: AppConfig) => new AgentPageWork(config),
      inject: [APP_CONFIG],
    },
    {
      provide: AgentRunRepository,
      useFactory: (db: Database, credits: CreditsService, webhooks: WebhookOutboxRepository) =>
        new AgentRunRepository(db, credits, webhooks),
      inject: [Database, CreditsService, WebhookOutboxRepository],
    },
    {
      provide: ExtractSteps,
      useFactory: (
        runs: AgentRunRepository,
        map: MapService,
        search: SearchProvider | null,
        config: AppConfig,
        logger: Logger,
      ) =>
        new ExtractSteps({
          runs,
          map,
          search: search ?? undefined,
          config,
          logger: logger.child({ component: 'extract-jobs' }),
        }),
      inject: [AgentRunRepository, MapService, SEARCH_PROVIDER, APP_CONFIG, LOGGER],
    },
    { provide: IndexSearch, useFactory: (db: Database) => new IndexSearch(db), inject: [Database] },
    {
      provide: AGENT_JOB_WAITER,
      useFactory: (bus: MessageBus, jobs: JobRepository, logger: Logger) =>
        new JobWaiter(bus, jobs, logger.child({ component: 'agent-job-waiter' })),
      inject: [MESSAGE_BUS, JobRepository, LOGGER],
    },
    {
      provide: ScrapeGateway,
      useFactory: (
        jobs: JobRepository,
        documents: DocumentRepository,
        outcomes: JobOutcomeStore,
        waiter: JobWaiter,
        bus: MessageBus,
        metrics: PlatformMetrics,
        config: AppConfig,
      ) =>
        new ScrapeGateway({
          jobs,
          documents,
          outcomes,
          waiter,
          bus,
          metrics,
          retentionHours: config.jobs.retentionHours,
        }),
      inject: [
        JobRepository,
        DocumentRepository,
        JobOutcomeStore,
        AGENT_JOB_WAITER,
        MESSAGE_BUS,
        PlatformMetrics,
        APP_CONFIG,
      ],
    },
    {
      provide: AgentRunner,
      useFactory: (
        runs: AgentRunRepository,
        documents: DocumentRepository,
        extraction: ExtractionService,
        llm: LlmProvider,
        index: IndexSearch,
        bus: MessageBus,
        config: AppConfig,
        metrics: PlatformMetrics,
        logger: Logger,
        extractJobs: ExtractSteps,
        webSearch: SearchProvider | null,
        pageWork: AgentPageWork,
      ) =>
        new AgentRunner({
          runs,
          documents,
          extraction,
          llm,
          index,
          bus,
          config,
          metrics,
          logger: logger.child({ component: 'agent-runner' }),
          extractJobs,
          webSearch: webSearch ?? undefined,
          pageWork: pageWork.transformer,
        }),
      inject: [
        AgentRunRepository,
        DocumentRepository,
        ExtractionService,
        LLM_PROVIDER,
        IndexSearch,
        MESSAGE_BUS,
        APP_CONFIG,
        PlatformMetrics,
        LOGGER,
        ExtractSteps,
        SEARCH_PROVIDER,
        AgentPageWork,
      ],
    },
    {
      provide: TaskRunner,
      useFactory: (
        runs: AgentRunRepository,
        scrapes: ScrapeGateway,
        bus: MessageBus,
        config: AppConfig,
        metrics: PlatformMetrics,
        logger: Logger,
      ) =>
        new TaskRunner({
          runs,
          scrapes,
          bus,
          config,
          metrics,
          logger: logger.child({ component: 'agent-tasks' }),
        }),
      inject: [AgentRunRepository, ScrapeGateway, MESSAGE_BUS, APP_CONFIG, PlatformMetrics, LOGGER],
    },
    {
      provide: AgentSweeper,
      useFactory: (
        runs: AgentRunRepository,
        bus: MessageBus,
        config: AppConfig,
        logger: Logger,
        runner: AgentRunner,
      ) =>
        new AgentSweeper({ runs, bus, config, runner, logger: logger.child({ component: 'agent-sweeper' }) }),
      inject: [AgentRunRepository, MESSAGE_BUS, APP_CONFIG, LOGGER, AgentRunner],
    },
    AgentWorkConsumer,
  ],
  exports: [AgentRunner, AgentSweeper],
})
export class AgentOrchestratorModule {}
