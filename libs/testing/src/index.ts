export * from './lib/test-infra';
export * from './lib/fixture-server';
export * from './lib/basic-site';
export * from './lib/scrape-site';
export * from './lib/network-fixtures';
export * from './lib/promql';
export * from './lib/fake-llm-server';
export * from './lib/scripted-llm';
