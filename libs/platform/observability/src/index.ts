export * from './lib/logger';
export * from './lib/metrics';
export * from './lib/health';
export * from './lib/observability.module';
export * from './lib/tracing';
export * from './lib/tracing-sdk';
