import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { AgentApiModule } from '@quarry/agent/orchestrator';
import { BillingModule } from '@quarry/billing';
import { IdentityModule } from '@quarry/identity';
import { JobRepository, JobsModule, JobWaiter } from '@quarry/jobs';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { HealthController } from '@quarry/platform/http';
import { Database } from '@quarry/platform/database';
import { HealthRegistry, LOGGER, type Logger } from '@quarry/platform/observability';
import { CrawlModule } from '@quarry/crawl';
import { MonitorModule } from '@quarry/monitor';
import { ScrapeCache } from '@quarry/scrape/cache';
import { ChangeSnapshotRepository, InteractSessionRepository, ProfileRepository } from '@quarry/scrape/state';
import { AccountController } from './account/account.controller';
import { AgentController } from './agent/agent.controller';
import { ApiAuthGuard } from './auth/api-auth.guard';
import { BatchScrapeController } from './batch/batch-scrape.controller';
import { BootstrapKeyService } from './bootstrap/bootstrap-key.service';
import { BlobsController } from './blobs/blobs.controller';
import { CrawlController } from './crawl/crawl.controller';
import { ExtractController } from './extract/extract.controller';
import { InteractController } from './interact/interact.controller';
import { InteractService } from './interact/interact.service';
import { MapController } from './map/map.controller';
import { MonitorController } from './monitor/monitor.controller';
import { RootController } from './root/root.controller';
import { ParseController } from './parse/parse.controller';
import { ParseUploadsService } from './parse/parse-uploads.service';
import { ParseService } from './parse/parse.service';
import { SearchController } from './search/search.controller';
import { CollectionWatcher } from './watcher/collection-watcher';
import { ScrapeController } from './scrape/scrape.controller';
import { ScrapeService } from './scrape/scrape.service';

/** Starts following job events and makes readiness wait for the subscription. */
class JobWaiterLifecycle implements OnApplicationBootstrap {
  constructor(
    @Inject(JobWaiter) private readonly waiter: JobWaiter,
    @Inject(HealthRegistry) private readonly health: HealthRegistry,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.waiter.start();
    let assigned = false;
    void this.bus.subscriptionsReady().then(() => (assigned = true));
    this.health.register('job-events', async () => {
      if (!assigned) throw new Error('job events subscription not assigned yet');
    });
  }
}

/** The public HTTP API (`/v2/...`): thin controllers over the domain services. */
@Module({
  imports: [IdentityModule, BillingModule, JobsModule, CrawlModule, AgentApiModule, MonitorModule],
  controllers: [
    RootController,
    HealthController,
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
    BootstrapKeyService,
    {
      provide: JobWaiter,
      useFactory: (bus: MessageBus, jobs: JobRepository, logger: Logger) =>
        new JobWaiter(bus, jobs, logger.child({ component: 'job-waiter' })),
      inject: [MESSAGE_BUS, JobRepository, LOGGER],
    },
    JobWaiterLifecycle,
  ],
})
export class ApiModule {}
