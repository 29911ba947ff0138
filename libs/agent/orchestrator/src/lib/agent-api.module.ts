import { Module } from '@nestjs/common';
import { BillingModule, CreditsService } from '@quarry/billing';
import { JobsModule } from '@quarry/jobs';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import { LOGGER, PlatformMetrics, type Logger } from '@quarry/platform/observability';
import { AgentRunRepository } from './agent-run.repository';
import { AgentService } from './agent.service';
import { ExtractService } from './extract.service';

const runRepository = {
  provide: AgentRunRepository,
  useFactory: (db: Database, credits: CreditsService) => new AgentRunRepository(db, credits),
  inject: [Database, CreditsService],
};

/** The agent API's services (gateway side): agent runs (create, poll, trace, snapshot, cancel, list) and extract jobs. */
@Module({
  imports: [BillingModule, JobsModule],
  providers: [
    runRepository,
    {
      provide: AgentService,
      useFactory: (
        runs: AgentRunRepository,
        credits: CreditsService,
        bus: MessageBus,
        config: AppConfig,
        metrics: PlatformMetrics,
        logger: Logger,
      ) =>
        new AgentService({
          runs,
          credits,
          bus,
          config,
          metrics,
          logger: logger.child({ component: 'agent-api' }),
        }),
      inject: [AgentRunRepository, CreditsService, MESSAGE_BUS, APP_CONFIG, PlatformMetrics, LOGGER],
    },
    {
      provide: ExtractService,
      useFactory: (
        runs: AgentRunRepository,
        credits: CreditsService,
        bus: MessageBus,
        config: AppConfig,
        metrics: PlatformMetrics,
        logger: Logger,
      ) =>
        new ExtractService({
          runs,
          credits,
          bus,
          config,
          metrics,
          logger: logger.child({ component: 'extract-api' }),
        }),
      inject: [AgentRunRepository, CreditsService, MESSAGE_BUS, APP_CONFIG, PlatformMetrics, LOGGER],
    },
  ],
  exports: [AgentService, ExtractService, AgentRunRepository],
})
export class AgentApiModule {}
