export * from './lib/test-infra';
export * from './lib/fixture-server';
export * from './lib/basic-site';
export * from './lib/crawl-site';
export * from './lib/fake-llm-server';
export * from './lib/scripted-llm';
