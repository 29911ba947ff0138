export * from './lib/crawl.module';
