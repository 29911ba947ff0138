import { Global, Module } from '@nestjs/common';
import { CreditsService } from '@quarry/billing';
import { Database } from '@quarry/platform/database';
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
export class JobsModule {}
