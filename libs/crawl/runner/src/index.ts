export * from './lib/crawl-runner.module';
