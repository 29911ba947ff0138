export * from './lib/test-infra';
export * from './lib/fixture-server';
export * from './lib/basic-site';
export * from './lib/crawl-site';
