import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';

import { AgentApiModule } from '@quarry/agent/gateway';
import { UsageReportRepository } from '@quarry/billing';
import {
  DocumentRepository,
  JobDispatcher,
  JobOutcomeStore,
  JobRepository,
  JobWaiter,
  TeamJobsRepository,
} from '@quarry/jobs';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { Database } from '@quarry/platform/database';
import { LOGGER, type Logger, PlatformMetrics } from '@quarry/platform/observability';
import { HealthController } from '@quarry/platform/runtime';
import { ScrapeCache } from '@quarry/scrape/cache';
import { ChangeSnapshotRepository, InteractSessionRepository, ProfileRepository } from '@quarry/scrape/state';
import { AccountModule, BillingModule, IdentityModule, JobsModule } from '@quarry/wiring/core';
import { CrawlModule } from '@quarry/wiring/crawl';
import { MonitorModule } from '@quarry/wiring/monitor';
import { SearchModule } from '@quarry/wiring/search';

import { AccountController } from './account/account.controller';
import { AgentController } from './agent/agent.controller';
import { ApiAuthGuard } from './auth/api-auth.guard';
import { BatchScrapeController } from './batch/batch-scrape.controller';
import { BlobsController } from './blobs/blobs.controller';
import { BootstrapKeyService } from './bootstrap/bootstrap-key.service';
import { CrawlController } from './crawl/crawl.controller';
import { ExtractController } from './extract/extract.controller';
import { InteractController } from './interact/interact.controller';
import { InteractService } from './interact/interact.service';
import { JobWaiterLifecycle } from './job-waiter.lifecycle';
import { MapController } from './map/map.controller';
import { MonitorController } from './monitor/monitor.controller';
import { ParseController } from './parse/parse.controller';
import { ParseService } from './parse/parse.service';
import { ParseUploadsService } from './parse/parse-uploads.service';
import { LegacyHealthController } from './root/legacy-health.controller';
import { RootController } from './root/root.controller';
import { ScrapeController } from './scrape/scrape.controller';
import { ScrapeService } from './scrape/scrape.service';
import { SearchController } from './search/search.controller';
import { TeamController } from './team/team.controller';
import { TeamService } from './team/team.service';
import { TeamJobsController } from './team/team-jobs.controller';
import { TeamJobsService } from './team/team-jobs.service';
import { V1Controller } from './v1/v1.controller';
import { V1ApiService } from './v1/v1-api.service';
import { CollectionWatcher } from './watcher/collection-watcher';

/** The public HTTP API (`/v2/...`, and `/v1/...` translated onto it): thin controllers over the domain services. */
@Module({
  imports: [
    DiscoveryModule,
    IdentityModule,
    BillingModule,
    JobsModule,
    CrawlModule,
    SearchModule,
    AccountModule,
    AgentApiModule,
    MonitorModule,
  ],
  controllers: [
    RootController,
    HealthController,
    LegacyHealthController,
    ScrapeController,
    InteractController,
    BlobsController,
    CrawlController,
    BatchScrapeController,
    MapController,
    SearchController,
    AccountController,
    AgentController,
    ExtractController,
    ParseController,
    MonitorController,
    V1Controller,
    TeamController,
    TeamJobsController,
  ],
  providers: [
    ApiAuthGuard,
    CollectionWatcher,
    ScrapeService,
    { provide: ScrapeCache, useFactory: (db: Database) => new ScrapeCache(db), inject: [Database] },
    {
      provide: ProfileRepository,
      useFactory: (db: Database) => new ProfileRepository(db),
      inject: [Database],
    },
    {
      provide: ChangeSnapshotRepository,
      useFactory: (db: Database) => new ChangeSnapshotRepository(db),
      inject: [Database],
    },
    InteractService,
    {
      provide: InteractSessionRepository,
      useFactory: (db: Database, profiles: ProfileRepository) => new InteractSessionRepository(db, profiles),
      inject: [Database, ProfileRepository],
    },
    ParseService,
    ParseUploadsService,
    V1ApiService,
    TeamService,
    TeamJobsService,
    {
      provide: TeamJobsRepository,
      useFactory: (db: Database) => new TeamJobsRepository(db),
      inject: [Database],
    },
    {
      provide: UsageReportRepository,
      useFactory: (db: Database) => new UsageReportRepository(db),
      inject: [Database],
    },
    BootstrapKeyService,
    {
      provide: JobWaiter,
      useFactory: (bus: MessageBus, jobs: JobRepository, logger: Logger) =>
        new JobWaiter(bus, jobs, logger.child({ component: 'job-waiter' })),
      inject: [MESSAGE_BUS, JobRepository, LOGGER],
    },
    JobWaiterLifecycle,
    {
      provide: JobDispatcher,
      useFactory: (
        jobs: JobRepository,
        documents: DocumentRepository,
        outcomes: JobOutcomeStore,
        waiter: JobWaiter,
        bus: MessageBus,
        metrics: PlatformMetrics,
      ) => new JobDispatcher({ jobs, documents, outcomes, waiter, bus, metrics }),
      inject: [JobRepository, DocumentRepository, JobOutcomeStore, JobWaiter, MESSAGE_BUS, PlatformMetrics],
    },
  ],
})
export class ApiModule {}
