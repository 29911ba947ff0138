export * from './lib/scrape-job.handler';
export * from './lib/scrape-worker.module';
export * from './lib/outbound';
