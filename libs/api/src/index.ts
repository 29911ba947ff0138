export * from './lib/api.module';
export * from './lib/api-http';
export * from './lib/auth/auth.decorator';
export * from './lib/auth/api-auth.guard';
export * from './lib/watcher/watch-routes';
export * from './lib/openapi/openapi.util';
export * from './lib/openapi/route.decorator';
export * from './lib/parse/parse-multipart';
