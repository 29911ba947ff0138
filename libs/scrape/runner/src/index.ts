export * from './lib/scrape-job.handler';
export * from './lib/scrape-runner.module';
export * from './lib/outbound';
export * from './lib/scrape-formats.module';
