export * from './lib/monitor.module';
