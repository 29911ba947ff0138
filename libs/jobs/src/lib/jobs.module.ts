import { Global, Inject, Module, type OnModuleInit } from '@nestjs/common';
import { CreditsService } from '@quarry/billing';
import { Database } from '@quarry/platform/database';
import { PlatformMetrics } from '@quarry/platform/observability';
import { DocumentRepository } from './document.repository';
import { JobOutcomeStore } from './job-outcome.store';
import { JobRepository } from './job.repository';
import { ParseUploadRepository } from './parse-upload.repository';

@Global()
@Module({
  providers: [
    { provide: JobRepository, useFactory: (db: Database) => new JobRepository(db), inject: [Database] },
    { provide: DocumentRepository, useFactory: (db: Database) => new DocumentRepository(db), inject: [Database] },
    { provide: ParseUploadRepository, useFactory: (db: Database) => new ParseUploadRepository(db), inject: [Database] },
    {
      provide: JobOutcomeStore,
      useFactory: (db: Database, documents: DocumentRepository, credits: CreditsService) => new JobOutcomeStore(db, documents, credits),
      inject: [Database, DocumentRepository, CreditsService],
    },
  ],
  exports: [JobRepository, DocumentRepository, JobOutcomeStore, ParseUploadRepository],
})
export class JobsModule implements OnModuleInit {
  constructor(
    @Inject(JobRepository) private readonly jobs: JobRepository,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
  ) {}

  /** `quarry_jobs_pending{kind,status}`: the deployment's backlog, counted in the database when /metrics is scraped. */
  onModuleInit(): void {
    this.metrics.reportPendingJobs(() => this.jobs.countPending());
  }
}
