export * from './lib/api-exception.filter';
export * from './lib/zod-validation.pipe';
export * from './lib/body-parsers';
export * from './lib/health.controller';
export * from './lib/public.decorator';
export * from './lib/create-http-app';
export * from './lib/platform-runtime';
export * from './lib/run-service';
