export * from './lib/monitor-runner.module';
export * from './lib/monitor-check.consumer';
