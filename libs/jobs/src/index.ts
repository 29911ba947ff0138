export * from './lib/job.repository';
export * from './lib/document.repository';
export * from './lib/job-outcome.store';
export * from './lib/job-waiter';
export * from './lib/job-events';
export * from './lib/jobs.module';
export * from './lib/parse-upload.repository';
