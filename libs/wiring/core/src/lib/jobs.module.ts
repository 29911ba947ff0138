import {
  Global,
  Inject,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';

import {
  AbandonedJobSweeper,
  DocumentRepository,
  JobClaims,
  JobOutcomeStore,
  JobRepository,
  ParseUploadRepository,
  SuspectGate,
} from '@quarry/jobs';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import { LOGGER, type Logger, PlatformMetrics } from '@quarry/platform/observability';

@Global()
@Module({
  providers: [
    { provide: JobRepository, useFactory: (db: Database) => new JobRepository(db), inject: [Database] },
    {
      provide: DocumentRepository,
      useFactory: (db: Database) => new DocumentRepository(db),
      inject: [Database],
    },
    {
      provide: ParseUploadRepository,
      useFactory: (db: Database) => new ParseUploadRepository(db),
      inject: [Database],
    },
    {
      provide: JobOutcomeStore,
      useFactory: (db: Database) => new JobOutcomeStore(db),
      inject: [Database],
    },
    {
      provide: JobClaims,
      useFactory: (
        jobs: JobRepository,
        outcomes: JobOutcomeStore,
        metrics: PlatformMetrics,
        logger: Logger,
        config: AppConfig,
        gate: SuspectGate,
      ) =>
        new JobClaims(
          jobs,
          outcomes,
          metrics,
          logger.child({ component: 'job-claims' }),
          config.jobs.maxAttempts,
          gate,
        ),
      inject: [JobRepository, JobOutcomeStore, PlatformMetrics, LOGGER, APP_CONFIG, SuspectGate],
    },
    { provide: SuspectGate, useFactory: () => new SuspectGate() },
    {
      provide: AbandonedJobSweeper,
      useFactory: (jobs: JobRepository, logger: Logger) =>
        new AbandonedJobSweeper(jobs, logger.child({ component: 'abandoned-jobs' })),
      inject: [JobRepository, LOGGER],
    },
  ],
  exports: [
    JobRepository,
    DocumentRepository,
    JobOutcomeStore,
    ParseUploadRepository,
    JobClaims,
    SuspectGate,
  ],
})
export class JobsModule implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(JobRepository) private readonly jobs: JobRepository,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
    @Inject(AbandonedJobSweeper) private readonly abandoned: AbandonedJobSweeper,
  ) {}

  onApplicationBootstrap(): void {
    this.abandoned.start();
  }

  onApplicationShutdown(): void {
    this.abandoned.stop();
  }

  /** `quarry_jobs_pending{kind,status}`: the deployment's backlog, counted in the database when /metrics is scraped. */
  onModuleInit(): void {
    this.metrics.reportPendingJobs(() => this.jobs.countPending());
  }
}
