export * from './lib/agent-runner';
export * from './lib/task-runner';
export * from './lib/agent-sweeper';
export * from './lib/scrape-gateway';
export * from './lib/index-search';
export * from './lib/agent-orchestrator.module';
export * from './lib/agent-work.consumer';
